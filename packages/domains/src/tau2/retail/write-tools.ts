/**
 * Write tools of the tau2 retail domain. Each mutates the session db as
 * tau2's `RetailTools` does and returns the compact result the reference
 * harness records for the action.
 *
 * @module
 */
import { ToolError } from '@scenaro/agent/scenario';
import type { ToolDefinition } from '@scenaro/agent/scenario';
import { pyRound, pySortedStrings } from '@scenaro/agent/python';
import { arrayParam, sessionDb, stringParam, toolParameters } from '../../common/tool-kit.js';
import type { Address, Order, OrderPayment, PaymentMethod, RetailDb, Variant } from './db-types.js';
import {
  getOrderIf,
  getPaymentMethod,
  getUser,
  isDelivered,
  isPendingOrder,
  isStrictlyPending,
  itemSwap,
  missingItem,
} from './store.js';

const orderIdParam = stringParam("The order id, which starts with '#', for example '#W0000000'.");
const paymentMethodIdParam = stringParam(
  "The payment method that pays or receives the price difference, for example 'gift_card_0000000' or " +
    "'credit_card_0000000' (see the user's or the order's details).",
);
const itemIdsParam = (what: string): ReturnType<typeof arrayParam> =>
  arrayParam(
    { type: 'string' },
    `Item ids ${what}, for example '1008292230'. An id may appear more than once.`,
  );
const addressParams = {
  address1: stringParam("First address line, for example '123 Main St'."),
  address2: stringParam("Second address line, for example 'Apt 1', or an empty string."),
  city: stringParam("City, for example 'San Francisco'."),
  state: stringParam("State, for example 'CA'."),
  country: stringParam("Country, for example 'USA'."),
  zip: stringParam("Zip code, for example '12345'."),
};

type AddressArgs = Address;

/** Refuse a gift card whose balance does not cover `amount`; other methods pay anything. */
function checkGiftCardBalance(method: PaymentMethod, amount: number, what: string): void {
  if (method.source === 'gift_card' && (method.balance ?? 0) < amount) {
    throw new ToolError(`Insufficient gift card balance to pay for ${what}`);
  }
}

/** Add `amount` (negative: take it) to a gift card's balance, rounded to cents (other methods have no balance). */
function addToGiftCard(method: PaymentMethod | undefined, amount: number): void {
  if (method?.source === 'gift_card') method.balance = pyRound((method.balance ?? 0) + amount, 2);
}

/** The address fields of the arguments (any other argument is left out). */
function addressOf(args: AddressArgs): Address {
  const { address1, address2, city, state, country, zip } = args;
  return { address1, address2, city, state, country, zip };
}

/** tau2's `cancel_pending_order` (write tool). */
export const cancelPendingOrder: ToolDefinition<{ order_id: string; reason: string }> = {
  name: 'cancel_pending_order',
  aliases: ['CancelPendingOrderTool'],
  kind: 'write',
  description:
    'Cancel a pending order after the customer explicitly confirms. Every payment is refunded: at once to a ' +
    'gift card, otherwise within 5-7 business days. Processed or delivered orders cannot be cancelled.',
  parameters: toolParameters({
    order_id: orderIdParam,
    reason: stringParam(
      "Why the order is cancelled: either 'no longer needed' or 'ordered by mistake'.",
    ),
  }),
  execute: ({ order_id, reason }, context) => {
    const db = sessionDb<RetailDb>(context);
    const order = getOrderIf(
      db,
      order_id,
      isStrictlyPending,
      'Non-pending order cannot be cancelled',
    );
    if (reason !== 'no longer needed' && reason !== 'ordered by mistake')
      throw new ToolError('Invalid reason');
    // Resolve every payment method before changing anything.
    const methods = order.payment_history.map((p) =>
      getPaymentMethod(db, order.user_id, p.payment_method_id),
    );
    const refunds: OrderPayment[] = order.payment_history.map((p, i) => {
      addToGiftCard(methods[i], p.amount);
      return {
        transaction_type: 'refund',
        amount: p.amount,
        payment_method_id: p.payment_method_id,
      };
    });
    order.status = 'cancelled';
    order.cancel_reason = reason;
    order.payment_history.push(...refunds);
    return { order_id, status: 'cancelled' };
  },
};

type ItemsArgs = {
  order_id: string;
  item_ids: string[];
  new_item_ids: string[];
  payment_method_id: string;
};

/** The parameters of the tools that swap items for others of the same product. */
function itemsParameters(old: string, replacement: string): ReturnType<typeof toolParameters> {
  return toolParameters({
    order_id: orderIdParam,
    item_ids: itemIdsParam(old),
    new_item_ids: itemIdsParam(replacement),
    payment_method_id: paymentMethodIdParam,
  });
}

/** What an item swap checks, with tau2's messages (they differ between the two tools). */
interface SwapRules {
  allowed: (order: Order) => boolean;
  refusal: string;
  missing: (itemId: string) => string;
  countMismatch: string;
  /** Refuse a new item id equal to the old one. */
  distinct: boolean;
}

/** The order, checked by `rules`, with the variants and price difference of the swap. */
function checkedSwap(
  db: RetailDb,
  args: ItemsArgs,
  rules: SwapRules,
): { order: Order; variants: Variant[]; diff: number } {
  const order = getOrderIf(db, args.order_id, rules.allowed, rules.refusal);
  const missing = missingItem(order, args.item_ids);
  if (missing !== undefined) throw new ToolError(rules.missing(missing));
  if (args.item_ids.length !== args.new_item_ids.length) throw new ToolError(rules.countMismatch);
  return { order, ...itemSwap(db, order, args.item_ids, args.new_item_ids, rules.distinct) };
}

/** tau2's `exchange_delivered_order_items` (write tool). */
export const exchangeDeliveredOrderItems: ToolDefinition<ItemsArgs> = {
  name: 'exchange_delivered_order_items',
  aliases: ['ExchangeDeliveredOrderItemsTool'],
  kind: 'write',
  description:
    'Request an exchange of items of a delivered order for other items of the same product, after the ' +
    'customer explicitly confirms. A delivered order can be returned or exchanged only once.',
  parameters: itemsParameters(
    'to exchange',
    'to receive, each matching the item at the same position and of the same product',
  ),
  execute: (args, context) => {
    const db = sessionDb<RetailDb>(context);
    const { order, diff } = checkedSwap(db, args, {
      allowed: isDelivered,
      refusal: 'Non-delivered order cannot be exchanged',
      missing: (itemId) => `Number of ${itemId} not found.`,
      countMismatch: 'The number of items to be exchanged should match.',
      distinct: false,
    });
    const method = getPaymentMethod(db, order.user_id, args.payment_method_id);
    checkGiftCardBalance(method, diff, 'the price difference');
    order.status = 'exchange requested';
    order.exchange_items = pySortedStrings(args.item_ids);
    order.exchange_new_items = pySortedStrings(args.new_item_ids);
    order.exchange_payment_method_id = args.payment_method_id;
    order.exchange_price_difference = diff;
    return { order_id: args.order_id, status: 'exchange requested', price_difference: diff };
  },
};

/** tau2's `modify_pending_order_address` (write tool). */
export const modifyPendingOrderAddress: ToolDefinition<AddressArgs & { order_id: string }> = {
  name: 'modify_pending_order_address',
  aliases: ['ModifyPendingOrderAddressTool'],
  kind: 'write',
  description:
    'Change the shipping address of a pending order, after the customer explicitly confirms.',
  parameters: toolParameters({ order_id: orderIdParam, ...addressParams }),
  execute: (args, context) => {
    const order = getOrderIf(
      sessionDb<RetailDb>(context),
      args.order_id,
      isPendingOrder,
      'Non-pending order cannot be modified',
    );
    order.address = addressOf(args);
    return { order_id: args.order_id };
  },
};

/** tau2's `modify_pending_order_items` (write tool). */
export const modifyPendingOrderItems: ToolDefinition<ItemsArgs> = {
  name: 'modify_pending_order_items',
  aliases: ['ModifyPendingOrderItemsTool'],
  kind: 'write',
  description:
    'Swap items of a pending order for other items of the same product, after the customer explicitly ' +
    'confirms. This can be done only once per order; the price difference is charged or refunded.',
  parameters: itemsParameters(
    'to replace',
    'to put in their place, each matching the item at the same position and of the same product',
  ),
  execute: (args, context) => {
    const db = sessionDb<RetailDb>(context);
    // The reference harness rounds the difference (tau2 leaves it unrounded here).
    const { order, variants, diff } = checkedSwap(db, args, {
      allowed: isStrictlyPending,
      refusal: 'Non-pending order cannot be modified',
      missing: (itemId) => `${itemId} not found`,
      countMismatch: 'The number of items to be exchanged should match',
      distinct: true,
    });
    const method = getPaymentMethod(db, order.user_id, args.payment_method_id);
    checkGiftCardBalance(method, diff, 'the new item');
    order.payment_history.push({
      transaction_type: diff > 0 ? 'payment' : 'refund',
      amount: Math.abs(diff),
      payment_method_id: args.payment_method_id,
    });
    addToGiftCard(method, -diff);
    args.item_ids.forEach((itemId, i) => {
      const item = order.items.find((it) => it.item_id === itemId);
      const variant = variants[i];
      if (!item || !variant) return;
      // Each item takes its own new variant's price and options (tau2 applies the last variant to all).
      item.item_id = args.new_item_ids[i] as string;
      item.price = variant.price;
      item.options = structuredClone(variant.options);
    });
    order.status = 'pending (item modified)';
    return { order_id: args.order_id, price_difference: diff };
  },
};

/** tau2's `modify_pending_order_payment` (write tool). */
export const modifyPendingOrderPayment: ToolDefinition<{
  order_id: string;
  payment_method_id: string;
}> = {
  name: 'modify_pending_order_payment',
  aliases: ['ModifyPendingOrderPaymentTool'],
  kind: 'write',
  description:
    'Pay a pending order with a different payment method, after the customer explicitly confirms. The ' +
    'original payment is refunded.',
  parameters: toolParameters({
    order_id: orderIdParam,
    payment_method_id: stringParam(
      "The new payment method, for example 'gift_card_0000000' or 'credit_card_0000000'.",
    ),
  }),
  execute: ({ order_id, payment_method_id }, context) => {
    const db = sessionDb<RetailDb>(context);
    const order = getOrderIf(db, order_id, isPendingOrder, 'Non-pending order cannot be modified');
    const method = getPaymentMethod(db, order.user_id, payment_method_id);
    const first = order.payment_history[0];
    if (order.payment_history.length !== 1 || !first || first.transaction_type !== 'payment') {
      throw new ToolError('There should be exactly one payment for a pending order');
    }
    if (first.payment_method_id === payment_method_id) {
      throw new ToolError('The new payment method should be different from the current one');
    }
    const amount = first.amount;
    checkGiftCardBalance(method, amount, 'the order');
    const oldMethod = getPaymentMethod(db, order.user_id, first.payment_method_id);
    order.payment_history.push(
      { transaction_type: 'payment', amount, payment_method_id },
      { transaction_type: 'refund', amount, payment_method_id: first.payment_method_id },
    );
    addToGiftCard(method, -amount);
    addToGiftCard(oldMethod, amount);
    return { order_id };
  },
};

/** tau2's `modify_user_address` (write tool). */
export const modifyUserAddress: ToolDefinition<AddressArgs & { user_id: string }> = {
  name: 'modify_user_address',
  aliases: ['ModifyUserAddressTool'],
  kind: 'write',
  description: "Change a customer's default address, after the customer explicitly confirms.",
  parameters: toolParameters({
    user_id: stringParam("The user id, for example 'sara_doe_496'."),
    ...addressParams,
  }),
  execute: (args, context) => {
    const user = getUser(sessionDb<RetailDb>(context), args.user_id);
    user.address = addressOf(args);
    return { user_id: args.user_id };
  },
};

/** tau2's `return_delivered_order_items` (write tool). */
export const returnDeliveredOrderItems: ToolDefinition<{
  order_id: string;
  item_ids: string[];
  payment_method_id: string;
}> = {
  name: 'return_delivered_order_items',
  aliases: ['ReturnDeliveredOrderItemsTool'],
  kind: 'write',
  description:
    'Request a return of items of a delivered order, after the customer explicitly confirms. The refund goes ' +
    'to the original payment method or to a gift card; the customer gets return instructions by email.',
  parameters: toolParameters({
    order_id: orderIdParam,
    item_ids: itemIdsParam('to return'),
    payment_method_id: stringParam(
      "Where the refund goes: the original payment method or a gift card, for example 'gift_card_0000000'.",
    ),
  }),
  execute: ({ order_id, item_ids, payment_method_id }, context) => {
    const db = sessionDb<RetailDb>(context);
    const order = getOrderIf(db, order_id, isDelivered, 'Non-delivered order cannot be returned');
    const user = getUser(db, order.user_id);
    const method = getPaymentMethod(db, user.user_id, payment_method_id);
    if (
      method.source !== 'gift_card' &&
      payment_method_id !== order.payment_history[0]?.payment_method_id
    ) {
      throw new ToolError('Payment method should be the original payment method');
    }
    if (missingItem(order, item_ids) !== undefined) throw new ToolError('Some item not found');
    order.status = 'return requested';
    order.return_items = pySortedStrings(item_ids);
    order.return_payment_method_id = payment_method_id;
    return { order_id, status: 'return requested' };
  },
};
