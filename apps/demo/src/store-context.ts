/**
 * What the storefront panels share: the store calls, whether a bot session is connected, a
 * status line for the shopper's own actions, and opening a product in the detail panel.
 */
import { createContext, useContext } from 'react';
import type { StoreApi } from './store-api';

/** The storefront context. */
export interface StoreContextValue {
  api: StoreApi;
  /** True while a bot session holds the store state (cart, selection). */
  connected: boolean;
  /** Show the outcome of one of the shopper's actions. */
  report: (text: string, tone?: 'info' | 'error') => void;
  /** Open a product in the detail panel (the shopper's click; focus moves there). */
  showProduct: (productId: string) => void;
  /** Run a store call for a click: reports failures, returns undefined then. */
  run: <T>(what: string, action: () => Promise<T>) => Promise<T | undefined>;
  /** {@link run}, then report `done` when the call worked. */
  runAndReport: (what: string, action: () => Promise<unknown>, done: string) => Promise<void>;
}

/** @internal */
export const StoreContext = createContext<StoreContextValue | null>(null);

/** The enclosing storefront's context. */
export function useStore(): StoreContextValue {
  const value = useContext(StoreContext);
  if (!value) throw new Error('useStore must be used inside the storefront');
  return value;
}
