/**
 * What the page exchanges with the demo server and the bot. The store data shapes mirror the
 * commerce domain's tool results (`@scenaro/domains`), which the page never imports: it runs
 * in the browser and talks to the bot only over RTVI.
 */
import type { ToolDefinition } from '@scenaro/sdk';

/** `GET /config.json`, served by `scenaro demo`. */
export interface DemoConfig {
  /** The bot server's WebSocket URL. */
  wsUrl: string;
  /** The bot server's per-run token (sent as `?token=`). */
  token?: string;
  storeName: string;
  shopper: { id: string; name: string };
  /** Which brain answers: the scripted shop assistant or an LLM. */
  assistant: { label: string; scripted: boolean };
  /** The commerce domain's frontend tools (name, parameters, feature), registered by the page. */
  tools: ToolDefinition[];
}

/** Browser -> agent methods `scenaro demo` registers on each bot session (`rpc-call`). */
export const DEMO_METHODS = {
  STATE: 'demo_state',
  PRODUCTS: 'demo_products',
  PRODUCT: 'demo_product',
  COMPARE: 'demo_compare',
  CART_ADD: 'demo_cart_add',
  CART_UPDATE: 'demo_cart_update',
  CART_REMOVE: 'demo_cart_remove',
  SELECTION_ADD: 'demo_selection_add',
  SELECTION_REMOVE: 'demo_selection_remove',
} as const;

/** Storefront features the frontend tools render into (`tool.frontend.feature`). */
export const FEATURES = {
  PRODUCT_GRID: 'product_grid',
  PRODUCT_DETAIL: 'product_detail',
  COMPARISON: 'comparison',
} as const;

/** Variant option keys. */
export const OPTION_KEYS = ['color', 'size', 'storage', 'switch'] as const;
export type OptionKey = (typeof OPTION_KEYS)[number];

/** A product card (`ProductSummary` of the commerce domain). */
export interface ProductSummary {
  product_id: string;
  name: string;
  brand: string;
  category: string;
  price: number;
  rating: number;
  review_count: number;
  in_stock: boolean;
  options?: Partial<Record<OptionKey, string[]>>;
}

/** One variant in product details. */
export interface VariantView {
  sku: string;
  color?: string;
  size?: string;
  storage?: string;
  switch?: string;
  price: number;
  stock: number;
  in_stock: boolean;
}

/** `get_product_details`: a product with its variants (or its own sku and stock). */
export interface ProductDetails extends ProductSummary {
  description: string;
  specs: Record<string, string | number | boolean>;
  sku?: string;
  stock?: number;
  variants?: VariantView[];
}

/** `compare_products`: `rows[i].values[j]` belongs to `products[j]`. */
export interface Comparison {
  products: { product_id: string; name: string; brand: string; category: string }[];
  rows: { attribute: string; values: (string | number | boolean | null)[] }[];
}

/** One priced cart line. */
export interface CartLine {
  product_id: string;
  sku: string;
  name: string;
  options: Partial<Record<OptionKey, string>>;
  unit_price: number;
  quantity: number;
  line_total: number;
  stock: number;
}

/** The priced cart (`get_cart`). */
export interface CartView {
  items: CartLine[];
  item_count: number;
  subtotal: number;
  tax_rate: number;
  tax: number;
  total: number;
  currency: string;
}

/** The shortlist (`get_selection`). */
export interface SelectionView {
  product_ids: string[];
  count: number;
  products: ProductSummary[];
}

/** The collections the page shares between its UI and the tool handlers. */
export const COLLECTIONS = {
  /** `CartView | null` (null while no bot session holds a cart). */
  CART: 'cart',
  /** `SelectionView | null`. */
  SELECTION: 'selection',
} as const;

/** `componentData` of the product grid. */
export interface GridData {
  title?: string;
  products: ProductSummary[];
}

/** `componentData` of the product detail panel. */
export interface DetailData {
  product: ProductDetails;
  selectedSku?: string;
}

/** Format dollars. */
export function money(amount: number): string {
  return `$${amount.toFixed(2)}`;
}

/** `color black, size US 9`. */
export function describeOptions(options: Partial<Record<OptionKey, string>>): string {
  return OPTION_KEYS.filter((k) => options[k] !== undefined)
    .map((k) => `${k} ${options[k] as string}`)
    .join(', ');
}
