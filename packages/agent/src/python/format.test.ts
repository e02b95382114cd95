import { describe, expect, it } from 'vitest';
import { pyFormatFixed } from './format.js';

// [value, format(v, ',.2f'), format(v, '.2f')] from CPython 3.11.
const CASES: [number, string, string][] = [
  [0, '0.00', '0.00'],
  [-0, '-0.00', '-0.00'],
  [1.5, '1.50', '1.50'],
  [2.675, '2.67', '2.67'],
  [0.125, '0.12', '0.12'],
  [0.375, '0.38', '0.38'],
  [-0.125, '-0.12', '-0.12'],
  [1234.5, '1,234.50', '1234.50'],
  [1234567.891, '1,234,567.89', '1234567.89'],
  [-1092, '-1,092.00', '-1092.00'],
  [142.5 - 49.99, '92.51', '92.51'],
  [-0.001, '-0.00', '-0.00'],
  [1e22, '10,000,000,000,000,000,000,000.00', '10000000000000000000000.00'],
  [0.005, '0.01', '0.01'],
  [1.005, '1.00', '1.00'],
  [-2.5, '-2.50', '-2.50'],
];

describe("format(x, ',.2f')", () => {
  it.each(CASES)('%s', (value, grouped, plain) => {
    expect(pyFormatFixed(value, 2, { grouping: true })).toBe(grouped);
    expect(pyFormatFixed(value, 2)).toBe(plain);
  });

  it('rounds half to even and spells non-finite values', () => {
    expect(pyFormatFixed(2.5, 0)).toBe('2');
    expect(pyFormatFixed(3.5, 0)).toBe('4');
    expect(pyFormatFixed(Number.NaN, 2)).toBe('nan');
    expect(pyFormatFixed(-Infinity, 2)).toBe('-inf');
  });
});
