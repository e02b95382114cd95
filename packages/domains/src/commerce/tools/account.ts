/**
 * The signed-in shopper's account, and the tool that ends the conversation.
 *
 * @module
 */
import type { ToolDefinition } from '@scenaro/agent/scenario';
import { defineTool, toolParameters } from '../../common/tool-kit.js';
import { describePaymentMethod } from '../model/shopper.js';
import { shopperOf } from './shared.js';

/** `get_user_details`: who is signed in, with addresses, payment methods and order history. */
export const getUserDetailsTool: ToolDefinition = defineTool<Record<string, never>>({
  name: 'get_user_details',
  kind: 'read',
  description:
    'The signed-in shopper: name, email, shipping addresses and payment methods (with their ids), ' +
    'gift card balances, and their orders (newest first) with status and total.',
  parameters: toolParameters({}, [], { listEmptyRequired: false }),
  execute(_args, context) {
    const { db, user } = shopperOf(context);
    const orders = db.orders
      .filter((o) => o.user_id === user.id)
      .reverse()
      .map((o) => ({
        order_id: o.id,
        status: o.status,
        created_at: o.created_at,
        total: o.total,
        item_count: o.items.reduce((sum, i) => sum + i.quantity, 0),
      }));
    return {
      user_id: user.id,
      name: user.name,
      email: user.email,
      phone: user.phone,
      addresses: user.addresses.map((a) => ({ ...a })),
      payment_methods: user.payment_methods.map((m) => ({
        ...m,
        description: describePaymentMethod(m),
      })),
      orders,
      cart_item_count: user.cart.items.reduce((sum, i) => sum + i.quantity, 0),
      selection_count: user.selection.product_ids.length,
    };
  },
});

/** The `<exit>` reason `end_conversation` pushes. */
export const END_CONVERSATION_REASON = 'The task is finished.';

/** `end_conversation`: hang up once the shopper is done. */
export const endConversationTool: ToolDefinition = defineTool<Record<string, never>>({
  name: 'end_conversation',
  kind: 'control',
  exitReason: END_CONVERSATION_REASON,
  description:
    'End the conversation once the shopper has nothing more to ask and has said goodbye. Say goodbye first.',
  parameters: toolParameters({}, [], { listEmptyRequired: false }),
  execute() {
    return { status: 'ended' };
  },
});
