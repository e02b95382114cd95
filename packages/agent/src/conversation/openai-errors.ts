/**
 * The errors of an OpenAI-compatible model call: aborts (named `AbortError`),
 * timeouts, and everything the `openai` client or `fetch` throws, mapped to a
 * `ChatModelError` that says whether a retry may help.
 */
import { errorMessage } from '@scenaro/sdk/util';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { ChatModelError } from './model.js';

/** The error `stream()` throws when its signal aborts with a reason that is not already an `AbortError`. */
export class ChatAbortError extends Error {
  override readonly name = 'AbortError';
  constructor(reason: unknown) {
    super(
      reason instanceof Error ? `model call aborted: ${reason.message}` : 'model call aborted',
      { cause: reason },
    );
  }
}

/** True for the errors a model call throws when its signal aborted. */
export function isAbortError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { name?: unknown }).name === 'AbortError'
  );
}

/** The error a call throws when `signal` aborted: its reason when that is an `AbortError`, else a {@link ChatAbortError}. */
export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  return new ChatAbortError(reason);
}

/** The retryable error of an attempt cut by its timeout. */
export function timeoutError(timeoutMs: number, cause?: unknown): ChatModelError {
  return new ChatModelError(
    `OpenAI-compatible request timed out after ${timeoutMs} ms`,
    true,
    undefined,
    { cause },
  );
}

/** An error of the openai client (or anything else thrown by an attempt) as a `ChatModelError`. */
export function toChatModelError(error: unknown, timeoutMs: number): ChatModelError {
  if (error instanceof ChatModelError) return error;
  if (error instanceof APIConnectionTimeoutError) return timeoutError(timeoutMs, error);
  if (error instanceof APIUserAbortError) {
    return new ChatModelError(
      `OpenAI-compatible request aborted: ${error.message}`,
      true,
      undefined,
      { cause: error },
    );
  }
  if (error instanceof APIConnectionError) {
    return new ChatModelError(
      `OpenAI-compatible connection error: ${error.message}`,
      true,
      undefined,
      {
        cause: error,
      },
    );
  }
  if (error instanceof APIError) {
    const status = typeof error.status === 'number' ? error.status : undefined;
    const shouldRetry = error.headers?.get('x-should-retry');
    const retryable =
      shouldRetry === 'true'
        ? true
        : shouldRetry === 'false'
          ? false
          : // No status: an error event inside the stream, a server-side failure mid-generation.
            status === undefined ||
            status === 408 ||
            status === 409 ||
            status === 429 ||
            status >= 500;
    const label = status === undefined ? 'stream error' : `error ${status}`;
    return new ChatModelError(
      `OpenAI-compatible API ${label}: ${error.message}`,
      retryable,
      status,
      {
        cause: error,
      },
    );
  }
  if (isConnectionLoss(error)) {
    return new ChatModelError(
      `OpenAI-compatible connection lost: ${describe(error)}`,
      true,
      undefined,
      {
        cause: error,
      },
    );
  }
  if (error instanceof SyntaxError) {
    return new ChatModelError(
      `OpenAI-compatible stream is malformed: ${error.message}`,
      false,
      undefined,
      {
        cause: error,
      },
    );
  }
  const message = errorMessage(error);
  return new ChatModelError(`OpenAI-compatible request failed: ${message}`, false, undefined, {
    cause: error,
  });
}

/**
 * A network failure `fetch` reports outside the openai client's wrapping, e.g. undici's
 * `TypeError: terminated` when the connection drops while the stream body is read.
 */
function isConnectionLoss(error: unknown): error is TypeError {
  if (!(error instanceof TypeError)) return false;
  if (error.message === 'terminated' || error.message === 'fetch failed') return true;
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  return (
    typeof code === 'string' &&
    (code.startsWith('UND_ERR') || code.startsWith('ECONN') || code === 'EPIPE')
  );
}

function describe(error: Error): string {
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}
