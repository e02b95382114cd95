/**
 * Read tools over the catalogue: search, product details, comparison.
 *
 * @module
 */
import { ToolError } from '@scenaro/agent/scenario';
import type { ToolDefinition } from '@scenaro/agent/scenario';
import { defineTool, toolParameters } from '../../common/tool-kit.js';
import { findProduct, productDetails } from '../model/catalog.js';
import { buildComparison, COMPARISON_SIZE } from '../model/comparison.js';
import { searchProducts } from '../model/search.js';
import { dbOf, PRODUCT_ID_SCHEMA } from './shared.js';

/** Most results one search returns. */
export const MAX_SEARCH_LIMIT = 20;

type SearchArgs = {
  query?: string;
  category?: string;
  min_price?: number;
  max_price?: number;
  in_stock_only: boolean;
  limit: number;
};

/** `search_products`: ranked catalogue search with filters. */
export const searchProductsTool: ToolDefinition = defineTool<SearchArgs>({
  name: 'search_products',
  kind: 'read',
  description:
    'Search the catalogue. Give the words the shopper used (product type, brand, features, color) ' +
    'and optional filters. Returns the best matches first with id, name, price, rating, stock ' +
    'and the options (color, size...) each product comes in. Prices are in USD.',
  parameters: toolParameters(
    {
      query: {
        type: 'string',
        maxLength: 200,
        description: 'Search words, e.g. "wireless noise cancelling headphones".',
      },
      category: {
        type: 'string',
        maxLength: 40,
        description:
          'Only this category: audio, laptops, phones, kitchen, outdoor, shoes, apparel, home, fitness, gaming.',
      },
      min_price: { type: 'number', minimum: 0, description: 'Lowest price in USD.' },
      max_price: { type: 'number', minimum: 0, description: 'Highest price in USD.' },
      in_stock_only: {
        type: 'boolean',
        default: false,
        description: 'Leave out products that are sold out.',
      },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_SEARCH_LIMIT,
        default: 5,
        description: 'How many results.',
      },
    },
    [],
    { listEmptyRequired: false },
  ),
  execute(args, context) {
    const db = dbOf(context);
    if (args.category !== undefined && !db.products.some((p) => p.category === args.category)) {
      const categories = [...new Set(db.products.map((p) => p.category))].join(', ');
      throw new ToolError(`Unknown category '${args.category}'. Categories: ${categories}.`);
    }
    if (
      args.min_price !== undefined &&
      args.max_price !== undefined &&
      args.min_price > args.max_price
    ) {
      throw new ToolError(`min_price (${args.min_price}) is above max_price (${args.max_price}).`);
    }
    const found = searchProducts(db, {
      query: args.query,
      category: args.category,
      minPrice: args.min_price,
      maxPrice: args.max_price,
      inStockOnly: args.in_stock_only,
      limit: args.limit,
    });
    return found.total_matches === 0
      ? { ...found, message: 'No products match; try fewer or different words, or other filters.' }
      : found;
  },
});

/** `get_product_details`: everything about one product, variants included. */
export const getProductDetailsTool: ToolDefinition = defineTool<{ product_id: string }>({
  name: 'get_product_details',
  kind: 'read',
  description:
    'Full details of one product: description, specs, price, and each variant (color, size...) ' +
    'with its SKU, price and stock.',
  parameters: toolParameters({ product_id: PRODUCT_ID_SCHEMA }),
  execute(args, context) {
    return productDetails(findProduct(dbOf(context), args.product_id));
  },
});

/** JSON Schema of a list of product ids to compare. */
export const COMPARE_IDS_SCHEMA = {
  type: 'array',
  items: PRODUCT_ID_SCHEMA,
  minItems: COMPARISON_SIZE.min,
  maxItems: COMPARISON_SIZE.max,
  uniqueItems: true,
  description: '2 to 4 distinct product ids.',
} as const;

/** `compare_products`: an attribute table for 2-4 products. */
export const compareProductsTool: ToolDefinition = defineTool<{ product_ids: string[] }>({
  name: 'compare_products',
  kind: 'read',
  description:
    'Compare 2 to 4 products side by side: price, rating, availability, options and specs. ' +
    'Returns a table whose rows list one value per product, in the order given.',
  parameters: toolParameters({ product_ids: COMPARE_IDS_SCHEMA }),
  execute(args, context) {
    return buildComparison(dbOf(context), args.product_ids);
  },
});
