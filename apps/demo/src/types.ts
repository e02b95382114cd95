/**
 * What the page exchanges with the demo server and the bot. The store data shapes are the
 * commerce domain's tool results, imported as types only: the page runs in the browser and
 * talks to the bot only over RTVI.
 */
import type {
  CartLineView,
  CartView,
  Comparison,
  ProductSummary,
  VariantOptionKey,
} from '@scenaro/domains';

export { DEMO_METHODS } from '../shared/demo-protocol';
export type { DemoAnswer, DemoConfig, DemoVoice } from '../shared/demo-protocol';
export type { CartView, Comparison, ProductSummary };

/** Storefront features the frontend tools render into (`tool.frontend.feature`). */
export const FEATURES = {
  PRODUCT_GRID: 'product_grid',
  PRODUCT_DETAIL: 'product_detail',
  COMPARISON: 'comparison',
} as const;

/** Variant option keys, in the order the page shows them. */
export const OPTION_KEYS = [
  'color',
  'size',
  'storage',
  'switch',
] as const satisfies readonly VariantOptionKey[];
export type OptionKey = VariantOptionKey;

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

/** One priced cart line. */
export type CartLine = CartLineView;

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
