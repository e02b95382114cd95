/**
 * A vitest suite that runs the real Pipecat client in Node (`../pipecat-node`): the shims it
 * needs and the WebSocket transport's console lines quieted for the suite's tests.
 *
 * Test-only (excluded from the build).
 */
import { afterAll, beforeAll, vi } from 'vitest';
import { installPipecatNodeShims } from '../pipecat-node/index.js';

/**
 * Silence the WebSocket transport's own console lines (`websocket: …`, `signaling socket …`),
 * which it writes directly; other console output passes. Returns a function restoring console.
 */
export function quietPipecatConsole(): () => void {
  const restores: (() => void)[] = [];
  for (const level of ['debug', 'log', 'warn', 'error'] as const) {
    const original = console[level];
    const spy = vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      const text = String(args[0]);
      if (!text.startsWith('websocket:') && !text.startsWith('signaling socket')) original(...args);
    });
    restores.push(() => spy.mockRestore());
  }
  return () => {
    for (const restore of restores) restore();
  };
}

/**
 * For the enclosing suite: the Node shims installed (client-js's logger silenced) and the
 * transport's console lines quieted before its tests, both undone after.
 */
export function usePipecatNodeInEachSuite(): void {
  let restore: (() => void)[] = [];
  beforeAll(() => {
    restore = [installPipecatNodeShims(), quietPipecatConsole()];
  });
  afterAll(() => {
    for (const undo of restore.reverse()) undo();
  });
}
