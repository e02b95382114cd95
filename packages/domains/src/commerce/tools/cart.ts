/**
 * Cart tools: add, change quantity, remove, view.
 *
 * @module
 */
import type { ToolDefinition } from '@scenaro/agent/scenario';
import { defineTool, toolParameters } from '../../common/tool-kit.js';
import {
  addToCart,
  cartView,
  findCartLine,
  MAX_LINE_QUANTITY,
  setCartQuantity,
} from '../model/cart.js';
import { PRODUCT_ID_SCHEMA, shopperOf, SKU_SCHEMA } from './shared.js';

/** `add_to_cart`: add units of a product (and variant) to the cart. */
export const addToCartTool: ToolDefinition = defineTool<{
  product_id: string;
  sku?: string;
  quantity: number;
}>({
  name: 'add_to_cart',
  kind: 'write',
  description:
    'Add a product to the cart. When the product comes in options (color, size, storage...), ' +
    'pass the sku of the variant the shopper chose. Adding a SKU already in the cart adds to its ' +
    `quantity. At most ${MAX_LINE_QUANTITY} units per item, and never more than the stock. ` +
    'Returns the updated cart with totals.',
  parameters: toolParameters(
    {
      product_id: PRODUCT_ID_SCHEMA,
      sku: SKU_SCHEMA,
      quantity: { type: 'integer', minimum: 1, maximum: MAX_LINE_QUANTITY, default: 1 },
    },
    ['product_id'],
  ),
  execute(args, context) {
    const { db, user } = shopperOf(context);
    const { item } = addToCart(db, user, args.product_id, args.sku, args.quantity);
    return { added: { sku: item.sku, quantity: args.quantity }, cart: cartView(db, user) };
  },
});

/** `update_cart_quantity`: set a cart line's quantity. */
export const updateCartQuantityTool: ToolDefinition = defineTool<{ sku: string; quantity: number }>(
  {
    name: 'update_cart_quantity',
    kind: 'write',
    description:
      `Set the quantity of an item already in the cart (1 to ${MAX_LINE_QUANTITY}), by its sku. ` +
      'Use remove_from_cart to take an item out.',
    parameters: toolParameters({
      sku: SKU_SCHEMA,
      quantity: { type: 'integer', minimum: 1, maximum: MAX_LINE_QUANTITY },
    }),
    execute(args, context) {
      const { db, user } = shopperOf(context);
      setCartQuantity(db, user, args.sku, args.quantity);
      return cartView(db, user);
    },
  },
);

/** `remove_from_cart`: take a line out of the cart. */
export const removeFromCartTool: ToolDefinition = defineTool<{ sku: string }>({
  name: 'remove_from_cart',
  kind: 'write',
  description: 'Remove an item from the cart, by its sku. Returns the updated cart.',
  parameters: toolParameters({ sku: SKU_SCHEMA }),
  execute(args, context) {
    const { db, user } = shopperOf(context);
    const line = findCartLine(user, args.sku);
    user.cart.items.splice(user.cart.items.indexOf(line), 1);
    return cartView(db, user);
  },
});

/** `get_cart`: the priced cart. */
export const getCartTool: ToolDefinition = defineTool<Record<string, never>>({
  name: 'get_cart',
  kind: 'read',
  description:
    'The cart: each item with sku, options, unit price and quantity, then subtotal, tax (8.25 %) and total in USD.',
  parameters: toolParameters({}, [], { listEmptyRequired: false }),
  execute(_args, context) {
    const { db, user } = shopperOf(context);
    return cartView(db, user);
  },
});
