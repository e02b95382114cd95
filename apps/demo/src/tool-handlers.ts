/**
 * Browser-side handlers of the commerce domain's frontend tools. Each gets the agent's
 * (validated) arguments, fetches what it needs from the store, and returns `componentData` for
 * its feature panel and `response.data` for the agent (the same shape the bot computes when no
 * browser runs the tool).
 */
import { defineToolHandler } from '@scenaro/sdk';
import type { CollectionStore, ToolHandlerResult, ToolHandlers } from '@scenaro/sdk';
import type { StoreApi } from './store-api';
import { COLLECTIONS, FEATURES } from './types';
import type {
  CartView,
  DetailData,
  GridData,
  ProductDetails,
  ProductSummary,
  SelectionView,
} from './types';

/** Options of {@link createToolHandlers}. */
export interface ToolHandlerOptions {
  /** Test hook: wait this long before answering (abortable), to catch a call in flight. */
  slowMs?: number;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** What the agent is told about a shown product: its summary, and whether the shopper has it. */
type AgentSummary = ProductSummary & { in_cart?: true; in_selection?: true };

/**
 * The summary the agent gets for a product (what the bot's own `show_*` would return), marked
 * from the shared collections when it is already in the cart or the selection.
 */
function summaryOf(
  product: ProductDetails | ProductSummary,
  collections: CollectionStore,
): AgentSummary {
  const { product_id, name, brand, category, price, rating, review_count, in_stock } = product;
  const cart = collections.get<CartView | null>(COLLECTIONS.CART).get();
  const selection = collections.get<SelectionView | null>(COLLECTIONS.SELECTION).get();
  const summary: AgentSummary = {
    product_id,
    name,
    brand,
    category,
    price,
    rating,
    review_count,
    in_stock,
  };
  if (product.options) summary.options = product.options;
  if (cart?.items.some((line) => line.product_id === product_id)) summary.in_cart = true;
  if (selection?.product_ids.includes(product_id)) summary.in_selection = true;
  return summary;
}

/** A handler's answer: what the agent reads (`data`) and what the feature panel shows. */
function shown(
  requestId: string,
  data: Record<string, unknown>,
  componentData: unknown,
): ToolHandlerResult {
  return { requestId, response: { code: 'SUCCESS', data }, componentData };
}

/** Handlers for `show_products`, `show_product` and `show_comparison`. */
export function createToolHandlers(api: StoreApi, options: ToolHandlerOptions = {}): ToolHandlers {
  const pause = async (signal: AbortSignal) => {
    if (options.slowMs && options.slowMs > 0) await sleep(options.slowMs, signal);
  };
  return {
    show_products: defineToolHandler<{ product_ids: string[]; title?: string }>(
      async (requestId, args, _settings, collections, { signal }) => {
        await pause(signal);
        const products = await api.products(args.product_ids, signal);
        const title = args.title === undefined ? {} : { title: args.title };
        const grid: GridData = { products, ...title };
        const summaries = products.map((p) => summaryOf(p, collections));
        const data = { feature: FEATURES.PRODUCT_GRID, ...title, shown: products.length };
        return shown(requestId, { ...data, products: summaries }, grid);
      },
    ),
    show_product: defineToolHandler<{ product_id: string; sku?: string }>(
      async (requestId, args, _settings, collections, { signal }) => {
        await pause(signal);
        const product = await api.product(args.product_id, signal);
        if (args.sku !== undefined && !product.variants?.some((v) => v.sku === args.sku)) {
          throw new Error(`SKU '${args.sku}' is not a variant of product ${product.product_id}.`);
        }
        const detail: DetailData = {
          product,
          ...(args.sku === undefined ? {} : { selectedSku: args.sku }),
        };
        const data = {
          feature: FEATURES.PRODUCT_DETAIL,
          product: summaryOf(product, collections),
          ...(args.sku === undefined ? {} : { selected_sku: args.sku }),
        };
        return shown(requestId, data, detail);
      },
    ),
    show_comparison: defineToolHandler<{ product_ids: string[] }>(
      async (requestId, args, _settings, _collections, { signal }) => {
        await pause(signal);
        const comparison = await api.compare(args.product_ids, signal);
        return shown(requestId, { feature: FEATURES.COMPARISON, ...comparison }, comparison);
      },
    ),
  };
}
