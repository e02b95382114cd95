/**
 * Long-running commands (`serve`, `demo`) stop cleanly on Ctrl+C or a termination signal.
 */

/** Close `server`, then exit, on the first SIGINT or SIGTERM. */
export function closeOnSignal(server: { close(): Promise<void> }): void {
  const stop = () => {
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
