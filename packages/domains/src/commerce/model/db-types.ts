/**
 * The shape of the commerce database (`data/commerce/db.json`) and typed access to it from a
 * session's untyped `state.db`.
 *
 * @module
 */
import { ToolError } from '@scenaro/agent/scenario';
import type { Db } from '@scenaro/agent/scenario';
import { isJsonObject } from '@scenaro/sdk/util';
import { dbAs } from '../../common/tool-kit.js';

/** Variant option keys a variant may carry (the shopper picks one value of each). */
export const VARIANT_OPTION_KEYS = ['color', 'size', 'storage', 'switch'] as const;
/** One option key of a variant. */
export type VariantOptionKey = (typeof VARIANT_OPTION_KEYS)[number];

/** A purchasable option of a product (a color, size, storage...), with its own SKU and stock. */
export interface Variant {
  sku: string;
  color?: string;
  size?: string;
  storage?: string;
  switch?: string;
  /** Price when it differs from the product's base price. */
  price?: number;
  stock: number;
}

/** A catalogue product. Products without variants carry their own `sku` and `stock`. */
export interface Product {
  id: string;
  name: string;
  brand: string;
  category: string;
  /** Base (lowest) price in dollars with cents. */
  price: number;
  rating: number;
  review_count: number;
  description: string;
  tags: string[];
  specs: Record<string, string | number | boolean>;
  variants: Variant[];
  sku?: string;
  stock?: number;
}

/** A shipping address of a shopper. */
export interface Address {
  id: string;
  label: string;
  line1: string;
  line2: string | null;
  city: string;
  state: string;
  zip: string;
  country: string;
}

/** A card on file. */
export interface CardPayment {
  id: string;
  type: 'card';
  brand: string;
  last4: string;
  expiry: string;
}
/** A store gift card; it can pay an order only when its balance covers the whole total. */
export interface GiftCardPayment {
  id: string;
  type: 'gift_card';
  balance: number;
}
/** A linked PayPal account. */
export interface PaypalPayment {
  id: string;
  type: 'paypal';
  email: string;
}
/** A payment method of a shopper. */
export type PaymentMethod = CardPayment | GiftCardPayment | PaypalPayment;

/** One cart line: a SKU and a quantity. Prices are read from the catalogue. */
export interface CartItem {
  product_id: string;
  sku: string;
  quantity: number;
}

/** A registered shopper, with their working selection and cart. */
export interface User {
  id: string;
  name: string;
  email: string;
  phone: string;
  addresses: Address[];
  payment_methods: PaymentMethod[];
  selection: { product_ids: string[] };
  cart: { items: CartItem[] };
}

/** Order lifecycle states. Only `pending` and `processing` orders can be cancelled. */
export type OrderStatus = 'pending' | 'processing' | 'shipped' | 'delivered' | 'cancelled';

/** One line of a placed order, with the price paid. */
export interface OrderItem {
  product_id: string;
  name: string;
  sku: string;
  options?: Partial<Record<VariantOptionKey, string>>;
  quantity: number;
  unit_price: number;
}

/** A placed order. */
export interface Order {
  id: string;
  user_id: string;
  status: OrderStatus;
  created_at: string;
  items: OrderItem[];
  subtotal: number;
  tax: number;
  total: number;
  payment_method_id: string;
  shipping_address_id: string;
  cancellation?: { reason: string; refund_amount: number; refunded_to: string };
}

/** The whole commerce database. `session` is excluded from db hashes. */
export interface CommerceDb {
  meta: { store_name: string; currency: string; current_time: string; [key: string]: unknown };
  products: Product[];
  users: User[];
  orders: Order[];
  /** Who is signed in on the storefront (set by the `sign_in` initialization function). */
  session?: { user_id?: string };
}

/**
 * View a session db as a {@link CommerceDb}, after checking its top-level shape.
 * @throws ToolError when no commerce db is loaded.
 */
export function asCommerceDb(db: Db | undefined): CommerceDb {
  if (
    !isJsonObject(db) ||
    !Array.isArray(db['products']) ||
    !Array.isArray(db['users']) ||
    !Array.isArray(db['orders']) ||
    !isJsonObject(db['meta'])
  ) {
    throw new ToolError(
      'No commerce database is loaded in this session (initialize it with db_path "commerce/db.json").',
    );
  }
  return dbAs<CommerceDb>(db);
}
