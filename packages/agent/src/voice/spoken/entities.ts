/**
 * Candidate values in what a recognizer heard: the lowercase words without
 * punctuation that PocketSphinx prints. Emails and ids are found first (by
 * their "at ... dot" and "underscore"), then, left to right, dates, times, spelled
 * codes and flight numbers, phone numbers, amounts and plain numbers.
 */
import { readAmount, readCode, readDate, parseSpokenEmail, parseSpokenId } from './heard.js';
import { digitValue, isNumberWord, readNumberRun } from './numbers.js';
import { normalizeWords } from '../metrics/wer.js';
import { readTime } from './heard-time.js';

/** What kind of value an entity is. */
export type SpokenEntityKind =
  'email' | 'id' | 'date' | 'time' | 'code' | 'flight' | 'phone' | 'amount' | 'number';

/** One value found in heard text. */
export interface SpokenEntity {
  kind: SpokenEntityKind;
  /** The written value: a string for emails, ids, ISO dates, `HH:MM` times, codes, flights and phones; a number otherwise. */
  value: string | number;
  /** For amounts: 'USD', 'EUR', 'GBP', 'JPY' or 'percent'. */
  unit?: string;
  /** The words it was read from. */
  text: string;
  /** Word index of its first word in the heard words. */
  start: number;
  /** Word index after its last word. */
  end: number;
}

/** Choices for {@link extractEntities}. */
export interface ExtractEntitiesOptions {
  /** The year of a date said without one; without it such dates are not found. */
  referenceYear?: number;
}

const ADDRESS_SYMBOLS = new Set(['dot', 'underscore', 'dash', 'hyphen', 'plus']);
const MIN_CODE_LENGTH = 4;

/** The start of the piece of an address or id that ends just before `end`. */
function pieceStart(words: readonly string[], end: number): number {
  let k = end;
  while (k > 0 && isNumberWord(words[k - 1]!)) k--;
  if (k === end && k > 0) k--;
  return k;
}

/** The end of the piece of an address or id that starts at `start`. */
function pieceEnd(words: readonly string[], start: number): number {
  let k = start;
  if (k < words.length && !isNumberWord(words[k]!) && !ADDRESS_SYMBOLS.has(words[k]!)) k++;
  while (k < words.length && isNumberWord(words[k]!)) k++;
  return k;
}

/** The emails in `words`: a word piece, "at", then "host dot tld" pieces. */
function findEmails(words: readonly string[]): SpokenEntity[] {
  const found: SpokenEntity[] = [];
  words.forEach((word, at) => {
    if (word !== 'at' || at === 0 || words[at + 2] !== 'dot') return;
    let end = at + 2;
    while (words[end] === 'dot' && end + 1 < words.length) end += 2;
    let start = pieceStart(words, at);
    while (start >= 2 && ADDRESS_SYMBOLS.has(words[start - 1]!))
      start = pieceStart(words, start - 1);
    const text = words.slice(start, end).join(' ');
    const value = parseSpokenEmail(text);
    if (value) found.push({ kind: 'email', value, text, start, end });
  });
  return found;
}

/** The ids in `words` not already `taken`: pieces joined by "underscore". */
function findIds(words: readonly string[], taken: boolean[]): SpokenEntity[] {
  const found: SpokenEntity[] = [];
  let i = 0;
  while (i < words.length) {
    if (words[i] !== 'underscore' || taken[i] || i === 0) {
      i++;
      continue;
    }
    const start = pieceStart(words, i);
    let end = i;
    while (words[end] === 'underscore' && end + 1 < words.length) end = pieceEnd(words, end + 1);
    const text = words.slice(start, end).join(' ');
    const value = parseSpokenId(text);
    if (value && end > i + 1) found.push({ kind: 'id', value, text, start, end });
    i = Math.max(end, i + 1);
  }
  return found;
}

/** Whether words[start..end) were all said digit by digit. */
function saidDigitByDigit(words: readonly string[], start: number, end: number): boolean {
  for (let k = start; k < end; k++) if (digitValue(words[k]!) === undefined) return false;
  return true;
}

/** The date, code, flight, phone, amount or number starting at `words[i]`, if any. */
function readAt(
  words: readonly string[],
  i: number,
  options: ExtractEntitiesOptions,
): SpokenEntity | undefined {
  const make = (
    kind: SpokenEntityKind,
    value: string | number,
    end: number,
    unit?: string,
  ): SpokenEntity => ({
    kind,
    value,
    ...(unit === undefined ? {} : { unit }),
    text: words.slice(i, end).join(' '),
    start: i,
    end,
  });
  const date = readDate(words, i, options.referenceYear);
  if (date) return make('date', date.value, date.end);
  const time = readTime(words, i, true);
  const code = readCode(words, i);
  // "one a m zero zero zero a" is a code that starts like a time: the longer reading wins
  const codeFirst = code && (!time || (code.end > time.end && code.value.length >= 5));
  if (time && !codeFirst) return make('time', time.value, time.end);
  if (code && /[A-Z]/.test(code.value) && (code.end > i + 1 || /\d/.test(words[i]!))) {
    if (/^[A-Z]{2,3}\d{1,4}$/.test(code.value)) return make('flight', code.value, code.end);
    if (code.value.length >= MIN_CODE_LENGTH && (/\d/.test(code.value) || code.value.length >= 5)) {
      return make('code', code.value, code.end);
    }
  }
  if (time) return make('time', time.value, time.end);
  const run = readNumberRun(words, i);
  if (run && saidDigitByDigit(words, i, run.end)) {
    const digits = run.digits;
    if (digits.length === 10 || (digits.length === 11 && digits.startsWith('1'))) {
      return make('phone', digits, run.end);
    }
  }
  const amount = readAmount(words, i, false);
  if (amount) {
    const unit = amount.value.unit;
    if (unit !== undefined) return make('amount', amount.value.value, amount.end, unit);
    return make('number', amount.value.value, amount.end);
  }
  return undefined;
}

/**
 * The values in `heard` (a recognizer's lowercase words, punctuation
 * ignored), in order, none overlapping: emails, ids, dates (ISO; a date
 * without a year needs `referenceYear`), times said with AM/PM or "o'clock"
 * (`HH:MM`), spelled codes (at least four
 * characters, with a digit or at least five letters), flight numbers
 * (two or three letters and a number), phone numbers (ten or eleven digits
 * said one by one), amounts (money or percent) and numbers.
 */
export function extractEntities(
  heard: string,
  options: ExtractEntitiesOptions = {},
): SpokenEntity[] {
  const words = normalizeWords(heard);
  const taken: boolean[] = words.map(() => false);
  const take = (entities: SpokenEntity[]): SpokenEntity[] => {
    const kept = entities.filter((e) => !taken.slice(e.start, e.end).some(Boolean));
    for (const e of kept) for (let k = e.start; k < e.end; k++) taken[k] = true;
    return kept;
  };
  const found = [...take(findEmails(words))];
  found.push(...take(findIds(words, taken)));
  let i = 0;
  while (i < words.length) {
    if (taken[i]) {
      i++;
      continue;
    }
    const entity = readAt(words, i, options);
    if (entity && !taken.slice(entity.start, entity.end).some(Boolean)) {
      found.push(...take([entity]));
      i = entity.end;
    } else {
      i++;
    }
  }
  return found.sort((a, b) => a.start - b.start);
}
