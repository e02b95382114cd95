/**
 * Entity accuracy of audio mode: of the values one bot said (ids, codes, emails, flight and phone
 * numbers, dates, times, amounts, numbers, and name-like words), how many the other bot's speech
 * to text heard as said. Both texts are read back to written values with `extractEntities` (the
 * spoken-form reader: "three r k two t nine" is `3RK2T9`), so a value counts as heard right when
 * the heard text holds the same written value, however either side worded it.
 *
 * - A date said without a year is kept without one (`--05-24`), so the year the reader would
 *   assume never decides a match.
 * - Name-like values are runs of capitalised words inside a sentence of what was said ("Anya
 *   Garcia", "San Francisco"): not a run that opens the sentence, nor months, weekdays or "I". A
 *   recognizer prints lowercase words, so a name is heard right when its words come in order in
 *   the heard words.
 * - Each value heard matches one value said (a value said twice and heard once counts once).
 *
 * @module
 */
import { extractEntities, NATO_ALPHABET, normalizeWords, toSpokenForm } from '@scenaro/agent/voice';
import type { SpokenEntity } from '@scenaro/agent/voice';
import type {
  AudioSegmentMetrics,
  EntityAccuracySide,
  HeardValueKind,
  MisheardValue,
} from './types.js';

export type { EntityAccuracySide, HeardValueKind, MisheardValue } from './types.js';

/** A value found in a text, as compared. */
export interface FoundValue {
  kind: HeardValueKind;
  /** The written value as shown (`3RK2T9`, `2024-05-24`, `--05-24`, `125.5 USD`, `Anya Garcia`). */
  value: string;
  /** What two values are compared by. */
  key: string;
  /** The name's lowercase words (names only). */
  words?: string[];
}

const NOT_NAMES = new Set([
  'i',
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
]);

const normal = (text: string): string => text.toLowerCase().replace(/[^a-z0-9@.%-]+/g, '');

function shown(entity: SpokenEntity, yearless: boolean): string {
  const value = String(entity.value);
  if (entity.kind === 'date' && yearless) return `--${value.slice(5)}`;
  if (entity.kind !== 'amount' || entity.unit === undefined) return value;
  return entity.unit === 'percent' ? `${value}%` : `${value} ${entity.unit}`;
}

const letterOf = (word: string): string | undefined =>
  /^[a-z]$/.test(word) ? word : NATO_ALPHABET[word]?.toLowerCase();

/**
 * Words with the letters spelled one by one next to an "underscore" (or around the "at" and "dot"
 * of an email) joined into one word: "a n y a underscore g a r c i a underscore five nine zero one"
 * reads as the id `anya_garcia_5901`. Elsewhere letters stay apart (a code's "m zero five k n l").
 */
export function joinSpelledPieces(words: readonly string[]): string[] {
  const email = words.some((w, i) => w === 'at' && words.slice(i + 1, i + 4).includes('dot'));
  const joins = new Set(email ? ['underscore', 'at', 'dot'] : ['underscore']);
  const out: string[] = [];
  let i = 0;
  while (i < words.length) {
    let j = i;
    let letters = '';
    for (let letter = letterOf(words[j] ?? ''); letter !== undefined;) {
      letters += letter;
      j += words[j] === 'x' && words[j + 1] === 'ray' ? 2 : 1;
      letter = j < words.length ? letterOf(words[j]!) : undefined;
    }
    if (j === i) out.push(words[i++]!);
    else {
      const touches = joins.has(words[i - 1] ?? '') || joins.has(words[j] ?? '');
      out.push(...(touches && letters.length >= 2 ? [letters] : words.slice(i, j)));
      i = j;
    }
  }
  return out;
}

/** The entities of one stretch of words, dates said without a year kept without one. */
function entitiesOf(words: readonly string[]): { entity: SpokenEntity; value: string }[] {
  const text = joinSpelledPieces(words).join(' ');
  // Read twice with different assumed years: a date whose year follows the assumption had none.
  const first = extractEntities(text, { referenceYear: 1904 });
  const second = extractEntities(text, { referenceYear: 2008 });
  return first.map((entity, i) => ({
    entity,
    value: shown(entity, entity.kind === 'date' && second[i]?.value !== entity.value),
  }));
}

/** The values of what a bot said, in its spoken form, read sentence by sentence. */
function saidValues(said: string): FoundValue[] {
  return toSpokenForm(said)
    .split(/(?<=[.!?;:])\s+/)
    .flatMap((sentence) => entitiesOf(normalizeWords(sentence)))
    .map(({ entity, value }) => ({ kind: entity.kind, value, key: normal(value) }));
}

/** A value heard, with the readings it also allows. */
interface HeardSlot {
  value: FoundValue;
  /** Keys it matches: its own, and its reading without a lone "i" or "a" glued to an edge. */
  keys: string[];
}

/**
 * The values of heard text. A recognizer prints no sentence ends, so a spelled value can run on
 * into the next sentence's "I" or "a" ("five nine zero one i could not" reads `5901I`): such a
 * value also matches its reading without that word.
 */
function heardSlots(heard: string): HeardSlot[] {
  return entitiesOf(normalizeWords(heard)).map(({ entity, value }) => {
    const keys = [normal(value)];
    const words = entity.text.split(' ');
    const lone = (w: string | undefined) => w === 'i' || w === 'a';
    if (words.length > 1 && (lone(words[0]) || lone(words[words.length - 1]))) {
      const inner = words.slice(
        lone(words[0]) ? 1 : 0,
        lone(words[words.length - 1]) ? -1 : undefined,
      );
      keys.push(...entitiesOf(inner).map((e) => normal(e.value)));
    }
    return { value: { kind: entity.kind, value, key: keys[0]! }, keys };
  });
}

/** Whether `word` is capitalised like a name: "Garcia", "O'Neil", "Jean-Luc". */
const NAME_WORD = /^[A-Z][a-z]+(?:['\u2019-][A-Za-z][a-z]*)*$/;

/** The name-like values of what was said: capitalised word runs that do not open a sentence. */
export function nameValues(said: string): FoundValue[] {
  const out: FoundValue[] = [];
  for (const sentence of said.split(/[.!?:;]+(?:\s+|$)|\n+/)) {
    let run: string[] = [];
    let opens = false;
    const flush = () => {
      if (run.length > 0 && !opens) {
        const words = normalizeWords(run.join(' '));
        out.push({ kind: 'name', value: run.join(' '), key: `name:${words.join(' ')}`, words });
      }
      run = [];
    };
    sentence
      .split(/\s+/)
      .filter((w) => w !== '')
      .forEach((raw, i) => {
        const word = raw.replace(/^["'(\u201c\u2018]+|["'),\u201d\u2019]+$/g, '');
        const name = NAME_WORD.test(word) && !NOT_NAMES.has(word.toLowerCase());
        if (name) {
          if (run.length === 0) opens = i === 0;
          run.push(word);
        }
        if (!name || /,$/.test(raw)) flush();
      });
    flush();
  }
  return out;
}

/** The values of what a bot said: its entities and its name-like words. */
export function spokenValues(said: string): FoundValue[] {
  return [...saidValues(said), ...nameValues(said)];
}

function holdsRun(words: readonly string[], run: readonly string[]): boolean {
  for (let i = 0; i + run.length <= words.length; i++)
    if (run.every((w, k) => words[i + k] === w)) return true;
  return false;
}

/** Of the values `speaker` said, how many the other side heard as said, and what it heard wrong. */
export function entityAccuracySide(
  segments: readonly AudioSegmentMetrics[],
  speaker: 'agent' | 'user',
): EntityAccuracySide {
  let said = 0;
  let right = 0;
  const misheard: MisheardValue[] = [];
  segments.forEach((segment, turn) => {
    if (segment.role !== speaker) return;
    const values = spokenValues(segment.said);
    if (values.length === 0) return;
    const heard = heardSlots(segment.heard);
    const unused = heard.map(() => true);
    const words = normalizeWords(segment.heard);
    // Matches first, so a stand-in is only taken from values no said value matched.
    const matched = values.map((value) => {
      if (value.words) return holdsRun(words, value.words);
      const at = heard.findIndex((h, k) => unused[k] && h.keys.includes(value.key));
      if (at !== -1) unused[at] = false;
      return at !== -1;
    });
    values.forEach((value, i) => {
      said++;
      if (matched[i]) {
        right++;
        return;
      }
      const at = heard.findIndex((h, k) => unused[k] && h.value.kind === value.kind);
      if (at !== -1) unused[at] = false;
      misheard.push({
        kind: value.kind,
        said: value.value,
        heard: at === -1 ? null : heard[at]!.value.value,
        turn,
      });
    });
  });
  return { said, heard_right: right, accuracy: said > 0 ? right / said : null, misheard };
}
