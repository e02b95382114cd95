/**
 * Lookups of tau2's `RetailTools` (`_get_order`, `_get_variant`,
 * `_get_payment_method`, ...), over the raw db.
 *
 * @module
 */
import { ToolError } from '@scenaro/agent/scenario';
import { pyRound } from '@scenaro/agent/python';
import { countOf, lookup } from '../../common/tool-kit.js';
import type { Order, PaymentMethod, Product, RetailDb, User, Variant } from './db-types.js';

/** The order (`_get_order`); tau2's error when unknown. */
export function getOrder(db: RetailDb, orderId: string): Order {
  const order = lookup(db.orders, orderId);
  if (!order) throw new ToolError('Order not found');
  return order;
}

/** The user (`_get_user`); tau2's error when unknown. */
export function getUser(db: RetailDb, userId: string): User {
  const user = lookup(db.users, userId);
  if (!user) throw new ToolError('User not found');
  return user;
}

/** The product (`_get_product`); tau2's error when unknown. */
export function getProduct(db: RetailDb, productId: string): Product {
  const product = lookup(db.products, productId);
  if (!product) throw new ToolError('Product not found');
  return product;
}

/** The item with this id in any product (`_get_item`). */
export function getItem(db: RetailDb, itemId: string): Variant {
  for (const product of Object.values(db.products)) {
    const variant = lookup(product.variants, itemId);
    if (variant) return variant;
  }
  throw new ToolError('Item not found');
}

/** An item of a given product (`_get_variant`). */
export function getVariant(db: RetailDb, productId: string, variantId: string): Variant {
  const variant = lookup(getProduct(db, productId).variants, variantId);
  if (!variant) throw new ToolError('Variant not found');
  return variant;
}

/** A payment method of the user (`_get_payment_method`). */
export function getPaymentMethod(
  db: RetailDb,
  userId: string,
  paymentMethodId: string,
): PaymentMethod {
  const method = lookup(getUser(db, userId).payment_methods, paymentMethodId);
  if (!method) throw new ToolError('Payment method not found');
  return method;
}

/** tau2's loose pending check (`"pending" in status`), used for address and payment changes. */
export function isPendingOrder(order: Order): boolean {
  return order.status.includes('pending');
}

/** tau2's strict pending check, used for cancelling and changing items. */
export function isStrictlyPending(order: Order): boolean {
  return order.status === 'pending';
}

/** Whether the order was delivered (returns and exchanges need it). */
export function isDelivered(order: Order): boolean {
  return order.status === 'delivered';
}

/** The order (`_get_order`), refused with `refusal` unless `allowed(order)`. */
export function getOrderIf(
  db: RetailDb,
  orderId: string,
  allowed: (order: Order) => boolean,
  refusal: string,
): Order {
  const order = getOrder(db, orderId);
  if (!allowed(order)) throw new ToolError(refusal);
  return order;
}

/**
 * The variants replacing the order's items `itemIds` with `newItemIds` (position by position,
 * available, of the same product) and the price difference, rounded to cents; tau2's errors for an
 * unknown item or variant. `distinct`: also refuse a new id equal to the old one.
 */
export function itemSwap(
  db: RetailDb,
  order: Order,
  itemIds: readonly string[],
  newItemIds: readonly string[],
  distinct: boolean,
): { variants: Variant[]; diff: number } {
  let diff = 0;
  const variants: Variant[] = [];
  itemIds.forEach((itemId, i) => {
    const newItemId = newItemIds[i] as string;
    if (distinct && itemId === newItemId)
      throw new ToolError('The new item id should be different from the old item id');
    const item = order.items.find((it) => it.item_id === itemId);
    if (!item) throw new ToolError(`Item ${itemId} not found`);
    const variant = getVariant(db, item.product_id, newItemId);
    if (!variant.available) throw new ToolError(`New item ${newItemId} not found or available`);
    variants.push(variant);
    diff += variant.price - item.price;
  });
  return { variants, diff: pyRound(diff, 2) };
}

/**
 * The first id of `itemIds` that occurs more often than the order has it
 * (tau2 allows duplicates in both lists), if any.
 */
export function missingItem(order: Order, itemIds: readonly string[]): string | undefined {
  const orderItemIds = order.items.map((i) => i.item_id);
  return itemIds.find((id) => countOf(itemIds, id) > countOf(orderItemIds, id));
}
