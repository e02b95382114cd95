import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pyFloatStr, pyRound, pythonFloat, pythonFloatRepr } from './float.js';

// db-hash.md §3; the finite rows are also CPython 3.11.7's `repr(x)`.
const REPR_TABLE: [number, string][] = [
  [0.0, '0.0'],
  [-0.0, '-0.0'],
  [1.0, '1.0'],
  [15.1, '15.1'],
  [0.1 + 0.2, '0.30000000000000004'],
  [1e16, '1e+16'],
  [1e15, '1000000000000000.0'],
  [123456789012345.6, '123456789012345.6'],
  [9999999999999998.0, '9999999999999998.0'],
  [1e-4, '0.0001'],
  [1e-5, '1e-05'],
  [0.00012345, '0.00012345'],
  [5e-324, '5e-324'],
  [1.7976931348623157e308, '1.7976931348623157e+308'],
  [1e22, '1e+22'],
  [2.5e-7, '2.5e-07'],
  [100.5, '100.5'],
  [1234.5678, '1234.5678'],
  [NaN, 'NaN'],
  [Infinity, 'Infinity'],
  [-Infinity, '-Infinity'],
];

describe('pythonFloatRepr: db-hash.md §3', () => {
  it.each(REPR_TABLE)('repr(%s) = %s', (x, repr) => {
    expect(pythonFloatRepr(x)).toBe(repr);
  });

  it('round-trips every double through Number()', () => {
    fc.assert(
      fc.property(fc.double(), (x) => {
        expect(Object.is(Number(pythonFloatRepr(x)), x)).toBe(true);
      }),
      { numRuns: 20_000 },
    );
  });

  it('uses fixed notation exactly for -4 <= exponent < 16, else d[.ddd]e±XX', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        const repr = pythonFloatRepr(x);
        const exp = x === 0 ? 0 : Number(x.toExponential().split('e')[1]);
        if (exp >= -4 && exp < 16) expect(repr).toMatch(/^-?\d+\.\d+$/);
        else expect(repr).toMatch(/^-?\d(\.\d+)?e[+-]\d{2,3}$/);
      }),
      { numRuns: 20_000 },
    );
  });
});

describe('pyFloatStr (Python str(float))', () => {
  it('formats floats like str()', () => {
    expect(pyFloatStr(4)).toBe('4.0');
    expect(pyFloatStr(0.1 + 0.2)).toBe('0.30000000000000004');
    expect(pyFloatStr(-Infinity)).toBe('-inf');
    expect(pyFloatStr(1e-5)).toBe('1e-05');
  });

  it('writes the non-finite values as repr does', () => {
    expect([Infinity, -Infinity, NaN].map(pyFloatStr)).toEqual(['inf', '-inf', 'nan']);
  });
});

describe('pyRound (Python round(x, n))', () => {
  it('rounds exact binary ties to even', () => {
    expect(pyRound(0.125, 2)).toBe(0.12);
    expect(pyRound(0.375, 2)).toBe(0.38);
    expect(pyRound(-0.125, 2)).toBe(-0.12);
    expect(pyRound(2.5, 0)).toBe(2);
    expect(pyRound(3.5, 0)).toBe(4);
  });

  it('rounds on the exact binary value, not the decimal literal', () => {
    expect(pyRound(2.675, 2)).toBe(2.67); // 2.67499999...
    expect(pyRound(1.005, 2)).toBe(1); // 1.00499999...
    expect(pyRound(0.1 + 0.2, 2)).toBe(0.3);
    expect(pyRound(-16.634999999999998, 2)).toBe(-16.63);
  });

  it('leaves non-finite and huge values alone', () => {
    expect(pyRound(Infinity, 2)).toBe(Infinity);
    expect(Number.isNaN(pyRound(NaN, 2))).toBe(true);
    expect(pyRound(1e22, 2)).toBe(1e22);
  });

  /**
   * `[x, ndigits, repr(round(x, ndigits))]` as printed by CPython 3.11.7
   * (`python3 -c 'print([[x, n, repr(round(x, n))] for x, n in CASES])'`); CPython also gives the
   * values the cases above expect.
   */
  const ROUND_VECTORS: [number, number, string][] = [
    [10 / 3, 2, '3.33'],
    [169.0, 2, '169.0'],
    [-0.5, 0, '-0.0'],
    [0.5, 0, '0.0'],
    [1.5, 0, '2.0'],
    [123.455, 2, '123.45'],
    [0.0001234, 5, '0.00012'],
    [-7.125, 2, '-7.12'],
    [99.995, 2, '100.0'],
    [5e-324, 2, '0.0'],
    [4503599627370496.0, 0, '4503599627370496.0'],
  ];

  it.each(ROUND_VECTORS)('round(%s, %s) = %s (CPython)', (x, n, repr) => {
    expect(pyFloatStr(pyRound(x, n))).toBe(repr);
  });
});

describe('pythonFloat (Python float())', () => {
  it('parses what Python parses', () => {
    expect(pythonFloat('1.5')).toBe(1.5);
    expect(pythonFloat(' 9.99\n')).toBe(9.99);
    expect(pythonFloat('1_000')).toBe(1000);
    expect(pythonFloat('.5')).toBe(0.5);
    expect(pythonFloat('5.')).toBe(5);
    expect(pythonFloat('1e3')).toBe(1000);
    expect(pythonFloat('-Infinity')).toBe(-Infinity);
    expect(pythonFloat('nan')).toBeNaN();
    expect(pythonFloat(true)).toBe(1);
    expect(pythonFloat(3)).toBe(3);
  });

  it('rejects what Python rejects', () => {
    for (const bad of ['', 'abc', '1,000', '1__0', '_1', '0x10', '1e', 'None', '$5']) {
      expect(pythonFloat(bad), bad).toBeUndefined();
    }
    expect(pythonFloat(null)).toBeUndefined();
    expect(pythonFloat({})).toBeUndefined();
  });

  /**
   * `[text, repr(float(text)) or None where float() raises ValueError]` as printed by CPython
   * 3.11.7 (`python3 -c` over the same strings). Python also accepts non-ASCII decimal digits
   * (`float('١٢')` is 12.0); that case is not reproduced.
   */
  const PARSE_VECTORS: [string, string | null][] = [
    ['1.5', '1.5'],
    [' 9.99\n', '9.99'],
    ['1_000', '1000.0'],
    ['.5', '0.5'],
    ['5.', '5.0'],
    ['1e3', '1000.0'],
    ['-Infinity', '-inf'],
    ['nan', 'nan'],
    ['inf', 'inf'],
    ['+INF', 'inf'],
    ['\u20031.25\u3000', '1.25'],
    ['1__0', null],
    ['_1', null],
    ['1_', null],
    ['abc', null],
    ['', null],
    [' ', null],
    ['1.2.3', null],
    ['0x10', null],
    ['1e', null],
    ['infinit', null],
    ['1,5', null],
    ['NaN ', 'nan'],
    ['-0', '-0.0'],
    ['1E+2', '100.0'],
  ];

  it.each(PARSE_VECTORS)('float(%j) = %s (CPython)', (text, repr) => {
    const value = pythonFloat(text);
    expect(value === undefined ? null : pyFloatStr(value)).toBe(repr);
  });
});
