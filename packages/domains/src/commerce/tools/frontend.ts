/**
 * Tools that show things on the storefront page. In a live session they run in the shopper's
 * browser over RPC (`kind: 'frontend'`, rendered by the named feature); `execute` computes the
 * same data locally for sessions without a browser (scripted runs, gold replay), so unknown ids
 * are refused the same way in both.
 *
 * @module
 */
import type { ToolDefinition } from '@scenaro/agent/scenario';
import { defineTool, toolParameters } from '../../common/tool-kit.js';
import { findProduct, productDetails, productSummary, resolveSku } from '../model/catalog.js';
import { buildComparison } from '../model/comparison.js';
import { COMPARE_IDS_SCHEMA } from './catalog.js';
import { dbOf, PRODUCT_ID_SCHEMA, SKU_SCHEMA } from './shared.js';

/** Storefront feature names the frontend tools render into. */
export const COMMERCE_FEATURES = {
  PRODUCT_GRID: 'product_grid',
  PRODUCT_DETAIL: 'product_detail',
  COMPARISON: 'comparison',
} as const;

/** Most products one grid shows. */
export const MAX_GRID_PRODUCTS = 12;

/** `show_products`: a grid of product cards on the page. */
export const showProductsTool: ToolDefinition = defineTool<{
  product_ids: string[];
  title?: string;
}>({
  name: 'show_products',
  kind: 'frontend',
  frontend: { feature: COMMERCE_FEATURES.PRODUCT_GRID },
  description:
    'Show products to the shopper as a grid of cards on the store page (use it whenever you present search results or suggestions), in the order given.',
  parameters: toolParameters(
    {
      product_ids: {
        type: 'array',
        items: PRODUCT_ID_SCHEMA,
        minItems: 1,
        maxItems: MAX_GRID_PRODUCTS,
        uniqueItems: true,
      },
      title: {
        type: 'string',
        maxLength: 120,
        description: 'Optional heading, e.g. "Running shoes under $100".',
      },
    },
    ['product_ids'],
  ),
  execute(args, context) {
    const db = dbOf(context);
    const products = args.product_ids.map((id) => productSummary(findProduct(db, id)));
    return {
      feature: COMMERCE_FEATURES.PRODUCT_GRID,
      ...(args.title === undefined ? {} : { title: args.title }),
      shown: products.length,
      products,
    };
  },
});

/** `show_product`: one product's detail panel, optionally with a variant preselected. */
export const showProductTool: ToolDefinition = defineTool<{ product_id: string; sku?: string }>({
  name: 'show_product',
  kind: 'frontend',
  frontend: { feature: COMMERCE_FEATURES.PRODUCT_DETAIL },
  description:
    'Open the detail panel of one product on the store page, optionally with one variant (sku) preselected.',
  parameters: toolParameters({ product_id: PRODUCT_ID_SCHEMA, sku: SKU_SCHEMA }, ['product_id']),
  execute(args, context) {
    const product = findProduct(dbOf(context), args.product_id);
    const selected = args.sku === undefined ? undefined : resolveSku(product, args.sku).sku;
    return {
      feature: COMMERCE_FEATURES.PRODUCT_DETAIL,
      product: productDetails(product),
      ...(selected === undefined ? {} : { selected_sku: selected }),
    };
  },
});

/** `show_comparison`: a comparison table on the page. */
export const showComparisonTool: ToolDefinition = defineTool<{ product_ids: string[] }>({
  name: 'show_comparison',
  kind: 'frontend',
  frontend: { feature: COMMERCE_FEATURES.COMPARISON },
  description: 'Show a side-by-side comparison table of 2 to 4 products on the store page.',
  parameters: toolParameters({ product_ids: COMPARE_IDS_SCHEMA }),
  execute(args, context) {
    return {
      feature: COMMERCE_FEATURES.COMPARISON,
      ...buildComparison(dbOf(context), args.product_ids),
    };
  },
});
