/**
 * Order tools: place, cancel, look up.
 *
 * @module
 */
import type { ToolDefinition } from '@scenaro/agent/scenario';
import { defineTool, toolParameters } from '../../common/tool-kit.js';
import { CANCEL_REASONS, cancelOrder, orderView, placeOrder } from '../model/orders.js';
import type { CancelReason } from '../model/orders.js';
import { describePaymentMethod, findOrderOf } from '../model/shopper.js';
import { shopperOf } from './shared.js';

const ORDER_ID_SCHEMA = {
  type: 'string',
  minLength: 1,
  maxLength: 32,
  description: "An order id, e.g. 'o_1017'.",
} as const;

/** `place_order`: check out the cart. */
export const placeOrderTool: ToolDefinition = defineTool<{
  payment_method_id: string;
  shipping_address_id: string;
}>({
  name: 'place_order',
  kind: 'write',
  description:
    "Place an order for everything in the cart, paid with one of the shopper's payment methods and " +
    'shipped to one of their addresses (ids from get_user_details). A gift card must cover the ' +
    'whole total. Only call this after the shopper confirmed the items, total, payment method and ' +
    'address. Empties the cart and returns the order.',
  parameters: toolParameters({
    payment_method_id: { type: 'string', minLength: 1, maxLength: 64 },
    shipping_address_id: { type: 'string', minLength: 1, maxLength: 64 },
  }),
  execute(args, context) {
    const { db, user } = shopperOf(context);
    const order = placeOrder(db, user, args.payment_method_id, args.shipping_address_id);
    return orderView(user, order);
  },
});

/** `cancel_order`: cancel a pending or processing order. */
export const cancelOrderTool: ToolDefinition = defineTool<{
  order_id: string;
  reason: CancelReason;
}>({
  name: 'cancel_order',
  kind: 'write',
  description:
    "Cancel one of the shopper's orders that is still pending or processing (shipped and delivered " +
    'orders cannot be cancelled). Items go back to stock; a gift card is refunded to its balance, ' +
    'cards and PayPal to the original account. Only call this after the shopper confirmed.',
  parameters: toolParameters({
    order_id: ORDER_ID_SCHEMA,
    reason: { type: 'string', enum: [...CANCEL_REASONS] },
  }),
  execute(args, context) {
    const { db, user } = shopperOf(context);
    const order = cancelOrder(findOrderOf(db, user, args.order_id), user, db, args.reason);
    const method = user.payment_methods.find((m) => m.id === order.payment_method_id);
    return {
      order_id: order.id,
      status: order.status,
      refund_amount: order.total,
      refunded_to: order.payment_method_id,
      ...(method ? { refund_method: describePaymentMethod(method) } : {}),
    };
  },
});

/** `get_order_details`: one of the shopper's orders. */
export const getOrderDetailsTool: ToolDefinition = defineTool<{ order_id: string }>({
  name: 'get_order_details',
  kind: 'read',
  description:
    "Details of one of the shopper's orders: status, items, totals, payment and address.",
  parameters: toolParameters({ order_id: ORDER_ID_SCHEMA }),
  execute(args, context) {
    const { db, user } = shopperOf(context);
    return orderView(user, findOrderOf(db, user, args.order_id));
  },
});
