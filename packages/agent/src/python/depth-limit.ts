/**
 * The nesting limit shared by the JSON serializer, the db hash, normalization, diff and deep
 * equality: values nesting deeper than `maxDepth` containers (or cyclic ones) raise
 * {@link DbHashDepthError} instead of overflowing the call stack or hanging.
 *
 * @module
 */

/** Default maximum nesting depth (number of enclosing arrays/objects). */
export const DEFAULT_MAX_DEPTH = 10_000;

/** Options shared by the hashing, normalization, serialization and diff functions. */
export interface DbHashOptions {
  /**
   * Maximum nesting depth (arrays/objects enclosing a value) before {@link DbHashDepthError} is
   * thrown. @default 10000
   */
  maxDepth?: number;
}

/** Thrown when a value nests deeper than the configured `maxDepth` (or contains a cycle). */
export class DbHashDepthError extends RangeError {
  override readonly name = 'DbHashDepthError';
  /** The depth limit that was exceeded. */
  readonly maxDepth: number;

  constructor(maxDepth: number, options?: { cause?: unknown }) {
    super(
      `value nests deeper than maxDepth=${maxDepth} (too deep or cyclic); raise maxDepth if the input is legitimate`,
      options,
    );
    this.maxDepth = maxDepth;
  }
}

/** The `maxDepth` of `options` (default {@link DEFAULT_MAX_DEPTH}); throws unless a positive integer. */
export function maxDepthOf(options: DbHashOptions | undefined): number {
  const d = options?.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (!Number.isInteger(d) || d < 1)
    throw new RangeError(`maxDepth must be a positive integer, got ${d}`);
  return d;
}
