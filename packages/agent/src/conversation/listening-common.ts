/**
 * Helpers shared by the listening policies (the audio-mode scripted agent and
 * user): what a bot heard (the user messages of its context are the
 * recognizer's transcripts), values in heard text, how close two values are,
 * and plain spoken sentences for tool calls and tool results (no JSON,
 * brackets or underscores).
 */
import { editDistance, isJsonObject } from '@scenaro/sdk/util';
import { extractEntities } from '../voice/spoken/entities.js';
import type { SpokenEntity, SpokenEntityKind } from '../voice/spoken/entities.js';
import { spelledLetter } from '../voice/spoken/heard.js';
import { digitValue, isNumberWord, readNumberRun } from '../voice/spoken/numbers.js';
import { normalizeWords as heardWords } from '../voice/metrics/wer.js';
import type { ContextMessage } from './context.js';

// The listening policies import it from here.
export { editDistance };

/** The year dates said without one are read in (the tau2 domains are set in 2024). */
export const REFERENCE_YEAR = 2024;

/** How either listening policy asks the other side to say its last words again. */
export const ASK_TO_REPEAT = "Sorry, I didn't catch that. Could you say it again?";

/** The other side asks to hear the last thing said again. */
export const ASKS_REPEAT =
  /\b(didn'?t (catch|get|hear)|say (that|it) again|repeat|pardon|come again)\b/i;

/** The text of every user message of the context, oldest first (in audio mode: what the recognizer heard). */
export function heardTexts(messages: readonly ContextMessage[]): string[] {
  return messages.filter((m) => m.role === 'user').map((m) => m.content);
}

/** The last user message (what was heard last). */
export function lastHeard(messages: readonly ContextMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === 'user') return m.content;
  }
  return '';
}

/** Messages since the last user message. */
export function sinceLastUser(messages: readonly ContextMessage[]): ContextMessage[] {
  let i = messages.length - 1;
  while (i >= 0 && messages[i]?.role !== 'user') i--;
  return messages.slice(i + 1);
}

/** Compare values as written, ignoring case and anything but letters and digits. */
export function sameValue(a: string, b: string): boolean {
  return canonical(a) === canonical(b);
}

export function canonical(value: string): string {
  return value.toLowerCase().replace(/[^a-z0-9@._]/g, '');
}

/** Words a recognizer prints for a digit said inside a spelled run ("three romeo kilo to tango"), not at its edge. */
const DIGIT_SOUNDALIKES: Record<string, string> = {
  to: '2',
  too: '2',
  for: '4',
  won: '1',
  ate: '8',
};
/** Recognizer variants of spelling-alphabet words. */
const LETTER_SOUNDALIKES: Record<string, string> = { indian: 'I', alfa: 'A', juliette: 'J' };

/** Whether a word spells a letter or says a digit. */
function spelledChar(word: string | undefined): boolean {
  return word !== undefined && (letterOf(word) !== undefined || digitValue(word) !== undefined);
}

/** The letter a word spells, with recognizer variants. */
function letterOf(word: string): string | undefined {
  return spelledLetter(word) ?? LETTER_SOUNDALIKES[word];
}

/**
 * Ids said letter by letter with "underscore" between the pieces ("a a r a v
 * underscore g a r c i a underscore one one seven seven"), which
 * {@link extractEntities} reads one word per piece only.
 */
export function spelledIds(heard: string): string[] {
  const words = heardWords(heard);
  const found: string[] = [];
  const pieceAt = (start: number, step: 1 | -1): { text: string; next: number } => {
    const parts: string[] = [];
    let k = start;
    while (k >= 0 && k < words.length) {
      const w = words[k]!;
      const letter = letterOf(w);
      const inside = parts.length > 0 && spelledChar(words[k + step]);
      const digit = digitValue(w) ?? (inside ? DIGIT_SOUNDALIKES[w] : undefined);
      if (letter !== undefined) parts.push(letter.toLowerCase());
      else if (digit !== undefined) parts.push(String(digit));
      else break;
      k += step;
    }
    if (step === -1) parts.reverse();
    return { text: parts.join(''), next: k };
  };
  for (let i = 0; i < words.length; i++) {
    if (words[i] !== 'underscore') continue;
    const left = pieceAt(i - 1, -1);
    if (left.text.length < 2) continue;
    let id = left.text;
    let k = i;
    while (words[k] === 'underscore') {
      const right = pieceAt(k + 1, 1);
      if (right.text === '') break;
      id += `_${right.text}`;
      k = right.next;
    }
    if (id.includes('_')) found.push(id);
    i = k;
  }
  return found;
}

/** A code spelled as a run of letters and digits anywhere in heard text ("m zero five k n l"). */
export function spelledCodes(heard: string): string[] {
  const words = heardWords(heard);
  const found: string[] = [];
  let code = '';
  const flush = () => {
    if (code.length >= 4 && /\d/.test(code) && /[A-Z]/.test(code)) found.push(code);
    code = '';
  };
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === 'x' && words[i + 1] === 'ray') {
      code += 'X';
      i++;
      continue;
    }
    const letter = letterOf(w);
    if (letter !== undefined && (w.length === 1 || w.length > 2)) {
      code += letter;
      continue;
    }
    if (code !== '' && DIGIT_SOUNDALIKES[w] !== undefined && spelledChar(words[i + 1])) {
      code += DIGIT_SOUNDALIKES[w];
      continue;
    }
    if (isNumberWord(w)) {
      const run = readNumberRun(words, i);
      if (run && !run.ordinal) {
        code += run.digits;
        i = run.end - 1;
        continue;
      }
    }
    flush();
  }
  flush();
  return found;
}

/** The kind of value a planned argument is, for what must be heard. */
export type ValueKind = 'id' | 'code' | 'email' | 'name' | 'amount';

/** What an argument value must be heard as, or undefined when it need not be heard (words, dates, flags, flight numbers). */
export function valueKindOf(key: string, value: unknown): ValueKind | undefined {
  if (typeof value === 'number') {
    return /amount|price|refund|total|balance/i.test(key) ? 'amount' : undefined;
  }
  if (typeof value !== 'string' || value === '') return undefined;
  if (/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i.test(value)) return 'email';
  if (/^[a-z]+(_[a-z0-9]+)+$/i.test(value) && /\d/.test(value)) return 'id';
  if (/^#?[A-Z0-9]{5,10}$/.test(value) && /\d/.test(value) && /[A-Z]/.test(value)) {
    return /^[A-Z]{3}\d{1,4}$/.test(value) ? undefined : 'code';
  }
  if (/^#[A-Z]?\d{5,}$/.test(value)) return 'code';
  if (/(^|_)(first_|last_)?name$/i.test(key) && /^[A-Za-z][A-Za-z' -]*$/.test(value)) return 'name';
  return undefined;
}

/**
 * Heard text with digit soundalikes between digits read as digits ("nine
 * eight to eight" -> "nine eight two eight") and "underscored" as "underscore".
 */
export function withHeardDigits(heard: string): string {
  const words = heardWords(heard);
  const isDigit = (w: string | undefined) => w !== undefined && digitValue(w) !== undefined;
  return words
    .map((w, i) => {
      if (w === 'underscored' || w === 'underscores') return 'underscore';
      const digit = DIGIT_SOUNDALIKES[w];
      if (digit === undefined || !isDigit(words[i - 1]) || !isDigit(words[i + 1])) return w;
      return digitWordOf[digit] ?? w;
    })
    .join(' ');
}
const digitWordOf: Record<string, string> = { '1': 'one', '2': 'two', '4': 'four', '8': 'eight' };

/** Values of one kind found in heard text, as written values (for names: every word but number words). */
export function heardValues(heardText: string, kind: ValueKind): string[] {
  if (kind === 'name') {
    // Any word may be a name, but not a number word ("seven" is no "Kevin").
    return heardWords(heardText).filter((w) => /^[a-z]{2,}$/.test(w) && !isNumberWord(w));
  }
  const heard = withHeardDigits(heardText);
  const entities: SpokenEntity[] = extractEntities(heard, { referenceYear: REFERENCE_YEAR });
  const kinds: Record<ValueKind, SpokenEntityKind[]> = {
    id: ['id'],
    code: ['code', 'flight'],
    email: ['email'],
    amount: ['amount', 'number'],
    name: [],
  };
  const values = entities.filter((e) => kinds[kind].includes(e.kind)).map((e) => String(e.value));
  if (kind === 'id') values.push(...spelledIds(heard));
  if (kind === 'code') values.push(...spelledCodes(heard));
  return [...new Set(values)];
}

/**
 * The heard value of `kind` closest to `planned`, over every heard text; for
 * names a heard or spelled word within 40 % of its letters of it counts (and
 * is capitalized). Undefined when none of that kind was heard.
 */
export function closestHeard(
  texts: readonly string[],
  kind: ValueKind,
  planned: string,
  rejected: ReadonlySet<string> = new Set(),
): string | undefined {
  const target = canonical(planned.replace(/^#/, ''));
  let best: { value: string; distance: number } | undefined;
  for (const text of texts) {
    let values = heardValues(text, kind);
    if (kind === 'name') {
      // A name is any heard (or spelled) word close enough to the planned one.
      const spelled = spelledWord(text);
      values = [...values, ...(spelled ? [spelled] : [])].filter(
        (v) => editDistance(canonical(v), target) <= Math.floor(0.4 * target.length),
      );
    }
    for (const value of values) {
      if (rejected.has(canonical(value))) continue;
      const distance = editDistance(canonical(value.replace(/^#/, '')), target);
      if (!best || distance <= best.distance) best = { value, distance };
    }
  }
  if (!best) return undefined;
  if (kind === 'amount') return best.value;
  if (kind === 'code' && planned.startsWith('#') && !best.value.startsWith('#')) {
    return `#${best.value}`;
  }
  if (kind === 'name') return best.value.charAt(0).toUpperCase() + best.value.slice(1);
  return kind === 'code' ? best.value.toUpperCase() : best.value.toLowerCase();
}

/** A word spelled letter by letter ("g a r c i a" -> "garcia"), the longest run in the text. */
export function spelledWord(heard: string): string | undefined {
  let best = '';
  let run = '';
  for (const w of heardWords(heard)) {
    const letter = w.length === 1 || w.length > 2 ? spelledLetter(w) : undefined;
    if (letter !== undefined) run += letter.toLowerCase();
    else run = '';
    if (run.length > best.length) best = run;
  }
  return best.length >= 2 ? best : undefined;
}

/** Whether `value` appears in the content of any tool result of the context. */
export function foundInResults(messages: readonly ContextMessage[], value: string): boolean {
  const needle = value.toLowerCase();
  return messages.some((m) => m.role === 'tool' && m.content.toLowerCase().includes(needle));
}

/** The error of a tool result, when it is one. */
export function resultError(content: string): string | undefined {
  try {
    const parsed = JSON.parse(content) as unknown;
    if (isJsonObject(parsed)) {
      const error = parsed['error'];
      if (typeof error === 'string') return error;
      if (error !== undefined) return 'the request failed';
      if (parsed['code'] !== undefined && parsed['data']) {
        return 'the request was not carried out';
      }
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** Text a person says: no brackets, braces, quotes or underscores; single spaces. */
export function plainSpeech(text: string): string {
  return text
    .replace(/[{}[\]"`\\|<>*#]/g, ' ')
    .replace(/_/g, ' ')
    .replace(/\s+([,.?!])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** An argument or field name as words: `reservation_id` -> "reservation number". */
export function keyWords(key: string): string {
  if (key === 'payment_id') return 'payment method';
  if (key === 'user_id') return 'user id';
  return key
    .replace(/_id$/, ' number')
    .replace(/^num_/, 'number of ')
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .trim();
}

/** Words that say yes or no in heard text. */
const YES =
  /\b(yes|yeah|yep|yup|sure|correct|right|okay|ok|please do|go ahead|confirm|confirmed|absolutely|definitely|proceed)\b/;
const NO = /\b(no|nope|not|wrong|incorrect|don't|dont|wait|actually)\b/;

/** Whether heard text says yes (true), no (false) or neither (undefined). */
export function heardAnswer(heard: string): boolean | undefined {
  const text = heard.toLowerCase();
  const no = NO.test(text);
  const yes = YES.test(text);
  if (no && (!yes || /^\W*(no|nope)\b/.test(text) || /\bnot (right|correct)\b/.test(text)))
    return false;
  if (yes) return true;
  return undefined;
}
