/**
 * Checks of numeric command-line values, with messages that name the flag.
 */

/** A port from 0 (any free one) to 65535. */
export function parsePort(value: string, flag: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`${flag} must be an integer from 0 to 65535, got '${value}'`);
  }
  return port;
}

/** An integer of at least `min`. */
export function parseInteger(value: string, flag: string, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`${flag} must be an integer >= ${min}, got '${value}'`);
  return n;
}
