import { describe, expect, it } from 'vitest';
import { calculateExpression } from './generic-tools.js';

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
