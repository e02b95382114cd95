/**
 * The page's calls to the agent (`rpc-call` over the RTVI transport): the cart and selection
 * live in the bot session's db, so the shopper's clicks change the state the agent sees.
 */
import type { RpcTransport } from '@scenaro/sdk';
import { errorMessage } from '@scenaro/sdk/util';
import { DEMO_METHODS } from './types.js';
import type {
  CartView,
  Comparison,
  DemoAnswer,
  ProductDetails,
  ProductSummary,
  SelectionView,
} from './types.js';

/** How long a store call may take. */
const CALL_TIMEOUT_MS = 5000;

/** The store's answer when it refused (a commerce tool error, e.g. out of stock). */
export class StoreError extends Error {
  override readonly name = 'StoreError';
}

/** Store calls for one transport. */
export interface StoreApi {
  state(signal?: AbortSignal): Promise<{ cart: CartView | null; selection: SelectionView | null }>;
  products(ids: readonly string[], signal?: AbortSignal): Promise<ProductSummary[]>;
  product(id: string, signal?: AbortSignal): Promise<ProductDetails>;
  compare(ids: readonly string[], signal?: AbortSignal): Promise<Comparison>;
  addToCart(productId: string, sku: string | undefined, quantity: number): Promise<CartView>;
  updateCart(sku: string, quantity: number): Promise<CartView>;
  removeFromCart(sku: string): Promise<CartView>;
  addToSelection(productId: string): Promise<SelectionView>;
  removeFromSelection(productId: string): Promise<SelectionView>;
}

/** Wrap `transport.performRpc` for the demo methods; refusals throw {@link StoreError}. */
export function createStoreApi(transport: RpcTransport, agentIdentity = 'agent'): StoreApi {
  const call = async <T>(method: string, args: unknown, signal?: AbortSignal): Promise<T> => {
    const payload = await transport.performRpc({
      destinationIdentity: agentIdentity,
      method,
      payload: JSON.stringify(args ?? {}),
      responseTimeoutMs: CALL_TIMEOUT_MS,
      ...(signal ? { signal } : {}),
    });
    const answer = JSON.parse(payload) as DemoAnswer<T>;
    if (!answer.ok) throw new StoreError(answer.error);
    return answer;
  };
  return {
    state: (signal) => call(DEMO_METHODS.STATE, {}, signal),
    products: async (ids, signal) =>
      (
        await call<{ products: ProductSummary[] }>(
          DEMO_METHODS.PRODUCTS,
          { product_ids: ids },
          signal,
        )
      ).products,
    product: async (id, signal) =>
      (await call<{ product: ProductDetails }>(DEMO_METHODS.PRODUCT, { product_id: id }, signal))
        .product,
    compare: async (ids, signal) =>
      (await call<{ comparison: Comparison }>(DEMO_METHODS.COMPARE, { product_ids: ids }, signal))
        .comparison,
    addToCart: async (productId, sku, quantity) =>
      (
        await call<{ cart: CartView }>(DEMO_METHODS.CART_ADD, {
          product_id: productId,
          ...(sku === undefined ? {} : { sku }),
          quantity,
        })
      ).cart,
    updateCart: async (sku, quantity) =>
      (await call<{ cart: CartView }>(DEMO_METHODS.CART_UPDATE, { sku, quantity })).cart,
    removeFromCart: async (sku) =>
      (await call<{ cart: CartView }>(DEMO_METHODS.CART_REMOVE, { sku })).cart,
    addToSelection: async (productId) =>
      (
        await call<{ selection: SelectionView }>(DEMO_METHODS.SELECTION_ADD, {
          product_id: productId,
        })
      ).selection,
    removeFromSelection: async (productId) =>
      (
        await call<{ selection: SelectionView }>(DEMO_METHODS.SELECTION_REMOVE, {
          product_id: productId,
        })
      ).selection,
  };
}

/** A readable message for a failed store call (RpcError codes become words). */
export function describeFailure(err: unknown): string {
  if (err instanceof StoreError) return err.message;
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 1503) return 'the assistant is not connected';
  if (code === 1502) return 'the store did not answer in time';
  if (code === 1401 || code === 1505) return 'not connected to the assistant';
  return errorMessage(err);
}
