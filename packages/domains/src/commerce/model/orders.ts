/**
 * Placing and cancelling orders.
 *
 * - Order ids are `o_<n>` with `n` one more than the largest existing number, so replaying the
 *   same calls on the same db always yields the same ids (and db hashes).
 * - A new order is `pending` and stamped with the store clock `meta.current_time`.
 * - A gift card pays only when its balance covers the whole total (no split payments).
 * - Placing takes the stock and empties the cart; cancelling (pending or processing orders only)
 *   puts the stock back and refunds a gift card's balance.
 *
 * @module
 */
import { ToolError } from '@scenaro/agent/scenario';
import { resolveCartItem } from './cart.js';
import { findSku, setStock } from './catalog.js';
import type { CommerceDb, Order, OrderItem, User } from './db-types.js';
import { computeTotals, fromCents, toCents } from './money.js';
import { describePaymentMethod, findPaymentMethod } from './shopper.js';

/** Statuses from which an order can still be cancelled. */
export const CANCELLABLE_STATUSES: readonly string[] = ['pending', 'processing'];

/** Reasons a shopper can give for cancelling. */
export const CANCEL_REASONS = [
  'no_longer_needed',
  'ordered_by_mistake',
  'found_better_price',
  'other',
] as const;
/** A cancellation reason. */
export type CancelReason = (typeof CANCEL_REASONS)[number];

/** The id the next order gets: `o_<largest existing number + 1>` (`o_1001` for the first). */
export function nextOrderId(db: CommerceDb): string {
  let max = 1000;
  for (const order of db.orders) {
    const match = /^o_(\d+)$/.exec(order.id);
    if (match) max = Math.max(max, Number(match[1]));
  }
  return `o_${max + 1}`;
}

function formatAddress(user: User, addressId: string): string | null {
  const a = user.addresses.find((x) => x.id === addressId);
  if (!a) return null;
  return [a.line1, a.line2, `${a.city}, ${a.state} ${a.zip}`, a.country].filter(Boolean).join(', ');
}

/** An order as the model sees it: the record plus readable payment and address. */
export function orderView(user: User, order: Order): Record<string, unknown> {
  const method = user.payment_methods.find((m) => m.id === order.payment_method_id);
  return {
    order_id: order.id,
    status: order.status,
    created_at: order.created_at,
    items: order.items.map((i) => ({ ...i, ...(i.options ? { options: { ...i.options } } : {}) })),
    subtotal: order.subtotal,
    tax: order.tax,
    total: order.total,
    payment_method_id: order.payment_method_id,
    payment_method: method ? describePaymentMethod(method) : 'a payment method no longer on file',
    shipping_address_id: order.shipping_address_id,
    shipping_address: formatAddress(user, order.shipping_address_id),
    ...(order.cancellation ? { cancellation: { ...order.cancellation } } : {}),
  };
}

/**
 * Turn `user`'s cart into an order paid with `paymentMethodId` and shipped to `addressId`.
 * @throws ToolError for an empty cart, a foreign address or payment method, missing stock,
 *   or a gift card that does not cover the total. Nothing changes when it throws.
 */
export function placeOrder(
  db: CommerceDb,
  user: User,
  paymentMethodId: string,
  addressId: string,
): Order {
  if (user.cart.items.length === 0) {
    throw new ToolError('The cart is empty; add items before placing an order.');
  }
  if (!user.addresses.some((a) => a.id === addressId)) {
    const ids = user.addresses.map((a) => `${a.id} (${a.label})`).join(', ');
    throw new ToolError(
      `Address '${addressId}' does not belong to ${user.name}. Their addresses: ${ids}.`,
    );
  }
  const method = findPaymentMethod(user, paymentMethodId);
  const lines = user.cart.items.map((item) => ({ item, resolved: resolveCartItem(db, item) }));
  const short = lines.filter((l) => l.item.quantity > l.resolved.stock);
  if (short.length > 0) {
    const list = short
      .map(
        (l) =>
          `${l.resolved.product.name} ${l.item.sku} (in cart ${l.item.quantity}, in stock ${l.resolved.stock})`,
      )
      .join('; ');
    throw new ToolError(`Not enough stock for: ${list}. Update the cart first.`);
  }
  const totals = computeTotals(
    lines.map((l) => ({ unitPrice: l.resolved.unitPrice, quantity: l.item.quantity })),
  );
  if (method.type === 'gift_card' && toCents(method.balance) < totals.totalCents) {
    throw new ToolError(
      `The gift card balance ($${method.balance.toFixed(2)}) does not cover the order total ` +
        `($${totals.total.toFixed(2)}); gift cards cannot be combined with another payment method. ` +
        'Choose another payment method or remove items.',
    );
  }

  const items: OrderItem[] = lines.map(({ item, resolved }) => ({
    product_id: resolved.product.id,
    name: resolved.product.name,
    sku: resolved.sku,
    ...(resolved.variant ? { options: { ...resolved.options } } : {}),
    quantity: item.quantity,
    unit_price: resolved.unitPrice,
  }));
  for (const { item, resolved } of lines) setStock(resolved, resolved.stock - item.quantity);
  if (method.type === 'gift_card')
    method.balance = fromCents(toCents(method.balance) - totals.totalCents);
  const order: Order = {
    id: nextOrderId(db),
    user_id: user.id,
    status: 'pending',
    created_at: db.meta.current_time,
    items,
    subtotal: totals.subtotal,
    tax: totals.tax,
    total: totals.total,
    payment_method_id: method.id,
    shipping_address_id: addressId,
  };
  db.orders.push(order);
  user.cart.items = [];
  return order;
}

/**
 * Cancel one of `user`'s orders: restock its items and refund the payment (a gift card gets
 * its balance back; cards and PayPal are refunded by the payment provider).
 * @throws ToolError when the order is not cancellable.
 */
export function cancelOrder(order: Order, user: User, db: CommerceDb, reason: CancelReason): Order {
  if (!CANCELLABLE_STATUSES.includes(order.status)) {
    const why =
      order.status === 'cancelled'
        ? 'is already cancelled'
        : order.status === 'shipped'
          ? 'has already shipped'
          : 'has already been delivered';
    throw new ToolError(
      `Order ${order.id} ${why} and cannot be cancelled; only pending or processing orders can be.`,
    );
  }
  for (const item of order.items) {
    const resolved = findSku(db, item.sku);
    if (resolved) setStock(resolved, resolved.stock + item.quantity);
  }
  const method = user.payment_methods.find((m) => m.id === order.payment_method_id);
  if (method?.type === 'gift_card') {
    method.balance = fromCents(toCents(method.balance) + toCents(order.total));
  }
  order.status = 'cancelled';
  order.cancellation = { reason, refund_amount: order.total, refunded_to: order.payment_method_id };
  return order;
}
