/**
 * A client socket's output: waiting until what is queued for it has drained, and closing it
 * with a deadline so a client that never takes the close frame does not hold its socket and
 * queued data until ws's 30-second closing timeout.
 */
import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';

/** Longest delay `setTimeout` honours (a longer one fires at once). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Undefined while `ws` has at most `watermark` bytes unsent; otherwise resolves once it has
 * drained below that (or closed).
 */
export function whenDrained(
  ws: WebSocket,
  socket: Socket,
  watermark: number,
): Promise<void> | undefined {
  const ok = () => ws.readyState !== ws.OPEN || ws.bufferedAmount <= watermark;
  if (ok()) return undefined;
  return new Promise<void>((resolve) => {
    const check = () => {
      if (!ok()) return;
      clearInterval(poll);
      socket.off('drain', check);
      ws.off('close', check);
      resolve();
    };
    // 'drain' is the usual wake-up; the poll covers data queued inside ws itself.
    const poll = setInterval(check, 20);
    socket.on('drain', check);
    ws.on('close', check);
  });
}

/** Close `ws`, and drop its socket if the close has not completed within `graceMs` (finite). */
export function closeWithin(ws: WebSocket, code: number, reason: string, graceMs: number): void {
  ws.close(code, reason);
  if (!Number.isFinite(graceMs)) return;
  const drop = setTimeout(() => ws.terminate(), Math.min(graceMs, MAX_TIMER_MS));
  drop.unref();
  ws.once('close', () => clearTimeout(drop));
}
