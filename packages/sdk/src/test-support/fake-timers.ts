/**
 * Fake timers for every test of the enclosing `describe` (real ones again after each test).
 */
import { afterEach, beforeEach, vi } from 'vitest';

/** Install fake timers before each test of the enclosing suite and restore real ones after. */
export function useFakeTimersInEachTest(): void {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}
