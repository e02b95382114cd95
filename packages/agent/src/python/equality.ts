/**
 * Python's `==` on JSON-like values: the one deep equality of the project.
 *
 * @module
 */
import { DbHashDepthError } from './depth-limit.js';
import { PyFloat } from './float.js';
import { isPlainObject } from './dict.js';

/** Options of {@link pyEquals}. */
export interface PyEqualsOptions {
  /** Containers may nest this deep before {@link DbHashDepthError} is thrown. @default Infinity */
  maxDepth?: number;
  /** Containers already enclosing `a` and `b` (they count toward `maxDepth`). @default 0 */
  depth?: number;
}

/** The numeric value Python sees (`True` is 1), or `undefined` for non-numbers. */
function numeric(v: unknown): number | bigint | undefined {
  if (typeof v === 'number' || typeof v === 'bigint') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v instanceof PyFloat) return v.value;
  return undefined;
}

function equalsAt(a: unknown, b: unknown, maxDepth: number, depth: number): boolean {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined) {
    // A bigint and a number compare by value under loose equality; NaN equals nothing.
    return typeof na === 'bigint' || typeof nb === 'bigint' ? na == nb : na === nb;
  }
  const x = a ?? null;
  const y = b ?? null;
  if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object') return x === y;
  if (x === y) return true;
  if (depth >= maxDepth) throw new DbHashDepthError(maxDepth);
  if (Array.isArray(x) || Array.isArray(y)) {
    if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) {
      if (!equalsAt(x[i], y[i], maxDepth, depth + 1)) return false;
    }
    return true;
  }
  // Other objects stand for what `default=str` would print.
  if (!isPlainObject(x) || !isPlainObject(y)) return String(x) === String(y);
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  for (const k of keys) {
    if (!Object.hasOwn(y, k) || !equalsAt(x[k], y[k], maxDepth, depth + 1)) return false;
  }
  return true;
}

/**
 * Python `==` on JSON-like values: numbers by value (`1 == 1.0`, a `bigint` against a number,
 * {@link PyFloat} markers by their value), booleans as 0/1 against numbers (`True == 1`),
 * `undefined` as `None`, NaN unequal to everything, lists element-wise in order, dicts by key set
 * and values (key order ignored). Other objects compare by `String()`.
 */
export function pyEquals(a: unknown, b: unknown, options?: PyEqualsOptions): boolean {
  return equalsAt(a, b, options?.maxDepth ?? Infinity, options?.depth ?? 0);
}
