import { describe, expect, it } from 'vitest';
import { DbHashDepthError } from './depth-limit.js';
import { pyEquals } from './equality.js';
import { pyFloat } from './float.js';

describe('pyEquals (Python ==)', () => {
  it('follows Python semantics on JSON values', () => {
    expect(pyEquals(1, 1.0)).toBe(true);
    expect(pyEquals(true, 1)).toBe(true);
    expect(pyEquals(false, 0)).toBe(true);
    expect(pyEquals('1', 1)).toBe(false);
    expect(pyEquals([1, 2], [2, 1])).toBe(false);
    expect(pyEquals({ a: 1, b: [1] }, { b: [1], a: 1 })).toBe(true);
    expect(pyEquals({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(pyEquals(null, undefined)).toBe(true);
    expect(pyEquals(Number.NaN, Number.NaN)).toBe(false);
    expect(pyEquals(10n, 10)).toBe(true);
  });
});

/**
 * `[a, b, a == b]` as printed by CPython 3.11.7 (`python3 -c` printing
 * `json.dumps([[a, b, a == b] for a, b in PAIRS])` over the same pairs as Python literals;
 * `2**64` is a bigint here).
 */
const EQ_VECTORS: [unknown, unknown, boolean][] = [
  [1, 1.0, true],
  [true, 1, true],
  [false, 0, true],
  ['1', 1, false],
  [[1, 2], [2, 1], false],
  [{ a: 1, b: [1] }, { b: [1], a: 1 }, true],
  [{ a: 1 }, { a: 1, b: 2 }, false],
  [null, null, true],
  [NaN, NaN, false],
  [10, 10, true],
  [[true], [1], true],
  [{ a: null }, { a: null }, true],
  ['a', 'a', true],
  [[], {}, false],
  [{}, {}, true],
  [null, 0, false],
  ['', null, false],
  [[1.5, 'x'], [1.5, 'x'], true],
  [18446744073709551616n, 1.8446744073709552e19, true],
  [0.30000000000000004, 0.3, false],
];

describe('pyEquals: CPython vectors', () => {
  it.each(EQ_VECTORS)('vector %#: %s == %s is %s', (a, b, equal) => {
    expect(pyEquals(a, b)).toBe(equal);
    expect(pyEquals(b, a)).toBe(equal);
  });

  it('compares PyFloat markers by value and other objects by String()', () => {
    expect(pyEquals(pyFloat(2), 2)).toBe(true);
    expect(pyEquals([pyFloat(0.5)], [0.5])).toBe(true);
    expect(pyEquals(new Date(0), new Date(0))).toBe(true);
    expect(pyEquals(new Date(0), new Date(86_400_000))).toBe(false);
  });

  it('enforces maxDepth, counting the depth the values already sit at', () => {
    const nest = (depth: number): unknown => {
      let v: unknown = 1;
      for (let i = 0; i < depth; i++) v = [v];
      return v;
    };
    expect(pyEquals(nest(5), nest(5), { maxDepth: 5 })).toBe(true);
    expect(() => pyEquals(nest(6), nest(6), { maxDepth: 5 })).toThrow(DbHashDepthError);
    expect(() => pyEquals(nest(5), nest(5), { maxDepth: 5, depth: 1 })).toThrow(DbHashDepthError);
  });
});
