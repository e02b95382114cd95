import { describe, expect, it } from 'vitest';
import { calculateExpression } from './generic-tools.js';
import type { PythonError } from './python-arithmetic.js';
import { evaluatePythonArithmetic } from './python-arithmetic.js';
import { pyFloatStr, pyRepr, pyRound, textwrapIndent } from './python-compat.js';

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
});

describe('Python text helpers', () => {
  it('formats floats like str()', () => {
    expect(pyFloatStr(4)).toBe('4.0');
    expect(pyFloatStr(0.1 + 0.2)).toBe('0.30000000000000004');
    expect(pyFloatStr(-Infinity)).toBe('-inf');
    expect(pyFloatStr(1e-5)).toBe('1e-05');
  });

  it('indents non-blank lines like textwrap.indent', () => {
    expect(textwrapIndent('a\n\nb\n', '\t')).toBe('\ta\n\n\tb\n');
  });

  it('renders dicts like repr()', () => {
    expect(pyRepr({ a: 'x', b: null, c: [true, 1.5] })).toBe(
      "{'a': 'x', 'b': None, 'c': [True, 1.5]}",
    );
  });
});

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
    const raised = (expr: string): string => {
      try {
        evaluatePythonArithmetic(expr);
      } catch (err) {
        return `${(err as PythonError).pythonType}: ${(err as Error).message}`;
      }
      return 'no error';
    };
    expect(raised('1 / 0')).toBe('ZeroDivisionError: division by zero');
    expect(raised('1.0 / 0')).toBe('ZeroDivisionError: float division by zero');
    expect(raised('1 // 0')).toBe('ZeroDivisionError: integer division or modulo by zero');
    expect(raised('')).toBe('SyntaxError: invalid syntax (<string>, line 1)');
    expect(raised('1 2')).toBe('SyntaxError: invalid syntax (<string>, line 1)');
    expect(raised('1.2.3')).toBe('SyntaxError: invalid syntax (<string>, line 1)');
    expect(raised('012')).toMatch(/^SyntaxError: leading zeros/);
    expect(raised('()')).toMatch(/^TypeError: float\(\) argument must be/);
    expect(raised('(-8) ** 0.5')).toMatch(/not 'complex'/);
  });
});

describe('calculate', () => {
  it('returns str(round(result, 2))', () => {
    expect(calculateExpression('2 + 2')).toBe('4.0');
    expect(calculateExpression('10 / 3')).toBe('3.33');
    expect(calculateExpression('(120 - 35.5) * 2')).toBe('169.0');
  });

  it('refuses characters outside the allow-list and reports Python errors', () => {
    expect(() => calculateExpression('2 ^ 3')).toThrow('Invalid characters in expression');
    expect(() => calculateExpression('__import__')).toThrow('Invalid characters in expression');
    expect(() => calculateExpression('1 / 0')).toThrow('division by zero');
  });
});
