/**
 * The signed-in shopper. The storefront knows who is signed in; the domain keeps that in the
 * db's top-level `session` key (set by the `sign_in` initialization function), which db hashes
 * ignore. Selections, carts and orders belong to that shopper.
 *
 * @module
 */
import { ToolError } from '@scenaro/agent/scenario';
import type { CommerceDb, Order, PaymentMethod, User } from './db-types.js';

/** Find a user by id. @throws ToolError naming the unknown id. */
export function findUser(db: CommerceDb, userId: string): User {
  const user = db.users.find((u) => u.id === userId);
  if (!user) throw new ToolError(`Unknown user id '${userId}'.`);
  return user;
}

/** The signed-in shopper. @throws ToolError when nobody is signed in. */
export function currentUser(db: CommerceDb): User {
  const userId = db.session?.user_id;
  if (typeof userId !== 'string') {
    throw new ToolError(
      'No shopper is signed in. Ask them to sign in on the website; carts, selections and orders need an account.',
    );
  }
  return findUser(db, userId);
}

/** A payment method of `user`. @throws ToolError when it does not belong to them. */
export function findPaymentMethod(user: User, paymentMethodId: string): PaymentMethod {
  const method = user.payment_methods.find((m) => m.id === paymentMethodId);
  if (!method) {
    const ids = user.payment_methods.map((m) => m.id).join(', ');
    throw new ToolError(
      `Payment method '${paymentMethodId}' does not belong to ${user.name}. Their payment methods: ${ids}.`,
    );
  }
  return method;
}

/** An order of `user`. @throws ToolError when it does not exist or is someone else's. */
export function findOrderOf(db: CommerceDb, user: User, orderId: string): Order {
  const order = db.orders.find((o) => o.id === orderId);
  if (!order || order.user_id !== user.id) {
    throw new ToolError(`No order '${orderId}' found for ${user.name}.`);
  }
  return order;
}

/** `visa ending 4242`, `gift card (balance $75.00)`, `PayPal (x@example.com)`. */
export function describePaymentMethod(method: PaymentMethod): string {
  switch (method.type) {
    case 'card':
      return `${method.brand} card ending ${method.last4}`;
    case 'gift_card':
      return `gift card (balance $${method.balance.toFixed(2)})`;
    case 'paypal':
      return `PayPal (${method.email})`;
  }
}
