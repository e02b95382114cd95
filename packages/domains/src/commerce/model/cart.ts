/**
 * Cart and selection rules, shared by the tools and the initialization functions.
 *
 * - A cart line is one SKU; adding the same SKU again adds to its quantity.
 * - A product with variants needs the SKU of one variant.
 * - At most {@link MAX_LINE_QUANTITY} units per line and {@link MAX_CART_LINES} lines.
 * - A line's quantity never exceeds the SKU's stock (stock is taken when the order is placed).
 * - The selection is a shortlist of up to {@link MAX_SELECTION_SIZE} distinct product ids.
 *
 * @module
 */
import { ToolError } from '@scenaro/agent/scenario';
import { describeOptions, findProduct, findSku, productSummary, resolveSku } from './catalog.js';
import type { ProductSummary, ResolvedSku } from './catalog.js';
import type { CartItem, CommerceDb, User, VariantOptionKey } from './db-types.js';
import { computeTotals, TAX_RATE } from './money.js';

/** Most units of one SKU in a cart. */
export const MAX_LINE_QUANTITY = 10;
/** Most lines in a cart. */
export const MAX_CART_LINES = 20;
/** Most products in a selection. */
export const MAX_SELECTION_SIZE = 20;

function label(resolved: ResolvedSku): string {
  const options = describeOptions(resolved.options);
  return options ? `${resolved.product.name} (${options})` : resolved.product.name;
}

/** Resolve a cart line's SKU; a SKU that vanished from the catalogue is a data error. */
export function resolveCartItem(db: CommerceDb, item: CartItem): ResolvedSku {
  const resolved = findSku(db, item.sku);
  if (!resolved) throw new ToolError(`SKU '${item.sku}' in the cart is no longer sold.`);
  return resolved;
}

/**
 * Add `quantity` units of a product (and variant) to `user`'s cart.
 * @throws ToolError for unknown products, missing or foreign variants, stock and quantity limits.
 */
export function addToCart(
  db: CommerceDb,
  user: User,
  productId: string,
  sku: string | undefined,
  quantity: number,
): { item: CartItem; resolved: ResolvedSku } {
  const resolved = resolveSku(findProduct(db, productId), sku);
  const line = user.cart.items.find((i) => i.sku === resolved.sku);
  const already = line?.quantity ?? 0;
  if (resolved.stock === 0) {
    throw new ToolError(`${label(resolved)} is out of stock.`);
  }
  if (already + quantity > MAX_LINE_QUANTITY) {
    throw new ToolError(
      `At most ${MAX_LINE_QUANTITY} units of one item per order; the cart already holds ${already} of ${label(resolved)}.`,
    );
  }
  if (already + quantity > resolved.stock) {
    throw new ToolError(
      `Only ${resolved.stock} of ${label(resolved)} left in stock` +
        (already > 0 ? `; the cart already holds ${already}.` : '.'),
    );
  }
  if (!line && user.cart.items.length >= MAX_CART_LINES) {
    throw new ToolError(
      `The cart is full (${MAX_CART_LINES} different items); remove something first.`,
    );
  }
  if (line) {
    line.quantity = already + quantity;
    return { item: line, resolved };
  }
  const item: CartItem = { product_id: resolved.product.id, sku: resolved.sku, quantity };
  user.cart.items.push(item);
  return { item, resolved };
}

/** The cart line of `sku`. @throws ToolError listing the cart's SKUs when it is not there. */
export function findCartLine(user: User, sku: string): CartItem {
  const line = user.cart.items.find((i) => i.sku === sku);
  if (!line) {
    const skus = user.cart.items.map((i) => i.sku);
    throw new ToolError(
      `SKU '${sku}' is not in the cart.` +
        (skus.length > 0 ? ` Cart SKUs: ${skus.join(', ')}.` : ' The cart is empty.'),
    );
  }
  return line;
}

/**
 * Set the quantity of the cart line of `sku` (1 to {@link MAX_LINE_QUANTITY}, within stock).
 * @throws ToolError when the line is missing or the quantity is not allowed.
 */
export function setCartQuantity(
  db: CommerceDb,
  user: User,
  sku: string,
  quantity: number,
): CartItem {
  const line = findCartLine(user, sku);
  if (!Number.isInteger(quantity) || quantity < 1) {
    throw new ToolError('Quantity must be at least 1; use remove_from_cart to remove an item.');
  }
  if (quantity > MAX_LINE_QUANTITY) {
    throw new ToolError(`At most ${MAX_LINE_QUANTITY} units of one item per order.`);
  }
  const resolved = resolveCartItem(db, line);
  if (quantity > resolved.stock) {
    throw new ToolError(`Only ${resolved.stock} of ${label(resolved)} left in stock.`);
  }
  line.quantity = quantity;
  return line;
}

/** One priced cart line, as the model and the storefront see it. */
export interface CartLineView {
  product_id: string;
  sku: string;
  name: string;
  options: Partial<Record<VariantOptionKey, string>>;
  unit_price: number;
  quantity: number;
  line_total: number;
  stock: number;
}

/** The priced cart. */
export interface CartView {
  items: CartLineView[];
  item_count: number;
  subtotal: number;
  tax_rate: number;
  tax: number;
  total: number;
  currency: string;
}

/** Price `user`'s cart from the catalogue: lines, subtotal, tax (8.25 %, rounded once), total. */
export function cartView(db: CommerceDb, user: User): CartView {
  const items = user.cart.items.map((item): CartLineView => {
    const resolved = resolveCartItem(db, item);
    const line = computeTotals([{ unitPrice: resolved.unitPrice, quantity: item.quantity }]);
    return {
      product_id: item.product_id,
      sku: item.sku,
      name: resolved.product.name,
      options: resolved.options,
      unit_price: resolved.unitPrice,
      quantity: item.quantity,
      line_total: line.subtotal,
      stock: resolved.stock,
    };
  });
  const totals = computeTotals(
    items.map((i) => ({ unitPrice: i.unit_price, quantity: i.quantity })),
  );
  return {
    items,
    item_count: items.reduce((sum, i) => sum + i.quantity, 0),
    subtotal: totals.subtotal,
    tax_rate: TAX_RATE,
    tax: totals.tax,
    total: totals.total,
    currency: db.meta.currency,
  };
}

/** The selection with a summary of each product. */
export function selectionView(
  db: CommerceDb,
  user: User,
): { product_ids: string[]; count: number; products: ProductSummary[] } {
  const ids = [...user.selection.product_ids];
  return {
    product_ids: ids,
    count: ids.length,
    products: ids.map((id) => productSummary(findProduct(db, id))),
  };
}

/**
 * Add a product to `user`'s selection.
 * @throws ToolError for unknown ids, duplicates and a full selection.
 */
export function addToSelection(db: CommerceDb, user: User, productId: string): void {
  const product = findProduct(db, productId);
  if (user.selection.product_ids.includes(product.id)) {
    throw new ToolError(`${product.name} (${product.id}) is already in the selection.`);
  }
  if (user.selection.product_ids.length >= MAX_SELECTION_SIZE) {
    throw new ToolError(
      `The selection is full (${MAX_SELECTION_SIZE} products); remove one first.`,
    );
  }
  user.selection.product_ids.push(product.id);
}
