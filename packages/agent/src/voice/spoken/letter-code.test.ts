import { describe, expect, it } from 'vitest';
import { looksLikeLetterCode } from './letter-code.js';

const WORDS = [
  'PLEASE',
  'THANKS',
  'FLIGHTS',
  'MONTHS',
  'NIGHTS',
  'WORLDS',
  'CANNOT',
  'STRENGTH',
  'BUSINESS',
  'ECONOMY',
  'URGENT',
  'WARNING',
  'SILVER',
  'GOLD',
  'PLATINUM',
  'CONFIRMED',
  'REFUNDED',
  'UPGRADE',
  'EXCHANGE',
  'TRANSFER',
  'SIGNAL',
  'MONTHLY',
  'WRONG',
  'BOOKING',
  'PASSENGER',
  'JOURNEY',
  'QUALITY',
  'OUTBOUND',
  'NONSTOP',
  'BEAUTY',
];

const CODES = [
  'SDZQKO',
  'HXDUBJ',
  'KNLMZ',
  'BCDFGH',
  'QWERTY',
  'ZXCVBN',
  'AAOCLA',
  'NDONCH',
  'RSABAK',
  'XEHMQB',
  'TRIYUU',
  'PIKIIY',
];

describe('looksLikeLetterCode', () => {
  it.each(WORDS)('%s is a word', (word) => {
    expect(looksLikeLetterCode(word)).toBe(false);
  });
  it.each(CODES)('%s is a code', (code) => {
    expect(looksLikeLetterCode(code)).toBe(true);
  });
});
