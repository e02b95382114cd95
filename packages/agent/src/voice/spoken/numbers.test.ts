import { describe, expect, it } from 'vitest';
import {
  cardinalWords,
  digitWords,
  numberWords,
  ordinalWords,
  pairedNumberWords,
  readNumberRun,
  yearWords,
} from './numbers.js';

/** A table of one reader of numbers: `read(value)` says `words`. */
function says<T>(read: (value: T) => string, cases: [T, string][]): void {
  it.each(cases)(`${read.name}(%j)`, (value, words) => {
    expect(read(value)).toBe(words);
  });
}

describe('number words', () => {
  says(cardinalWords, [
    ['0', 'zero'],
    ['000', 'zero'],
    ['15', 'fifteen'],
    ['90', 'ninety'],
    ['1001', 'one thousand one'],
    ['1000000000000', 'one trillion'],
    [
      '999999999999999999',
      'nine hundred ninety-nine quadrillion nine hundred ninety-nine trillion nine hundred ninety-nine billion nine hundred ninety-nine million nine hundred ninety-nine thousand nine hundred ninety-nine',
    ],
    [
      '1234567890123456789',
      'one two three four five six seven eight nine zero one two three four five six seven eight nine',
    ],
  ]);

  says(ordinalWords, [
    [1, 'first'],
    [8, 'eighth'],
    [9, 'ninth'],
    [30, 'thirtieth'],
    [41, 'forty-first'],
    [1000, 'one thousandth'],
  ]);

  says(yearWords, [
    [1999, 'nineteen ninety-nine'],
    [2000, 'two thousand'],
    [2009, 'two thousand nine'],
    [2024, 'twenty twenty-four'],
    [1066, 'ten sixty-six'],
    [1800, 'eighteen hundred'],
    [999, 'nine hundred ninety-nine'],
  ]);

  says(pairedNumberWords, [
    ['5', 'five'],
    ['45', 'forty-five'],
    ['100', 'one hundred'],
    ['110', 'one ten'],
    ['305', 'three oh five'],
    ['1234', 'twelve thirty-four'],
    ['1200', 'twelve hundred'],
    ['2000', 'two thousand'],
    ['012', 'zero one two'],
    ['12345', 'one two three four five'],
  ]);

  it('reads digits and decimals', () => {
    expect(digitWords('0199')).toBe('zero one nine nine');
    expect(numberWords('-1,234.05')).toBe(
      'minus one thousand two hundred thirty-four point zero five',
    );
    expect(numberWords('abc')).toBe('');
  });

  it('reads number words back chunk by chunk', () => {
    const words = 'twelve thirty four then'.split(' ');
    expect(readNumberRun(words, 0)).toEqual({
      digits: '1234',
      value: 1234,
      end: 3,
      chunks: 2,
      ordinal: false,
    });
    expect(readNumberRun(['then'], 0)).toBeUndefined();
    expect(readNumberRun('twenty fourth of'.split(' '), 0)).toMatchObject({
      value: 24,
      ordinal: true,
      end: 2,
    });
  });
});
