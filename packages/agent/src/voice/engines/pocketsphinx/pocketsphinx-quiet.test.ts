/**
 * The quiet timer with a recognizer whose output and activity the test sets, on the real clock.
 */
import { describe, expect, it } from 'vitest';
import { QuietWatch } from './pocketsphinx-quiet.js';

const TIMEOUT_MS = 100;

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * A watch for one final asked for now, on a recognizer that uses CPU while `busy` is set (its
 * CPU time grows with the clock) and is `runnable` or not, with when the final was given.
 */
function watched(): {
  watch: QuietWatch;
  state: { busy: boolean; runnable: boolean };
  given: number[];
} {
  const state = { busy: false, runnable: false };
  let cpu = 0;
  const activity = () => {
    if (state.busy) cpu = performance.now();
    return { cpu, runnable: state.runnable };
  };
  const asked = performance.now();
  const given: number[] = [];
  const watch = new QuietWatch({ activity }, TIMEOUT_MS, (quietSince) => {
    const due = Math.max(asked, quietSince) + TIMEOUT_MS;
    if (due > performance.now()) return due;
    given.push(performance.now() - asked);
    return undefined;
  });
  watch.watch(asked);
  return { watch, state, given };
}

describe('QuietWatch', () => {
  it('gives a final once the recognizer printed nothing and wanted no core for the timeout', async () => {
    const { given } = watched();
    await pause(TIMEOUT_MS * 3);
    expect(given).toHaveLength(1);
    expect(given[0]).toBeGreaterThanOrEqual(TIMEOUT_MS - 1);
  });

  it('keeps a final while the recognizer stays active after a line, when its timer fires late', async () => {
    const { watch, state, given } = watched();
    state.busy = true;
    await pause(5);
    watch.output(); // a line soon after the timer started, then it keeps decoding
    // The event loop is held past that line's own timeout: the timer fires late.
    const until = performance.now() + TIMEOUT_MS + 60;
    while (performance.now() < until) {
      // busy
    }
    await pause(TIMEOUT_MS * 2);
    expect(given).toEqual([]);
    state.busy = false;
    await pause(TIMEOUT_MS * 5);
    expect(given).toHaveLength(1);
  });

  it('keeps a final while the recognizer waits for a core, gaining no CPU time', async () => {
    const { state, given } = watched();
    state.runnable = true; // starved: runnable, its CPU time standing still
    await pause(TIMEOUT_MS * 4);
    expect(given).toEqual([]);
    state.runnable = false;
    await pause(TIMEOUT_MS * 4);
    expect(given).toHaveLength(1);
  });
});
