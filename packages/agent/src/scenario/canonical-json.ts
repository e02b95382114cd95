/**
 * The canonical form of a database that the NeMo/EVA `get_dict_hash` hashes (see
 * `reference/db-hash.md` §1): drop the top-level `session` key, normalize
 * (`normalize_for_comparison`), then serialize like Python's
 * `json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=str)`.
 *
 * Normalization is applied while serializing (order-independent lists are normalized and sorted
 * out of line), and both are iterative (explicit stacks), so nesting never overflows the JS call
 * stack; nesting deeper than `maxDepth` (default 10,000 containers) throws
 * {@link DbHashDepthError}. No function here mutates its input, and objects it builds treat
 * `__proto__` as ordinary data.
 *
 * @module
 */
import { DbHashDepthError, maxDepthOf } from '../python/depth-limit.js';
import type { DbHashOptions } from '../python/depth-limit.js';
import { PyFloat } from '../python/float.js';
import { dumpJson, writeJson } from '../python/json-dumps.js';
import type { JsonLayout, JsonNormalizer } from '../python/json-dumps.js';
import { isPlainObject, setDictItem } from '../python/dict.js';
import { isPythonWhitespace } from '../python/strings.js';

/** List fields sorted (at any depth) before hashing because their order carries no meaning. */
export const ORDER_INDEPENDENT_FIELDS: ReadonlySet<string> = new Set([
  'standby_list',
  'notifications',
  'bookings',
  'system_accounts',
  'group_memberships',
  'asset_recoveries',
]);

/** Top-level keys removed before hashing. */
export const HASH_EXCLUDED_KEYS: ReadonlySet<string> = new Set(['session']);

type Dict = Record<string, unknown>;

/** `s.strip().lower() in ("none", "null")` with Python's whitespace set. */
function isNoneString(s: string): boolean {
  const len = s.length;
  if (len < 4) return false;
  let start = 0;
  let end = len;
  if (len !== 4) {
    // Only whitespace at either end can shrink the string to four characters.
    while (start < end && isPythonWhitespace(s.charCodeAt(start))) start++;
    while (end > start && isPythonWhitespace(s.charCodeAt(end - 1))) end--;
    if (end - start !== 4) return false;
  }
  const core = (start === 0 && end === len ? s : s.slice(start, end)).toLowerCase();
  return core === 'none' || core === 'null';
}

/** Normalizes a non-container value (step 2 of the algorithm). */
function normalizeScalar(v: unknown): unknown {
  if (typeof v === 'string') return isNoneString(v) ? null : v;
  if (typeof v === 'number') return v === 0 ? 0 : v; // -0.0 → int 0; other numbers are as-is
  if (v instanceof PyFloat) return normalizeScalar(v.value);
  return v;
}

/** Python `json.dumps(el, sort_keys=True, default=str)` (default separators): the sort key. */
function pythonSortKey(el: unknown, maxDepth: number, baseDepth: number): string {
  return dumpJson(el, { itemSep: ', ', keySep: ': ', maxDepth, baseDepth }, null, null);
}

/** Stable in-place sort of an already-normalized list by its Python sort key. */
export function sortOrderIndependent(list: unknown[], maxDepth: number, baseDepth: number): void {
  if (list.length < 2) return;
  const keyed = list.map((el) => ({ el, key: pythonSortKey(el, maxDepth, baseDepth) }));
  // Keys are pure ASCII (ensure_ascii), so code-unit comparison equals code-point comparison.
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (let i = 0; i < keyed.length; i++) list[i] = keyed[i]!.el;
}

interface NormFrame {
  src: readonly unknown[] | Dict;
  out: unknown[] | Dict;
  keys: string[] | null;
  i: number;
  sortOnDone: boolean;
}

/**
 * Iterative normalization of `value`, which sits under `baseDepth` containers; with `sortRoot`
 * the value is an order-independent list and is sorted too.
 */
export function normalizeAt(
  value: unknown,
  maxDepth: number,
  baseDepth: number,
  sortRoot: boolean,
): unknown {
  const stack: NormFrame[] = [];
  const begin = (v: unknown, sortOnDone: boolean): unknown => {
    if (typeof v !== 'object' || v === null || v instanceof PyFloat) return normalizeScalar(v);
    if (Array.isArray(v)) {
      if (baseDepth + stack.length >= maxDepth) throw new DbHashDepthError(maxDepth);
      const out: unknown[] = new Array<unknown>(v.length);
      stack.push({ src: v, out, keys: null, i: 0, sortOnDone });
      return out;
    }
    if (!isPlainObject(v)) return v;
    if (baseDepth + stack.length >= maxDepth) throw new DbHashDepthError(maxDepth);
    const out: Dict = {};
    stack.push({ src: v, out, keys: Object.keys(v), i: 0, sortOnDone: false });
    return out;
  };

  const result = begin(value, sortRoot);
  while (stack.length > 0) {
    const f = stack[stack.length - 1]!;
    if (f.keys === null) {
      const src = f.src as readonly unknown[];
      if (f.i < src.length) {
        const idx = f.i++;
        (f.out as unknown[])[idx] = begin(src[idx], false);
        continue;
      }
    } else if (f.i < f.keys.length) {
      const k = f.keys[f.i++]!;
      const v = (f.src as Dict)[k];
      const item = begin(v, Array.isArray(v) && ORDER_INDEPENDENT_FIELDS.has(k));
      if (k === '__proto__') setDictItem(f.out, k, item);
      else (f.out as Dict)[k] = item;
      continue;
    }
    stack.pop();
    // Children are complete (post-order), so the sort keys see normalized elements.
    // The list's own depth is baseDepth + stack.length + 1; its elements sit below it.
    if (f.sortOnDone) {
      sortOrderIndependent(f.out as unknown[], maxDepth, baseDepth + stack.length + 1);
    }
  }
  return result;
}

/** NeMo normalization applied by the serializer while it writes. */
const NEMO_NORMALIZER: JsonNormalizer = {
  isNull: isNoneString,
  reorders: (key) => ORDER_INDEPENDENT_FIELDS.has(key),
  reorder: (list, maxDepth, depth) => normalizeAt(list, maxDepth, depth, true),
};

/**
 * NeMo step 2, `normalize_for_comparison`: returns a new value where whole numbers are ints
 * (`-0` → `0`), strings whose Python-`strip().lower()` is `"none"`/`"null"` become `null`, and the
 * six {@link ORDER_INDEPENDENT_FIELDS} lists are stably sorted by their Python `json.dumps`
 * (default separators) key, at any depth. The input is not mutated.
 */
export function normalizeForComparison(value: unknown, options?: DbHashOptions): unknown {
  return normalizeAt(value, maxDepthOf(options), 0, false);
}

function nemoLayout(options: DbHashOptions | undefined): JsonLayout {
  return { itemSep: ',', keySep: ':', maxDepth: maxDepthOf(options), baseDepth: 0 };
}

/**
 * The exact string NeMo/EVA `get_dict_hash` hashes for `value`: top-level `session` dropped (plain
 * objects only), {@link normalizeForComparison} applied, then
 * `json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=str)`.
 * Idempotent on already-normalized input.
 */
export function canonicalJson(value: unknown, options?: DbHashOptions): string {
  return dumpJson(value, nemoLayout(options), NEMO_NORMALIZER, HASH_EXCLUDED_KEYS);
}

/** {@link canonicalJson} streamed into `sink` in ASCII chunks of ~64 KiB, without the whole string. */
export function writeCanonicalJson(
  value: unknown,
  sink: (chunk: string) => void,
  options?: DbHashOptions,
): void {
  writeJson(value, nemoLayout(options), NEMO_NORMALIZER, HASH_EXCLUDED_KEYS, sink);
}
