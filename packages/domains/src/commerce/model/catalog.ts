/**
 * Catalogue look-ups shared by the tools: products by id, SKU resolution with variant rules,
 * stock, prices, and the compact product views the model and the storefront see.
 *
 * @module
 */
import { ToolError } from '@scenaro/agent/scenario';
import { VARIANT_OPTION_KEYS } from './db-types.js';
import type { CommerceDb, Product, Variant, VariantOptionKey } from './db-types.js';

/** A SKU resolved against its product: what a cart line or order line refers to. */
export interface ResolvedSku {
  product: Product;
  sku: string;
  /** The variant, when the product has variants. */
  variant?: Variant;
  /** The variant's (or product's) stock. */
  stock: number;
  /** Unit price in dollars. */
  unitPrice: number;
  /** The variant's option values (`{color: 'black', size: 'US 9'}`); empty without variants. */
  options: Partial<Record<VariantOptionKey, string>>;
}

/** Find a product by id. @throws ToolError naming the unknown id. */
export function findProduct(db: CommerceDb, productId: string): Product {
  const product = db.products.find((p) => p.id === productId);
  if (!product) {
    throw new ToolError(
      `Unknown product id '${productId}'. Use search_products to find product ids.`,
    );
  }
  return product;
}

/** The option values of a variant (`color`, `size`, `storage`, `switch`). */
export function variantOptions(variant: Variant): Partial<Record<VariantOptionKey, string>> {
  const options: Partial<Record<VariantOptionKey, string>> = {};
  for (const key of VARIANT_OPTION_KEYS) {
    const value = variant[key];
    if (value !== undefined) options[key] = value;
  }
  return options;
}

/** `color black, size US 9` - a variant's options in words. */
export function describeOptions(options: Partial<Record<VariantOptionKey, string>>): string {
  return VARIANT_OPTION_KEYS.filter((key) => options[key] !== undefined)
    .map((key) => `${key} ${options[key] as string}`)
    .join(', ');
}

/** Units available of a product, over all its variants. */
export function totalStock(product: Product): number {
  if (product.variants.length === 0) return product.stock ?? 0;
  return product.variants.reduce((sum, v) => sum + v.stock, 0);
}

/** Whether any unit of the product can be bought. */
export function isInStock(product: Product): boolean {
  return totalStock(product) > 0;
}

/** Every value offered for each option key, in catalogue order (`{color: ['black', 'white']}`). */
export function optionValues(product: Product): Partial<Record<VariantOptionKey, string[]>> {
  const values: Partial<Record<VariantOptionKey, string[]>> = {};
  for (const variant of product.variants) {
    for (const key of VARIANT_OPTION_KEYS) {
      const value = variant[key];
      if (value === undefined) continue;
      const list = (values[key] ??= []);
      if (!list.includes(value)) list.push(value);
    }
  }
  return values;
}

function variantList(product: Product): string {
  return product.variants
    .map(
      (v) =>
        `${v.sku} (${describeOptions(variantOptions(v))}${v.stock === 0 ? ', out of stock' : ''})`,
    )
    .join('; ');
}

/**
 * Resolve the SKU a shopper means for `product`. A product with variants needs the SKU of one
 * variant; a product without variants takes no SKU (or its own).
 * @throws ToolError when the variant is missing or does not belong to the product.
 */
export function resolveSku(product: Product, sku: string | undefined): ResolvedSku {
  if (product.variants.length === 0) {
    const own = product.sku ?? product.id;
    if (sku !== undefined && sku !== own) {
      throw new ToolError(
        `Product ${product.id} (${product.name}) has no variants; its only SKU is '${own}', not '${sku}'.`,
      );
    }
    return { product, sku: own, stock: product.stock ?? 0, unitPrice: product.price, options: {} };
  }
  if (sku === undefined) {
    throw new ToolError(
      `Product ${product.id} (${product.name}) comes in several options; ask the shopper which one ` +
        `and pass its sku. Variants: ${variantList(product)}.`,
    );
  }
  const variant = product.variants.find((v) => v.sku === sku);
  if (!variant) {
    throw new ToolError(
      `SKU '${sku}' is not a variant of product ${product.id} (${product.name}). Variants: ${variantList(product)}.`,
    );
  }
  return {
    product,
    sku: variant.sku,
    variant,
    stock: variant.stock,
    unitPrice: variant.price ?? product.price,
    options: variantOptions(variant),
  };
}

/** Find the product and variant of a SKU anywhere in the catalogue, or undefined. */
export function findSku(db: CommerceDb, sku: string): ResolvedSku | undefined {
  for (const product of db.products) {
    if (
      product.variants.length === 0
        ? product.sku === sku
        : product.variants.some((v) => v.sku === sku)
    ) {
      return resolveSku(product, sku);
    }
  }
  return undefined;
}

/** Set the stock of a resolved SKU in the db. */
export function setStock(resolved: ResolvedSku, stock: number): void {
  if (resolved.variant) resolved.variant.stock = stock;
  else resolved.product.stock = stock;
}

/** What every view of a product starts with: its id, name, brand, category, price and rating. */
export type ProductHeadline = { product_id: string } & Pick<
  Product,
  'name' | 'brand' | 'category' | 'price' | 'rating' | 'review_count'
>;

/** A product as a search result line: enough to talk about it, not every detail. */
export interface ProductSummary extends ProductHeadline {
  in_stock: boolean;
  /** Option values to choose from, when the product has variants. */
  options?: Partial<Record<VariantOptionKey, string[]>>;
}

function productHeadline(product: Product): ProductHeadline {
  const { id, name, brand, category, price, rating, review_count } = product;
  return { product_id: id, name, brand, category, price, rating, review_count };
}

/** The summary view of a product. */
export function productSummary(product: Product): ProductSummary {
  const summary: ProductSummary = { ...productHeadline(product), in_stock: isInStock(product) };
  if (product.variants.length > 0) summary.options = optionValues(product);
  return summary;
}

/** The full view of a product, with each variant's options, price and availability. */
export function productDetails(product: Product): Record<string, unknown> {
  const details: Record<string, unknown> = {
    ...productHeadline(product),
    description: product.description,
    specs: { ...product.specs },
    in_stock: isInStock(product),
  };
  if (product.variants.length === 0) {
    details['sku'] = product.sku ?? product.id;
    details['stock'] = product.stock ?? 0;
  } else {
    details['variants'] = product.variants.map((v) => ({
      sku: v.sku,
      ...variantOptions(v),
      price: v.price ?? product.price,
      stock: v.stock,
      in_stock: v.stock > 0,
    }));
  }
  return details;
}
