/**
 * What the oracle recognizer hears: what was said, written as a recognizer writes it (lower-case
 * words, no punctuation, numerals in words: "please cancel e h g l p three"), and the faults it
 * can be given on purpose, each a transform of the words heard.
 */
import { normalizeWords } from '../../metrics/wer.js';
import { NATO_ALPHABET } from '../../spoken/heard.js';
import { DIGIT_WORDS, digitWords, numberWords } from '../../spoken/numbers.js';

/** A fault of the oracle's ear: how it mishears what was said. */
export type HearingFault = 'swap-digit';

/** Numerals of `text` in words: codes ("EHGLP3") character by character, numbers as said. */
function numeralsInWords(text: string): string {
  const codes = text
    .replace(/_/g, ' ')
    .replace(/\b(?=[a-z]*\d)(?=\d*[a-z])[a-z0-9]+\b/gi, (code) =>
      [...code].map((c) => (/\d/.test(c) ? digitWords(c) : c)).join(' '),
    );
  return codes.replace(/\d[\d,]*(?:\.\d+)?/g, (n) => ` ${numberWords(n)} `);
}

/** `said` as a recognizer writes it: lower-case words without punctuation, numerals in words. */
export function recognizerWords(said: string): string[] {
  return normalizeWords(numeralsInWords(said));
}

/** 32-bit FNV-1a of `text`. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** A word said to spell one character of a code: a digit word, a single letter, a NATO word. */
function spelledCharacter(word: string): boolean {
  return DIGIT_WORDS.includes(word) || /^[a-z]$/.test(word) || NATO_ALPHABET[word] !== undefined;
}

/** One number in a run of words: the run of spelled characters it is said in, and its digits. */
export interface SpokenNumber {
  /** Index of the run's first word. */
  start: number;
  /** Index after the run's last word. */
  end: number;
  /** Indices of its digit words. */
  digits: number[];
}

/**
 * The numbers of `words`: a run of digit words ("nine nine five seven"), or a code spelled with
 * digits among its letters ("e h g l p three", "echo hotel golf lima papa three": a run of
 * single letters, NATO words and digit words with a digit in it). Digit words apart ("one bag
 * and two seats") are numbers of their own.
 */
export function spokenNumbers(words: readonly string[]): SpokenNumber[] {
  const numbers: SpokenNumber[] = [];
  let start = 0;
  let digits: number[] = [];
  for (let i = 0; i <= words.length; i++) {
    const word = words[i];
    if (word !== undefined && spelledCharacter(word)) {
      if (DIGIT_WORDS.includes(word)) digits.push(i);
      continue;
    }
    if (digits.length > 0) numbers.push({ start, end: i, digits });
    digits = [];
    start = i + 1;
  }
  return numbers;
}

/**
 * `swap-digit`: one digit of every number heard is another. Which digit and what it becomes
 * come from a hash of the number's words (the run of digit and letter words it is said in), so
 * a number said the same way is misheard the same way, and the digit always changes.
 */
export function swapDigit(words: readonly string[]): string[] {
  const heard = [...words];
  for (const { start, end, digits } of spokenNumbers(words)) {
    const h = hash(words.slice(start, end).join(' '));
    const at = digits[h % digits.length]!;
    const digit = DIGIT_WORDS.indexOf(words[at]!);
    heard[at] = DIGIT_WORDS[(digit + 1 + ((h >>> 8) % 9)) % 10]!;
  }
  return heard;
}

/** Each fault's transform of the words heard. */
export const HEARING_FAULT_TRANSFORMS: Record<
  HearingFault,
  (words: readonly string[]) => string[]
> = {
  'swap-digit': swapDigit,
};

/** What the oracle hears of `said`: its recognizer words, through `fault` when one is given. */
export function oracleHears(said: string, fault?: HearingFault): string {
  const words = recognizerWords(said);
  return (fault ? HEARING_FAULT_TRANSFORMS[fault](words) : words).join(' ');
}
