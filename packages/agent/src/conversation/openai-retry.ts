/**
 * Retrying a failed OpenAI-compatible request: exponential backoff with jitter,
 * or the delay the server asks for, waited out unless the call aborts.
 */
import { APIError } from 'openai';
import type { ChatModelError } from './model.js';
import { abortError } from './openai-errors.js';

/** How a model backs off between retries. */
export interface BackoffSettings {
  /** First delay in ms, doubled at each retry. */
  initialBackoffMs: number;
  /** Largest delay in ms, also the cap on a server's `retry-after`. */
  maxBackoffMs: number;
}

/**
 * The delay before retry number `retry` (1-based) of `error`: the server's
 * `retry-after` (capped), else exponential backoff with up to 25 % jitter off.
 */
export function backoffMs(retry: number, error: ChatModelError, settings: BackoffSettings): number {
  const { initialBackoffMs, maxBackoffMs } = settings;
  const asked = retryAfterMs(error);
  if (asked !== undefined) return Math.min(asked, maxBackoffMs);
  const base = Math.min(initialBackoffMs * 2 ** (retry - 1), maxBackoffMs);
  return base * (1 - Math.random() * 0.25);
}

/** The server's `retry-after-ms` / `retry-after` in ms, if it sent one. */
function retryAfterMs(error: ChatModelError): number | undefined {
  const cause = error.cause;
  if (!(cause instanceof APIError) || !cause.headers) return undefined;
  const ms = cause.headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms)))
    return Math.max(0, Number(ms));
  const after = cause.headers.get('retry-after');
  if (after === null || after.trim() === '') return undefined;
  if (Number.isFinite(Number(after))) return Math.max(0, Number(after) * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Resolves after `ms`, or rejects with the abort error when `signal` aborts first. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(abortError(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
