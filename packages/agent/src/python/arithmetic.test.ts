import { describe, expect, it } from 'vitest';
import { evaluatePythonArithmetic } from './arithmetic.js';
import type { PythonError } from './arithmetic.js';
import { pyFloatStr } from './float.js';

function raised(expr: string): string {
  try {
    evaluatePythonArithmetic(expr);
  } catch (err) {
    return `${(err as PythonError).pythonType}: ${(err as Error).message}`;
  }
  return 'no error';
}

describe('evaluatePythonArithmetic (float(eval(expr)))', () => {
  it('follows Python precedence and int/float typing', () => {
    expect(evaluatePythonArithmetic('2 + 3 * 4')).toBe(14);
    expect(evaluatePythonArithmetic('-2 ** 2')).toBe(-4);
    expect(evaluatePythonArithmetic('2 ** -1')).toBe(0.5);
    expect(evaluatePythonArithmetic('2 ** 3 ** 2')).toBe(512);
    expect(evaluatePythonArithmetic('7 // 2')).toBe(3);
    expect(evaluatePythonArithmetic('-7 // 2')).toBe(-4);
    expect(evaluatePythonArithmetic('(1 + 2) * .5')).toBe(1.5);
    expect(evaluatePythonArithmetic('--1 + +2')).toBe(3);
  });

  it('raises Python errors', () => {
    expect(raised('1 / 0')).toBe('ZeroDivisionError: division by zero');
    expect(raised('1.0 / 0')).toBe('ZeroDivisionError: float division by zero');
    expect(raised('1 // 0')).toBe('ZeroDivisionError: integer division or modulo by zero');
    // CPython 3.11 words this one `line 0`; every syntax error here says `line 1`.
    expect(raised('')).toBe('SyntaxError: invalid syntax (<string>, line 1)');
    expect(raised('1 2')).toBe('SyntaxError: invalid syntax (<string>, line 1)');
    expect(raised('1.2.3')).toBe('SyntaxError: invalid syntax (<string>, line 1)');
    expect(raised('012')).toMatch(/^SyntaxError: leading zeros/);
    expect(raised('()')).toMatch(/^TypeError: float\(\) argument must be/);
    expect(raised('(-8) ** 0.5')).toMatch(/not 'complex'/);
  });
});

/**
 * `[expr, repr(float(eval(expr, {'__builtins__': {}}, {})))` or `'Type: message'`] as printed by
 * CPython 3.11.7 (`python3 -c` over these expressions). Syntax errors CPython words otherwise
 * (an unclosed or unmatched parenthesis, an empty expression) are left out: the evaluator reports
 * every syntax error but leading zeros as `invalid syntax (<string>, line 1)`.
 */
const ARITHMETIC_VECTORS: [expr: string, result: string][] = [
  ['2 + 3 * 4', '14.0'],
  ['-2 ** 2', '-4.0'],
  ['2 ** -1', '0.5'],
  ['2 ** 3 ** 2', '512.0'],
  ['7 // 2', '3.0'],
  ['-7 // 2', '-4.0'],
  ['(1 + 2) * .5', '1.5'],
  ['--1 + +2', '3.0'],
  ['10 / 3', '3.3333333333333335'],
  ['7.5 // 2', '3.0'],
  ['-7.5 // 2', '-4.0'],
  ['2 ** 0.5', '1.4142135623730951'],
  ['3 - - 3', '6.0'],
  ['1.', '1.0'],
  ['00', '0.0'],
  ['0.5 * (2 - 4)', '-1.0'],
  ['((1))', '1.0'],
  ['1 / 0', 'ZeroDivisionError: division by zero'],
  ['1.0 / 0', 'ZeroDivisionError: float division by zero'],
  ['1 // 0', 'ZeroDivisionError: integer division or modulo by zero'],
  ['1.0 // 0', 'ZeroDivisionError: float floor division by zero'],
  ['1 2', 'SyntaxError: invalid syntax (<string>, line 1)'],
  ['1.2.3', 'SyntaxError: invalid syntax (<string>, line 1)'],
  [
    '012',
    'SyntaxError: leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers (<string>, line 1)',
  ],
  ['()', "TypeError: float() argument must be a string or a real number, not 'tuple'"],
  ['(-8) ** 0.5', "TypeError: float() argument must be a string or a real number, not 'complex'"],
  ['0 ** -1', 'ZeroDivisionError: 0.0 cannot be raised to a negative power'],
  ['0.0 ** -1', 'ZeroDivisionError: 0.0 cannot be raised to a negative power'],
  ['(1) + ()', "TypeError: unsupported operand type(s) for +: 'int' and 'tuple'"],
  ['+()', "TypeError: bad operand type for unary +: 'tuple'"],
  ['10 ** 400', 'OverflowError: int too large to convert to float'],
  ['10.0 ** 400', "OverflowError: (34, 'Numerical result out of range')"],
  ['2 ** 10000 * 1.0', 'OverflowError: int too large to convert to float'],
];

describe('evaluatePythonArithmetic: CPython vectors', () => {
  it.each(ARITHMETIC_VECTORS)('%s -> %s', (expr, result) => {
    const error = raised(expr);
    expect(error === 'no error' ? pyFloatStr(evaluatePythonArithmetic(expr)) : error).toBe(result);
  });
});
