/**
 * Side-by-side comparison of 2-4 products as an attribute table.
 *
 * @module
 */
import { ToolError } from '@scenaro/agent/scenario';
import { findProduct, isInStock, optionValues } from './catalog.js';
import { VARIANT_OPTION_KEYS } from './db-types.js';
import type { CommerceDb, Product } from './db-types.js';

/** One row of a comparison: an attribute and its value for each product (null when absent). */
export interface ComparisonRow {
  attribute: string;
  values: (string | number | boolean | null)[];
}

/** A comparison table; `rows[i].values[j]` belongs to `products[j]`. */
export interface Comparison {
  products: { product_id: string; name: string; brand: string; category: string }[];
  rows: ComparisonRow[];
}

/** Smallest and largest number of products a comparison takes. */
export const COMPARISON_SIZE = { min: 2, max: 4 } as const;

/**
 * Build the comparison of `productIds` (2-4 distinct known ids): price, rating, reviews,
 * availability, the options offered, then every spec any of them has.
 * @throws ToolError for a wrong count, duplicates or unknown ids.
 */
export function buildComparison(db: CommerceDb, productIds: readonly string[]): Comparison {
  if (productIds.length < COMPARISON_SIZE.min || productIds.length > COMPARISON_SIZE.max) {
    throw new ToolError(
      `Compare between ${COMPARISON_SIZE.min} and ${COMPARISON_SIZE.max} products; got ${productIds.length}.`,
    );
  }
  if (new Set(productIds).size !== productIds.length) {
    throw new ToolError('Each product can appear only once in a comparison.');
  }
  const products: Product[] = productIds.map((id) => findProduct(db, id));
  const rows: ComparisonRow[] = [
    { attribute: 'price', values: products.map((p) => p.price) },
    { attribute: 'rating', values: products.map((p) => p.rating) },
    { attribute: 'review_count', values: products.map((p) => p.review_count) },
    { attribute: 'in_stock', values: products.map((p) => isInStock(p)) },
  ];
  for (const key of VARIANT_OPTION_KEYS) {
    const perProduct = products.map((p) => optionValues(p)[key]);
    if (perProduct.some((v) => v !== undefined)) {
      rows.push({
        attribute: `${key}_options`,
        values: perProduct.map((v) => v?.join(', ') ?? null),
      });
    }
  }
  const specKeys: string[] = [];
  for (const product of products) {
    for (const key of Object.keys(product.specs)) if (!specKeys.includes(key)) specKeys.push(key);
  }
  for (const key of specKeys) {
    rows.push({
      attribute: key,
      values: products.map((p) =>
        Object.prototype.hasOwnProperty.call(p.specs, key) ? (p.specs[key] ?? null) : null,
      ),
    });
  }
  return {
    products: products.map((p) => ({
      product_id: p.id,
      name: p.name,
      brand: p.brand,
      category: p.category,
    })),
    rows,
  };
}
