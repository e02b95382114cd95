/**
 * Reference resolution for the scripted shop assistant: which products "the first one",
 * "product 3", "compare 1 and 3", "it" or "the earbuds" point at, from the list last shown and
 * the product in focus.
 *
 * @module
 */
import { findProduct } from '../model/catalog.js';
import type { CommerceDb, Product } from '../model/db-types.js';
import { tokenize } from '../model/search.js';
import type { Memory } from './context.js';
import { ORDINAL_WORDS, toNumber } from './words.js';

const ORDINAL_PATTERN = new RegExp(
  String.raw`\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|1st|2nd|3rd|[4-9]th|10th)\b`,
  'g',
);
const POSITION_PATTERN = /(?:\b(?:product|item|number|no\.?|option|result)\s*|#)(\d{1,2})\b/g;
const PRONOUN_PATTERN = /\b(it|this|that|them|those|these|this one|that one)\b/;

/** A non-global copy of a pattern (global ones keep a `lastIndex` between calls). */
function once(pattern: RegExp): RegExp {
  return new RegExp(pattern.source);
}

/** The position an ordinal stands for in a list of `length` (`last` is the length; 0 when unknown). */
function ordinalPosition(word: string, length: number): number {
  return word === 'last' ? length : (ORDINAL_WORDS[word] ?? 0);
}

/** The position the first ordinal of `text` names in a list of `length` ("the second one"); 0 when none. */
export function firstOrdinal(text: string, length: number): number {
  const m = once(ORDINAL_PATTERN).exec(text);
  return m ? ordinalPosition(m[1] as string, length) : 0;
}

/** Whether a message points at products: an ordinal, a position, a pronoun, an id, "the first two". */
export function hasReference(text: string): boolean {
  return (
    once(ORDINAL_PATTERN).test(text) ||
    once(POSITION_PATTERN).test(text) ||
    PRONOUN_PATTERN.test(text) ||
    /\bp_\d{4}\b/.test(text) ||
    /\b(?:first|top)\s+(?:two|three|four|[2-4])\b/.test(text)
  );
}

/** Which products a message points at, or why it points at none. */
export type Resolved = { ok: true; ids: string[] } | { ok: false; message: string };

const NO_LIST =
  'Which product do you mean? Search for something first, for example "show me headphones under $100".';

/**
 * Resolve the products a message refers to: ids (`p_0042`), "the first two", ordinals and
 * positions ("the second one", "product 3", "1 and 3") in the last list, pronouns ("it",
 * "them") for the product in focus, or words of a listed product's name.
 */
export function resolveProducts(
  text: string,
  memory: Memory,
  db: CommerceDb,
  options: { allowBareNumbers: boolean; all?: boolean },
): Resolved {
  const explicit = [...text.matchAll(/\bp_\d{4}\b/g)].map((m) => m[0]);
  if (explicit.length > 0) {
    const unknown = explicit.find((id) => !db.products.some((p) => p.id === id));
    if (unknown) return { ok: false, message: `There is no product ${unknown}.` };
    return { ok: true, ids: [...new Set(explicit)] };
  }
  const { grid } = memory;
  const at = (n: number): Resolved =>
    grid.length === 0
      ? { ok: false, message: NO_LIST }
      : n >= 1 && n <= grid.length
        ? { ok: true, ids: [grid[n - 1] as string] }
        : {
            ok: false,
            message: `There ${grid.length === 1 ? 'is only 1 product' : `are only ${grid.length} products`} in the list.`,
          };
  const top = /\b(?:first|top)\s+(two|three|four|[2-4])\b/.exec(text);
  if (top) {
    if (grid.length === 0) return { ok: false, message: NO_LIST };
    return { ok: true, ids: grid.slice(0, toNumber(top[1] as string)) };
  }
  const positions: number[] = [];
  for (const m of text.matchAll(ORDINAL_PATTERN)) {
    positions.push(ordinalPosition(m[1] as string, grid.length));
  }
  for (const m of text.matchAll(POSITION_PATTERN)) positions.push(Number(m[1]));
  if (positions.length === 0 && options.allowBareNumbers) {
    for (const m of text.matchAll(/\b(\d{1,2})\b/g)) positions.push(Number(m[1]));
  }
  if (positions.length > 0) {
    const ids: string[] = [];
    for (const n of positions) {
      const one = at(n);
      if (!one.ok) return one;
      ids.push(...one.ids);
    }
    return { ok: true, ids: [...new Set(ids)] };
  }
  if (options.all && /\b(them|those|these|all)\b/.test(text)) {
    if (grid.length === 0) return { ok: false, message: NO_LIST };
    return { ok: true, ids: grid.slice(0, 4) };
  }
  if (PRONOUN_PATTERN.test(text)) {
    if (memory.focus) return { ok: true, ids: [memory.focus] };
    if (grid.length === 1) return { ok: true, ids: [grid[0] as string] };
  }
  const named = bestNameMatches(
    text,
    grid.map((id) => findProduct(db, id)),
  );
  if (named.length === 1) return { ok: true, ids: [(named[0] as Product).id] };
  if (grid.length === 0) return { ok: false, message: NO_LIST };
  return {
    ok: false,
    message:
      'Which product do you mean? Say for example "the first one" or "product 2" (the products are numbered on the page).',
  };
}

/** The candidates whose name or brand shares the most words with `text` (none when no word matches). */
export function bestNameMatches<T extends { name: string; brand?: string }>(
  text: string,
  candidates: readonly T[],
): T[] {
  const words = new Set(tokenize(text));
  let best: T[] = [];
  let bestScore = 0;
  for (const candidate of candidates) {
    const score = tokenize(`${candidate.name} ${candidate.brand ?? ''}`).filter((t) =>
      words.has(t),
    ).length;
    if (score > bestScore) {
      best = [candidate];
      bestScore = score;
    } else if (score === bestScore && score > 0) best.push(candidate);
  }
  return best;
}
