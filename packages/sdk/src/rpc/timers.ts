/**
 * Injectable timer functions. The defaults look the global functions up at call
 * time, so fake timers installed after import (`vi.useFakeTimers()`) apply.
 */

/** An opaque handle returned by {@link Timers.setTimeout}. */
export type TimerHandle = unknown;

/** The two timer functions the SDK uses. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** The platform's `setTimeout` / `clearTimeout`. */
export const defaultTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as Parameters<typeof clearTimeout>[0]),
};

/** Epoch milliseconds, like `Date.now`. */
export type Clock = () => number;

/** `Date.now`, looked up at call time. */
export const defaultClock: Clock = () => Date.now();
