/**
 * What the scripted shop assistant reads from the conversation context: the tool calls of the
 * current turn with their results, and what earlier turns established (the products last listed,
 * the one in focus).
 *
 * @module
 */
import type { ContextMessage } from '@scenaro/agent';
import type { JsonObject } from '@scenaro/agent/scenario';
import { isJsonObject } from '@scenaro/sdk/util';
import type { CartView } from '../model/cart.js';

/** One tool call of the current turn with its result. */
export interface Exchange {
  name: string;
  args: JsonObject;
  ok: boolean;
  /** The parsed result the model was given. */
  result: unknown;
  /** Why it failed, when it did. */
  error?: string;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A tool result's failure: `{error}` from the bot, or a non-SUCCESS `RpcToolResponse` from the browser. */
function failureOf(result: unknown): string | undefined {
  if (!isJsonObject(result)) return undefined;
  if (typeof result['error'] === 'string') return result['error'];
  const code = result['code'];
  if (typeof code === 'string' && code !== 'SUCCESS' && 'requestId' in result) {
    const data = result['data'];
    const message =
      isJsonObject(data) && typeof data['message'] === 'string' ? data['message'] : '';
    return message ? `${code}: ${message}` : code;
  }
  return undefined;
}

/** Index of the last user message, -1 when there is none. */
export function lastUserIndex(messages: readonly ContextMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.role === 'user') return i;
  return -1;
}

/** The tool calls (and results) of a slice of the context, in order. */
export function exchangesOf(messages: readonly ContextMessage[]): Exchange[] {
  const out: Exchange[] = [];
  for (const message of messages) {
    if (message.role !== 'assistant' || !message.tool_calls) continue;
    for (const call of message.tool_calls) {
      const answer = messages.find((m) => m.role === 'tool' && m.tool_call_id === call.id);
      const args = parseJson(call.function.arguments);
      const result = answer?.role === 'tool' ? parseJson(answer.content) : undefined;
      const error = answer ? failureOf(result) : 'no result';
      out.push({
        name: call.function.name,
        args: isJsonObject(args) ? args : {},
        ok: error === undefined,
        result,
        ...(error === undefined ? {} : { error }),
      });
    }
  }
  return out;
}

/** What earlier turns established: the products last listed (numbered) and the one in focus. */
export interface Memory {
  /** Product ids of the latest search, in the order they were shown and numbered. */
  grid: string[];
  /** The product the shopper last singled out (shown, added). */
  focus?: string;
}

/** The {@link Memory} of earlier turns. */
export function memoryOf(messages: readonly ContextMessage[]): Memory {
  const memory: Memory = { grid: [] };
  for (const exchange of exchangesOf(messages)) {
    if (!exchange.ok) continue;
    if (exchange.name === 'search_products' && isJsonObject(exchange.result)) {
      const results = exchange.result['results'];
      if (Array.isArray(results) && results.length > 0) {
        memory.grid = results.flatMap((r) =>
          isJsonObject(r) && typeof r['product_id'] === 'string' ? [r['product_id']] : [],
        );
      }
    } else if (exchange.name === 'show_products') {
      const ids = exchange.args['product_ids'];
      if (Array.isArray(ids) && ids.every((id) => typeof id === 'string')) memory.grid = ids;
    } else if (exchange.name === 'show_product' || exchange.name === 'add_to_cart') {
      const id = exchange.args['product_id'];
      if (typeof id === 'string') memory.focus = id;
    }
  }
  return memory;
}

/** The assistant's last words before message `before` (empty when the shopper spoke last). */
export function previousAssistantText(messages: readonly ContextMessage[], before: number): string {
  for (let i = before - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === 'user') return '';
    if (m?.role === 'assistant' && typeof m.content === 'string' && m.content) return m.content;
  }
  return '';
}

/** A cart as the cart tools return it. */
export function isCartView(value: unknown): value is CartView {
  return isJsonObject(value) && Array.isArray(value['items']) && typeof value['total'] === 'number';
}
