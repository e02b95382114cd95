/**
 * Stands in for `@daily-co/daily-js` in the page bundle (an alias in vite.config.ts).
 * `WebSocketTransport` uses Daily only in its default media manager, and the page always gives
 * it its own (`LazyMicMediaManager`), so Daily's call object is never created here; this keeps
 * Daily's code (about 250 kB) out of the page.
 */
function unavailable(): never {
  throw new Error(
    'Daily is not bundled with the demo page: give WebSocketTransport a mediaManager',
  );
}

export default { getCallInstance: unavailable, createCallObject: unavailable };
