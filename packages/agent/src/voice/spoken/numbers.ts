/**
 * Numbers as words and back: cardinals, ordinals, years, flight-number
 * pairs and digit-by-digit readings, and a reader that turns the number words
 * a recognizer prints (lowercase, no punctuation) back into values and digit
 * strings.
 */
import { normalizeWords } from '../metrics/wer.js';

const ONES = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
/** The digits in words, zero to nine. */
export const DIGIT_WORDS: readonly string[] = ONES.slice(0, 10);

const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const SCALES = ['', 'thousand', 'million', 'billion', 'trillion', 'quadrillion'];

/** Integers with more digits than this are read digit by digit. */
const MAX_CARDINAL_DIGITS = 18;

/** 0-99 in words, tens and units hyphenated. */
function below100(n: number): string {
  if (n < 20) return ONES[n]!;
  const tens = TENS[Math.floor(n / 10)]!;
  return n % 10 === 0 ? tens : `${tens}-${ONES[n % 10]!}`;
}

/** 0-999 in words. */
function below1000(n: number): string {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  if (hundreds === 0) return below100(rest);
  const head = `${ONES[hundreds]!} hundred`;
  return rest === 0 ? head : `${head} ${below100(rest)}`;
}

/** `digits` read one by one: `"0199"` -> `"zero one nine nine"`. Non-digits are skipped. */
export function digitWords(digits: string): string {
  return [...digits]
    .filter((c) => c >= '0' && c <= '9')
    .map((c) => ONES[Number(c)]!)
    .join(' ');
}

/**
 * A non-negative integer given as a digit string, in words without "and":
 * `"1234"` -> `"one thousand two hundred thirty-four"`. More than 18 digits
 * are read one by one.
 */
export function cardinalWords(digits: string): string {
  const clean = digits.replace(/\D/g, '').replace(/^0+(?=\d)/, '');
  if (clean === '') return 'zero';
  if (clean.length > MAX_CARDINAL_DIGITS) return digitWords(clean);
  const groups: number[] = [];
  for (let end = clean.length; end > 0; end -= 3) {
    groups.unshift(Number(clean.slice(Math.max(0, end - 3), end)));
  }
  const words: string[] = [];
  groups.forEach((group, i) => {
    if (group === 0) return;
    const scale = SCALES[groups.length - 1 - i]!;
    words.push(scale ? `${below1000(group)} ${scale}` : below1000(group));
  });
  return words.length === 0 ? 'zero' : words.join(' ');
}

const ORDINAL_IRREGULAR: Record<string, string> = {
  one: 'first',
  two: 'second',
  three: 'third',
  five: 'fifth',
  eight: 'eighth',
  nine: 'ninth',
  twelve: 'twelfth',
};

/** A cardinal's last word made ordinal: `"twenty-two"` -> `"twenty-second"`. */
function ordinalOf(cardinal: string): string {
  const match = /^(.*?)([a-z]+)$/.exec(cardinal);
  if (!match) return cardinal;
  const [, head, last] = match;
  const word = last!;
  const ordinal =
    ORDINAL_IRREGULAR[word] ?? (word.endsWith('y') ? `${word.slice(0, -1)}ieth` : `${word}th`);
  return `${head!}${ordinal}`;
}

/** An ordinal in words: `22` -> `"twenty-second"`. */
export function ordinalWords(n: number | string): string {
  return ordinalOf(cardinalWords(String(n)));
}

/**
 * A year as people say it: 2024 -> "twenty twenty-four", 2005 -> "two
 * thousand five", 1905 -> "nineteen oh five", 1900 -> "nineteen hundred".
 * Outside 1000-9999 it is a plain cardinal.
 */
export function yearWords(year: number): string {
  if (!Number.isInteger(year) || year < 1000 || year > 9999) return cardinalWords(String(year));
  const high = Math.floor(year / 100);
  const low = year % 100;
  if (high % 10 === 0 && low < 10) return cardinalWords(String(year));
  if (low === 0) return `${below100(high)} hundred`;
  if (low < 10) return `${below100(high)} oh ${ONES[low]!}`;
  return `${below100(high)} ${below100(low)}`;
}

/**
 * A number said in pairs, the way flight numbers are: "110" -> "one ten",
 * "1234" -> "twelve thirty-four", "305" -> "three oh five", "100" -> "one
 * hundred", "5" -> "five". A leading zero, or more than four digits, is read
 * digit by digit.
 */
export function pairedNumberWords(digits: string): string {
  if (!/^\d+$/.test(digits)) return digitWords(digits);
  if ((digits.length > 1 && digits.startsWith('0')) || digits.length > 4) {
    return digitWords(digits);
  }
  const n = Number(digits);
  if (digits.length <= 2) return below100(n);
  if (digits.length === 4) return yearWords(n);
  const low = n % 100;
  if (low === 0) return below1000(n);
  return `${ONES[Math.floor(n / 100)]!} ${low < 10 ? `oh ${ONES[low]!}` : below100(low)}`;
}

/**
 * A written decimal number in words: `"1,234.5"` -> "one thousand two
 * hundred thirty-four point five", `"-3"` -> "minus three", `".5"` -> "point
 * five". Digits after the point are read one by one.
 */
export function numberWords(text: string): string {
  const match = /^([-+\u2212]?)(\d[\d,]*)?(?:\.(\d+))?$/.exec(text.trim());
  if (!match || (match[2] === undefined && match[3] === undefined)) return digitWords(text);
  const [, sign, whole, fraction] = match;
  const parts: string[] = [];
  if (sign === '-' || sign === '\u2212') parts.push('minus');
  if (whole !== undefined) parts.push(cardinalWords(whole));
  if (fraction !== undefined) parts.push('point', digitWords(fraction));
  return parts.join(' ');
}

// ---------------------------------------------------------------------------
// Reading number words back

const UNIT_VALUES = new Map<string, number>(ONES.slice(0, 10).map((w, i) => [w, i]));
UNIT_VALUES.set('oh', 0);
const TEEN_VALUES = new Map<string, number>(ONES.slice(10).map((w, i) => [w, i + 10]));
const TENS_VALUES = new Map<string, number>(TENS.slice(2).map((w, i) => [w, (i + 2) * 10]));
const SCALE_VALUES = new Map<string, number>(SCALES.slice(1).map((w, i) => [w, 1000 ** (i + 1)]));

const ORDINAL_VALUES = new Map<string, number>();
for (let n = 1; n < 20; n++) ORDINAL_VALUES.set(ordinalWords(n), n);
for (let n = 20; n < 100; n += 10) ORDINAL_VALUES.set(ordinalWords(n), n);
ORDINAL_VALUES.set('hundredth', 100);
ORDINAL_VALUES.set('thousandth', 1000);

/** Whether `word` is a word a number may be said with ("double" and "point" included). */
export function isNumberWord(word: string): boolean {
  return (
    UNIT_VALUES.has(word) ||
    TEEN_VALUES.has(word) ||
    TENS_VALUES.has(word) ||
    SCALE_VALUES.has(word) ||
    ORDINAL_VALUES.has(word) ||
    word === 'hundred'
  );
}

/** Whether `word` is a single digit's word ("zero" to "nine", or "oh"). */
export function isDigitWord(word: string): boolean {
  return UNIT_VALUES.has(word);
}

/** The value of a single digit's word, or undefined. */
export function digitValue(word: string): number | undefined {
  return UNIT_VALUES.get(word);
}

/** One cardinal (or ordinal) read from words, ending where the next word cannot extend it. */
export interface NumberChunk {
  value: number;
  /** How it is written: "0" for "oh"/"zero", else the value's digits. */
  digits: string;
  /** Index after the last word used. */
  end: number;
  ordinal: boolean;
}

/**
 * Reads one number from `words[start..]`: "two thousand five hundred eighty"
 * is one chunk, "twelve thirty" is two ("twelve" cannot take "thirty").
 * "a hundred" counts as one hundred; "and" after "hundred" or a scale is
 * skipped when a number word follows.
 */
export function readNumberChunk(words: readonly string[], start: number): NumberChunk | undefined {
  let i = start;
  let total = 0;
  let current = 0;
  let lastScale = Infinity;
  let any = false;
  let small: 'none' | 'tens' | 'unit' | 'teen' = 'none'; // what the current 0-99 part holds
  let hasHundred = false;
  let ordinal = false;
  const first = words[i];
  if (first === undefined) return undefined;
  if (first === 'zero' || first === 'oh') {
    return { value: 0, digits: '0', end: i + 1, ordinal: false };
  }
  // A recognizer that prints digits: the token is one chunk.
  if (/^\d{1,15}$/.test(first)) {
    return { value: Number(first), digits: first, end: i + 1, ordinal: false };
  }
  if (first === 'a' && (words[i + 1] === 'hundred' || SCALE_VALUES.has(words[i + 1] ?? ''))) {
    current = 1;
    small = 'unit';
    any = true;
    i++;
  }
  for (; i < words.length && !ordinal; i++) {
    const word = words[i]!;
    const unit = UNIT_VALUES.get(word);
    const teen = TEEN_VALUES.get(word);
    const tens = TENS_VALUES.get(word);
    const scale = SCALE_VALUES.get(word);
    const ord = ORDINAL_VALUES.get(word);
    if (unit !== undefined && word !== 'oh' && unit > 0 && (small === 'none' || small === 'tens')) {
      current += unit;
      small = 'unit';
    } else if (teen !== undefined && small === 'none') {
      current += teen;
      small = 'teen';
    } else if (tens !== undefined && small === 'none') {
      current += tens;
      small = 'tens';
    } else if (word === 'hundred' && !hasHundred && current > 0 && current < 100) {
      current *= 100;
      hasHundred = true;
      small = 'none';
    } else if (scale !== undefined && scale < lastScale && current > 0) {
      total += current * scale;
      lastScale = scale;
      current = 0;
      hasHundred = false;
      small = 'none';
    } else if (word === 'and' && any && small === 'none' && isNumberWord(words[i + 1] ?? '')) {
      continue;
    } else if (
      ord !== undefined &&
      ord < 100 &&
      (small === 'none' || (small === 'tens' && ord < 10))
    ) {
      current += ord;
      ordinal = true;
    } else if (
      (ord === 100 && current > 0 && current < 100 && !hasHundred) ||
      (ord === 1000 && current > 0)
    ) {
      current *= ord;
      ordinal = true;
    } else {
      break;
    }
    any = true;
  }
  if (!any) return undefined;
  const value = total + current;
  return { value, digits: String(value), end: i, ordinal };
}

/** A run of number words read as one value or one digit string. */
export interface NumberRun {
  /** The digits, concatenated chunk by chunk ("one one seven seven" -> "1177", "oh five" -> "05"). */
  digits: string;
  /** The value: one chunk's value, or the concatenated digits' value. */
  value: number;
  /** Index after the last word used. */
  end: number;
  /** How many chunks were read. */
  chunks: number;
  /** Whether the last chunk was an ordinal ("twenty fourth"). */
  ordinal: boolean;
}

/**
 * Reads consecutive number chunks from `words[start..]` and concatenates
 * them: "twelve thirty four" -> 1234, "nineteen oh five" -> 1905, "double
 * five" -> "55", "triple seven" -> "777". Stops after an ordinal or after
 * `maxChunks`.
 */
export function readNumberRun(
  words: readonly string[],
  start: number,
  maxChunks = Infinity,
): NumberRun | undefined {
  let i = start;
  let digits = '';
  let chunks = 0;
  let ordinal = false;
  let single: number | undefined;
  while (i < words.length && chunks < maxChunks && !ordinal) {
    const word = words[i]!;
    const repeat = word === 'double' ? 2 : word === 'triple' ? 3 : 0;
    if (repeat > 0) {
      const digit = UNIT_VALUES.get(words[i + 1] ?? '');
      if (digit === undefined) break;
      digits += String(digit).repeat(repeat);
      single = undefined;
      chunks++;
      i += 2;
      continue;
    }
    const chunk = readNumberChunk(words, i);
    if (!chunk) break;
    digits += chunk.digits;
    single = chunks === 0 ? chunk.value : undefined;
    ordinal = chunk.ordinal;
    chunks++;
    i = chunk.end;
  }
  if (chunks === 0) return undefined;
  const value = chunks === 1 && single !== undefined ? single : Number(digits);
  return { digits, value, end: i, chunks, ordinal };
}

/**
 * The number said by `text`: "two thousand five hundred eighty" -> 2580,
 * "minus twenty" -> -20, "one point five" -> 1.5, "one one seven seven" ->
 * 1177. Undefined unless the whole text is a number.
 */
export function parseSpokenNumber(text: string): number | undefined {
  const words = normalizeWords(text);
  const read = readSignedNumber(words, 0);
  return read && read.end === words.length ? read.value : undefined;
}

/**
 * A number with an optional "minus"/"negative" before it and "point ..."
 * after it, read from `words[start..]`.
 */
export function readSignedNumber(
  words: readonly string[],
  start: number,
): { value: number; end: number; ordinal: boolean } | undefined {
  let i = start;
  let sign = 1;
  if (words[i] === 'minus' || words[i] === 'negative') {
    sign = -1;
    i++;
  }
  let value = 0;
  let ordinal = false;
  const run = readNumberRun(words, i);
  if (run) {
    value = run.value;
    ordinal = run.ordinal;
    i = run.end;
  } else if (words[i] !== 'point') {
    return undefined;
  }
  if (!ordinal && words[i] === 'point') {
    let fraction = '';
    let j = i + 1;
    while (j < words.length && digitValue(words[j]!) !== undefined) {
      fraction += String(digitValue(words[j]!));
      j++;
    }
    const pair = fraction === '' ? readNumberChunk(words, j) : undefined;
    if (pair && pair.value < 100 && !pair.ordinal) {
      fraction = pair.digits;
      j = pair.end;
    }
    if (fraction !== '') {
      value = Number(`${run ? run.digits : '0'}.${fraction}`);
      i = j;
    } else if (!run) {
      return undefined;
    }
  }
  return { value: sign * value, end: i, ordinal };
}
