/** Waiting for a condition in tests. */

/** Poll `check` every few milliseconds until it holds, or throw after `timeoutMs`. */
export async function pollUntil(
  check: () => boolean,
  what: string,
  timeoutMs = 5000,
): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
