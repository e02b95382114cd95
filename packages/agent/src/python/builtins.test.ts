import { describe, expect, it } from 'vitest';
import { PythonError } from './arithmetic.js';
import { pyFloatCall, pyIntFromString, pyTruthy } from './builtins.js';

/** The exception `fn` raises: its Python type and message. */
function raised(fn: () => unknown): [string, string] {
  try {
    fn();
  } catch (err) {
    if (err instanceof PythonError) return [err.pythonType, err.message];
    throw err;
  }
  throw new Error('nothing was raised');
}

// Expected values from CPython 3.11.
describe('float()', () => {
  it('converts numbers, booleans and float strings', () => {
    expect(pyFloatCall(2)).toBe(2);
    expect(pyFloatCall(true)).toBe(1);
    expect(pyFloatCall('1e2')).toBe(100);
    expect(pyFloatCall(' 2 ')).toBe(2);
  });

  it("raises Python's errors", () => {
    expect(raised(() => pyFloatCall('abc'))).toEqual([
      'ValueError',
      "could not convert string to float: 'abc'",
    ]);
    expect(raised(() => pyFloatCall(''))).toEqual([
      'ValueError',
      "could not convert string to float: ''",
    ]);
    expect(raised(() => pyFloatCall('$9.99'))).toEqual([
      'ValueError',
      "could not convert string to float: '$9.99'",
    ]);
    expect(raised(() => pyFloatCall(null))).toEqual([
      'TypeError',
      "float() argument must be a string or a real number, not 'NoneType'",
    ]);
    expect(raised(() => pyFloatCall([]))[1]).toBe(
      "float() argument must be a string or a real number, not 'list'",
    );
    expect(raised(() => pyFloatCall({}))[1]).toBe(
      "float() argument must be a string or a real number, not 'dict'",
    );
  });
});

describe('int(str)', () => {
  it.each([
    ['001', 1],
    [' 12 ', 12],
    ['1_2', 12],
    ['+5', 5],
  ])('parses the base-10 literal %j', (text, value) => {
    expect(pyIntFromString(text)).toBe(value);
  });

  it('raises ValueError with the literal', () => {
    for (const text of ['AX1', 'X12', '1__2', '']) {
      expect(raised(() => pyIntFromString(text))).toEqual([
        'ValueError',
        `invalid literal for int() with base 10: '${text}'`,
      ]);
    }
  });
});

describe('bool()', () => {
  it('is false for None, False, 0, empty strings, lists and dicts', () => {
    for (const value of [null, undefined, false, 0, '', [], {}])
      expect(pyTruthy(value)).toBe(false);
    for (const value of [true, 1, -0.5, 'x', [0], { a: null }]) expect(pyTruthy(value)).toBe(true);
  });
});
