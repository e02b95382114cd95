/**
 * Initialization functions of the commerce domain (`apply_initialization` actions, agent side).
 * Each takes validated arguments (see {@link COMMERCE_INIT_ARGUMENT_SCHEMAS}) and mutates the db
 * in place; a refused call throws with a message naming the problem.
 *
 * @module
 */
import type { Db, InitializationFunction, JsonObject } from '@scenaro/agent/scenario';
import { z } from 'zod';
import { addToCart, addToSelection, MAX_LINE_QUANTITY } from './model/cart.js';
import { findProduct, resolveSku, setStock } from './model/catalog.js';
import { asCommerceDb } from './model/db-types.js';
import { toCents, fromCents } from './model/money.js';
import { currentUser, findPaymentMethod, findUser } from './model/shopper.js';

const id = z.string().min(1).max(64);

/** Argument schemas of the initialization functions, by function name. */
export const COMMERCE_INIT_ARGUMENT_SCHEMAS = {
  /** Sign a shopper in on the storefront: `{user_id}`. Most scenarios start with it. */
  sign_in: z.strictObject({ user_id: id }),
  /** Set the stock of a product (or of one variant, by sku): `{product_id, sku?, stock}`. */
  set_stock: z.strictObject({
    product_id: id,
    sku: id.optional(),
    stock: z.int().min(0).max(100_000),
  }),
  /** Put items in the signed-in shopper's cart, with the cart rules: `{items: [{product_id, sku?, quantity?}]}`. */
  seed_cart: z.strictObject({
    items: z
      .array(
        z.strictObject({
          product_id: id,
          sku: id.optional(),
          quantity: z.int().min(1).max(MAX_LINE_QUANTITY).default(1),
        }),
      )
      .min(1),
  }),
  /** Put products in the signed-in shopper's selection: `{product_ids}`. */
  seed_selection: z.strictObject({ product_ids: z.array(id).min(1) }),
  /** Set the balance of one of the signed-in shopper's gift cards: `{payment_method_id, balance}`. */
  set_gift_card_balance: z.strictObject({
    payment_method_id: id,
    balance: z.number().min(0).max(100_000),
  }),
  /** Move an order to another status: `{order_id, status}`. */
  set_order_status: z.strictObject({
    order_id: id,
    status: z.enum(['pending', 'processing', 'shipped', 'delivered', 'cancelled']),
  }),
} as const;

/** Names of the commerce initialization functions. */
export type CommerceInitName = keyof typeof COMMERCE_INIT_ARGUMENT_SCHEMAS;

function parse<N extends CommerceInitName>(
  name: N,
  args: JsonObject,
): z.output<(typeof COMMERCE_INIT_ARGUMENT_SCHEMAS)[N]> {
  const result = COMMERCE_INIT_ARGUMENT_SCHEMAS[name].safeParse(args);
  if (!result.success) {
    throw new Error(
      `invalid arguments for ${name}: ${z.prettifyError(result.error).replace(/\n/g, ' ')}`,
    );
  }
  return result.data as z.output<(typeof COMMERCE_INIT_ARGUMENT_SCHEMAS)[N]>;
}

function signIn(db: Db, args: JsonObject): void {
  const { user_id } = parse('sign_in', args);
  const commerce = asCommerceDb(db);
  findUser(commerce, user_id);
  commerce.session = { user_id };
}

function setStockFn(db: Db, args: JsonObject): void {
  const { product_id, sku, stock } = parse('set_stock', args);
  const commerce = asCommerceDb(db);
  setStock(resolveSku(findProduct(commerce, product_id), sku), stock);
}

function seedCart(db: Db, args: JsonObject): void {
  const { items } = parse('seed_cart', args);
  const commerce = asCommerceDb(db);
  const user = currentUser(commerce);
  for (const item of items) addToCart(commerce, user, item.product_id, item.sku, item.quantity);
}

function seedSelection(db: Db, args: JsonObject): void {
  const { product_ids } = parse('seed_selection', args);
  const commerce = asCommerceDb(db);
  const user = currentUser(commerce);
  for (const productId of product_ids) addToSelection(commerce, user, productId);
}

function setGiftCardBalance(db: Db, args: JsonObject): void {
  const { payment_method_id, balance } = parse('set_gift_card_balance', args);
  const method = findPaymentMethod(currentUser(asCommerceDb(db)), payment_method_id);
  if (method.type !== 'gift_card') {
    throw new Error(`payment method '${payment_method_id}' is a ${method.type}, not a gift card`);
  }
  method.balance = fromCents(toCents(balance));
}

function setOrderStatus(db: Db, args: JsonObject): void {
  const { order_id, status } = parse('set_order_status', args);
  const order = asCommerceDb(db).orders.find((o) => o.id === order_id);
  if (!order) throw new Error(`unknown order id '${order_id}'`);
  order.status = status;
}

/** The commerce initialization functions, by name. */
export const COMMERCE_INITIALIZATION_FUNCTIONS: Readonly<
  Record<CommerceInitName, InitializationFunction>
> = {
  sign_in: signIn,
  set_stock: setStockFn,
  seed_cart: seedCart,
  seed_selection: seedSelection,
  set_gift_card_balance: setGiftCardBalance,
  set_order_status: setOrderStatus,
};
