/**
 * The tau2 retail database as parsed JSON (`tau2_retail/db.json`: products,
 * users, orders). Optional pydantic fields are absent unless set.
 *
 * @module
 */
import type { Tau2PaymentMethod, Tau2UserProfile } from '../common/db-types.js';

export type Variant = {
  item_id: string;
  options: Record<string, string>;
  available: boolean;
  price: number;
};

/** A product type with its items (variants). */
export type Product = { name: string; product_id: string; variants: Record<string, Variant> };

/** A postal address. */
export type Address = {
  address1: string;
  address2: string;
  city: string;
  country: string;
  state: string;
  zip: string;
};

/** A payment method of a user's profile. */
export type PaymentMethod = Tau2PaymentMethod<'credit_card' | 'gift_card' | 'paypal'> & {
  /** Gift card balance. */
  balance?: number;
};

/** A customer profile. */
export type User = Tau2UserProfile<PaymentMethod> & {
  address: Address;
  orders: string[];
};

/** One item of an order. */
export type OrderItem = {
  name: string;
  product_id: string;
  item_id: string;
  price: number;
  options: Record<string, string>;
};

/** A payment or refund of an order. */
export type OrderPayment = {
  transaction_type: 'payment' | 'refund';
  amount: number;
  payment_method_id: string;
};

/** An order. */
export type Order = {
  order_id: string;
  user_id: string;
  address: Address;
  items: OrderItem[];
  status: string;
  fulfillments: { tracking_id: string[]; item_ids: string[] }[];
  payment_history: OrderPayment[];
  cancel_reason?: string;
  exchange_items?: string[];
  exchange_new_items?: string[];
  exchange_payment_method_id?: string;
  exchange_price_difference?: number;
  return_items?: string[];
  return_payment_method_id?: string;
};

/** The whole retail db. */
export type RetailDb = {
  products: Record<string, Product>;
  users: Record<string, User>;
  orders: Record<string, Order>;
};
