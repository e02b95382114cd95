/**
 * What the demo page and its server agree on: the page's `GET /config.json` and the
 * browser -> agent store methods the server registers on every bot session. The page bundles
 * this module and the server imports it, so both read the same names.
 */
import type { ToolDefinition } from '@scenaro/sdk';

/** `GET /config.json`, served by `scenaro demo`. */
export interface DemoConfig {
  /** The bot server's WebSocket URL. */
  wsUrl: string;
  /** The bot server's per-run token (sent as `?token=`). */
  token?: string;
  storeName: string;
  shopper: { id: string; name: string };
  /** Which brain answers: the scripted shop assistant or an LLM. */
  assistant: { label: string; scripted: boolean };
  /** The commerce domain's frontend tools (name, parameters, feature), registered by the page. */
  tools: ToolDefinition[];
  /** What the bot can do with speech. */
  voice: DemoVoice;
}

/** The bot's speech, as the page needs to know it. */
export interface DemoVoice {
  /** The bot transcribes what the microphone sends. */
  listens: boolean;
  /** The bot answers in speech. */
  speaks: boolean;
  /** Why the bot cannot transcribe after all (its recognizer is not installed), when it cannot. */
  problem?: string;
}

/** Browser -> agent methods the demo server registers on each bot session (`rpc-call`). */
export const DEMO_METHODS = {
  STATE: 'demo_state',
  PRODUCTS: 'demo_products',
  PRODUCT: 'demo_product',
  COMPARE: 'demo_compare',
  CART_ADD: 'demo_cart_add',
  CART_UPDATE: 'demo_cart_update',
  CART_REMOVE: 'demo_cart_remove',
  SELECTION_ADD: 'demo_selection_add',
  SELECTION_REMOVE: 'demo_selection_remove',
} as const;

/** The answer of a store method: its fields, or why the store refused. */
export type DemoAnswer<T> = ({ ok: true } & T) | { ok: false; error: string };
