/**
 * The bounded steps of a server's shutdown: waiting for the work in flight, then closing every
 * connection. Their timers stay referenced (each is bounded): with unref'd ones, a process with
 * nothing else pending exited (code 13) before `close()` resolved, skipping whatever followed it.
 */
import type { TransportConnection } from './transport.js';

/** What the shutdown needs of a connection. */
type Closable = Pick<TransportConnection, 'close' | 'terminate'>;

/** Resolves once every promise in `work` has settled, or after `ms`. */
export async function settleWithin(work: readonly Promise<unknown>[], ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    Promise.allSettled(work),
    new Promise((resolve) => (timer = setTimeout(resolve, ms))),
  ]);
  clearTimeout(timer);
}

/**
 * Close every connection `open()` lists with 1001 and wait until it lists none; connections
 * still open after `ms` are dropped.
 */
export async function closeAllWithin(open: () => Iterable<Closable>, ms: number): Promise<void> {
  for (const connection of open()) connection.close(1001, 'server shutting down');
  await new Promise<void>((resolve) => {
    let waited = false;
    const deadline = setTimeout(() => {
      waited = true;
      for (const connection of open()) connection.terminate();
      resolve();
    }, ms);
    const check = () => {
      if (waited) return;
      if (open()[Symbol.iterator]().next().done) {
        clearTimeout(deadline);
        resolve();
      } else setTimeout(check, 10);
    };
    check();
  });
}
