/**
 * Small AbortSignal helpers shared by transports and the session.
 */

/** A `DOMException` named `AbortError`, as `fetch` rejects with. */
export function abortError(message = 'The operation was aborted'): Error {
  return new DOMException(message, 'AbortError');
}

/** The reason to reject with when `signal` aborted. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? abortError();
}

/** Whether `value` is an abort (a `DOMException`/`Error` named `AbortError`). */
export function isAbortError(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { name?: unknown }).name === 'AbortError'
  );
}

/**
 * Run `onAbort` once when `signal` aborts (immediately if it already has).
 * Returns a function that removes the listener; call it when done.
 */
export function onAbort(signal: AbortSignal | undefined, onAbortFn: () => void): () => void {
  if (!signal) return noop;
  if (signal.aborted) {
    onAbortFn();
    return noop;
  }
  signal.addEventListener('abort', onAbortFn, { once: true });
  return () => signal.removeEventListener('abort', onAbortFn);
}

function noop(): void {}
