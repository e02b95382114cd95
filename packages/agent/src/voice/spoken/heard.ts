/**
 * Written values from what a recognizer heard (lowercase words, no
 * punctuation): amounts, spelled codes, flight numbers, dates, ids and
 * emails. Each `read*` function reads one value from `words[start..]` and
 * says where it ended; each `parseSpoken*` function reads a whole text.
 */
import { normalizeWords } from '../metrics/wer.js';
import {
  digitValue,
  isNumberWord,
  readNumberChunk,
  readNumberRun,
  readSignedNumber,
} from './numbers.js';
import { daysInMonth, MONTHS } from './say.js';

/** A value read from `words[start..end)`. */
export interface Read<T> {
  value: T;
  end: number;
}

/** A number with what it counts: "one hundred dollars" -> { value: 100, unit: 'USD' }. */
export interface SpokenAmount {
  value: number;
  /** 'USD', 'EUR', 'GBP', 'JPY' for money, 'percent', or the unit word as heard ("bags"). */
  unit?: string;
}

const CURRENCY_WORDS: Record<string, string> = {
  dollar: 'USD',
  dollars: 'USD',
  buck: 'USD',
  bucks: 'USD',
  euro: 'EUR',
  euros: 'EUR',
  pound: 'GBP',
  pounds: 'GBP',
  yen: 'JPY',
};
const MINOR_WORDS = new Set(['cent', 'cents', 'penny', 'pence']);
const NOT_UNITS = new Set([
  'and',
  'or',
  'to',
  'the',
  'a',
  'of',
  'at',
  'on',
  'in',
  'for',
  'is',
  'point',
]);

/**
 * An amount from `words[start..]`: "twelve dollars and fifty cents" -> 12.5
 * USD, "fifty cents" -> 0.5 USD, "minus twenty dollars" -> -20 USD,
 * "fifteen percent" -> 15 percent, "two bags" -> 2 bags. With `withUnit`
 * false, a number followed by any other word is read without it.
 */
export function readAmount(
  words: readonly string[],
  start: number,
  withUnit = true,
): Read<SpokenAmount> | undefined {
  const number = readSignedNumber(words, start);
  if (!number || number.ordinal) return undefined;
  let i = number.end;
  let value = number.value;
  let scale = 1;
  // "two point five million dollars": the scale was read as part of the chunk unless a point came before it
  const next = words[i];
  if (next === 'million' || next === 'billion' || next === 'thousand') {
    scale = next === 'thousand' ? 1e3 : next === 'million' ? 1e6 : 1e9;
    i++;
  }
  value *= scale;
  const unitWord = words[i];
  if (unitWord === undefined) return { value: { value }, end: i };
  const currency = CURRENCY_WORDS[unitWord];
  if (currency) {
    i++;
    if (words[i] === 'and' && currency !== 'JPY') {
      const cents = readNumberChunk(words, i + 1);
      if (cents && MINOR_WORDS.has(words[cents.end] ?? '') && cents.value < 100) {
        const sign = value < 0 ? -1 : 1;
        value = Math.round((value + (sign * cents.value) / 100) * 100) / 100;
        i = cents.end + 1;
      }
    }
    return { value: { value, unit: currency }, end: i };
  }
  if (MINOR_WORDS.has(unitWord)) {
    return {
      value: { value: value / 100, unit: unitWord.startsWith('pen') ? 'GBP' : 'USD' },
      end: i + 1,
    };
  }
  if (unitWord === 'percent' || (unitWord === 'per' && words[i + 1] === 'cent')) {
    return { value: { value, unit: 'percent' }, end: unitWord === 'per' ? i + 2 : i + 1 };
  }
  if (
    withUnit &&
    /^[a-z]+$/.test(unitWord) &&
    !NOT_UNITS.has(unitWord) &&
    !isNumberWord(unitWord)
  ) {
    return { value: { value, unit: unitWord }, end: i + 1 };
  }
  return { value: { value }, end: i };
}

/** The amount a whole text says ({@link readAmount}), or undefined. */
export function parseSpokenAmount(text: string): SpokenAmount | undefined {
  const words = normalizeWords(text);
  const read = readAmount(words, 0);
  return read && read.end === words.length ? read.value : undefined;
}

/** NATO alphabet words and the letters they spell. */
export const NATO_ALPHABET: Record<string, string> = {
  alpha: 'A',
  alfa: 'A',
  bravo: 'B',
  charlie: 'C',
  delta: 'D',
  echo: 'E',
  foxtrot: 'F',
  golf: 'G',
  hotel: 'H',
  india: 'I',
  juliet: 'J',
  juliett: 'J',
  kilo: 'K',
  lima: 'L',
  mike: 'M',
  november: 'N',
  oscar: 'O',
  papa: 'P',
  quebec: 'Q',
  romeo: 'R',
  sierra: 'S',
  tango: 'T',
  uniform: 'U',
  victor: 'V',
  whiskey: 'W',
  whisky: 'W',
  xray: 'X',
  yankee: 'Y',
  zulu: 'Z',
};

/** Letter names a recognizer may print instead of the letter. */
const LETTER_NAMES: Record<string, string> = {
  bee: 'B',
  cee: 'C',
  dee: 'D',
  ee: 'E',
  ef: 'F',
  eff: 'F',
  gee: 'G',
  aitch: 'H',
  jay: 'J',
  kay: 'K',
  el: 'L',
  ell: 'L',
  em: 'M',
  en: 'N',
  pee: 'P',
  cue: 'Q',
  ar: 'R',
  es: 'S',
  ess: 'S',
  tee: 'T',
  vee: 'V',
  ex: 'X',
  zee: 'Z',
  zed: 'Z',
};

/** The letter `word` spells (a single letter, a NATO word or a letter name), or undefined. */
export function spelledLetter(word: string): string | undefined {
  if (/^[a-z]$/.test(word)) return word.toUpperCase();
  return NATO_ALPHABET[word] ?? LETTER_NAMES[word];
}

/**
 * A spelled code from `words[start..]`: letters (single letters, NATO words,
 * letter names), digits ("zero", "oh"), "double"/"triple" before a letter
 * or digit, "x as in xray", and number words said in pairs ("h a t one ten"
 * -> "HAT110"). Undefined if no character was read.
 */
export function readCode(words: readonly string[], start: number): Read<string> | undefined {
  let i = start;
  let code = '';
  while (i < words.length) {
    const word = words[i]!;
    const repeat = word === 'double' ? 2 : word === 'triple' ? 3 : 0;
    const target = repeat > 0 ? (words[i + 1] ?? '') : word;
    const letter = spelledLetter(target);
    const digit = digitValue(target);
    if (repeat > 0 && (letter !== undefined || digit !== undefined)) {
      code += (letter ?? String(digit)).repeat(repeat);
      i += 2;
    } else if (letter !== undefined) {
      code += letter;
      i++;
      if (letter === 'X' && words[i] === 'ray') i++; // "x ray", as "x-ray" is heard
      if (
        words[i] === 'as' &&
        words[i + 1] === 'in' &&
        spelledLetter(words[i + 2] ?? '') === letter
      ) {
        i += 3;
      }
    } else if (/^[a-z0-9]*\d[a-z0-9]*$/.test(word) && /[a-z]/.test(word)) {
      // a recognizer that prints the code as one token ("m05knl")
      code += word.toUpperCase();
      i++;
    } else if (
      (isNumberWord(word) || /^\d+$/.test(word)) &&
      word !== 'hundred' &&
      !/^(thousand|million|billion)/.test(word)
    ) {
      const run = readNumberRun(words, i);
      if (!run || run.ordinal) break;
      code += run.digits;
      i = run.end;
    } else {
      break;
    }
  }
  return code === '' ? undefined : { value: code, end: i };
}

/** A spelled code from a whole text: "m zero five k n l" -> "M05KNL", "mike zero five kilo november lima" too. */
export function parseSpokenCode(text: string): string | undefined {
  const words = normalizeWords(text);
  const read = readCode(words, 0);
  return read && read.end === words.length ? read.value : undefined;
}

/** The 1-based month a heard word names, or undefined. */
function monthOf(word: string | undefined): number | undefined {
  if (word === undefined) return undefined;
  const index = MONTHS.findIndex((m) => m.toLowerCase() === word);
  return index < 0 ? undefined : index + 1;
}

/** A day of the month (1-31), cardinal or ordinal, from `words[start..]`. */
function readDay(words: readonly string[], start: number): Read<number> | undefined {
  const chunk = readNumberChunk(words, start);
  if (!chunk || chunk.value < 1 || chunk.value > 31 || !Number.isInteger(chunk.value))
    return undefined;
  return { value: chunk.value, end: chunk.end };
}

/** A four-digit year from `words[start..]`: "twenty twenty four", "two thousand five", "nineteen oh five". */
function readYear(words: readonly string[], start: number): Read<number> | undefined {
  const run = readNumberRun(words, start, 3);
  if (!run || run.ordinal || run.value < 1000 || run.value > 2999 || run.digits.length !== 4)
    return undefined;
  return { value: run.value, end: run.end };
}

/**
 * A date from `words[start..]` as ISO `YYYY-MM-DD`: "may twenty fourth
 * [twenty twenty four]" or "the twenty fourth of may [twenty twenty four]";
 * without a year said, `referenceYear` (undefined if none is given).
 */
export function readDate(
  words: readonly string[],
  start: number,
  referenceYear?: number,
): Read<string> | undefined {
  let i = start;
  let month = monthOf(words[i]);
  let day: Read<number> | undefined;
  if (month !== undefined) {
    i++;
    if (words[i] === 'the') i++;
    day = readDay(words, i);
  } else {
    if (words[i] === 'the') i++;
    day = readDay(words, i);
    if (!day) return undefined;
    let j = day.end;
    if (words[j] === 'of') j++;
    month = monthOf(words[j]);
    if (month === undefined) return undefined;
    day = { value: day.value, end: j + 1 };
  }
  if (!day) return undefined;
  i = day.end;
  const year = readYear(words, i);
  const y = year?.value ?? referenceYear;
  if (y === undefined || day.value > daysInMonth(y, month)) return undefined;
  const iso = `${String(y).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day.value).padStart(2, '0')}`;
  return { value: iso, end: year ? year.end : i };
}

/** A whole text as an ISO date ({@link readDate}): "may twenty fourth" with 2024 -> "2024-05-24". */
export function parseSpokenDate(text: string, referenceYear?: number): string | undefined {
  const words = normalizeWords(text);
  const read = readDate(words, 0, referenceYear);
  return read && read.end === words.length ? read.value : undefined;
}

const JOINERS: Record<string, string> = { underscore: '_', dash: '-', hyphen: '-', dot: '.' };

/**
 * The characters of one piece of an id or address: number words become
 * digits, a spelled letter stays a lowercase letter, other words are kept.
 */
function readPiece(
  words: readonly string[],
  start: number,
  stop: (w: string) => boolean,
): Read<string> {
  let i = start;
  let out = '';
  while (i < words.length && !stop(words[i]!)) {
    const word = words[i]!;
    if (isNumberWord(word) || /^\d+$/.test(word) || word === 'double' || word === 'triple') {
      const run = readNumberRun(words, i);
      if (run && !run.ordinal) {
        out += run.digits;
        i = run.end;
        continue;
      }
    }
    out += word;
    i++;
  }
  return { value: out, end: i };
}

/**
 * Words read as characters: a word of `symbols` is its symbol, the pieces between them are
 * read by {@link readPiece}.
 */
function readSymbolsAndPieces(
  words: readonly string[],
  symbols: Readonly<Record<string, string>>,
): string {
  let out = '';
  let i = 0;
  while (i < words.length) {
    const symbol = symbols[words[i]!];
    if (symbol !== undefined) {
      out += symbol;
      i++;
      continue;
    }
    const piece = readPiece(words, i, (w) => w in symbols);
    out += piece.value;
    i = piece.end;
  }
  return out;
}

/**
 * An id said with "underscore" (or "dash", "dot") between its pieces:
 * "aarav underscore garcia underscore one one seven seven" ->
 * "aarav_garcia_1177". Digits may also be said in pairs ("eleven seventy
 * seven"). Lowercase; undefined if no joiner was said.
 */
export function parseSpokenId(text: string): string | undefined {
  const words = normalizeWords(text);
  if (!words.some((w) => w === 'underscore')) return undefined;
  return readSymbolsAndPieces(words, JOINERS);
}

/**
 * An email address: "jo dot smith at example dot com" -> "jo.smith@example.com".
 * The at sign is the last "at" followed by a host ("name dot tld");
 * "dot", "underscore", "dash" and "plus" are symbols; number words are
 * digits. Undefined without such an "at".
 */
export function parseSpokenEmail(text: string): string | undefined {
  const words = normalizeWords(text);
  const symbols: Record<string, string> = { ...JOINERS, plus: '+' };
  const part = (slice: readonly string[]): string => readSymbolsAndPieces(slice, symbols);
  // the last "at" that leaves a host after it ("jo at at dot com": the host is "at.com")
  for (let at = words.lastIndexOf('at'); at > 0; at = words.lastIndexOf('at', at - 1)) {
    const local = part(words.slice(0, at));
    const domain = part(words.slice(at + 1));
    if (local !== '' && /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain)) return `${local}@${domain}`;
  }
  return undefined;
}
