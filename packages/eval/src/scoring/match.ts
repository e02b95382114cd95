/**
 * The NeMo harness's deterministic answer matcher (`is_action_match`, evaluation.md A5.1), and the
 * Python value semantics the scorers need (`float()`, `np.isclose`, `==`).
 *
 * Matching rules:
 * - shape normalisation: a list of exactly one dict becomes that dict, then a dict becomes `[dict]`;
 *   when the reference has one item and the prediction several, only the **last** prediction is used;
 * - dict match: every reference key must be present in the prediction and match (extra prediction
 *   keys are allowed);
 * - list match: order-independent, each prediction element used at most once. The reference takes
 *   the first unused match greedily, which can miss an assignment that exists (reference `[A, B]`,
 *   prediction `[x, y]` where `x` matches both and `y` only `A`); we find a maximum matching
 *   instead, so a match is reported whenever one exists;
 * - leaves: when Python's `float()` accepts both values, `np.isclose(ref, pred)` (rtol 1e-5,
 *   atol 1e-8, relative to the prediction); otherwise string comparison of `str()` forms, optionally
 *   lower-cased and stripped of `[^\w\s]`;
 * - `disallowExtraItems` (the `--strict-match` flag) only compares the **top-level** lengths.
 *
 * @module
 */
import { pythonFloatRepr } from '@scenaro/agent';

/** Options of {@link checkActionMatch}, named after the scenario fields of the reference. */
export interface ActionMatchOptions {
  /** Lower-case strings before comparing. */
  ignoreCapitalization?: boolean;
  /** Remove every character that is not a word character or whitespace (`[^\w\s]`). */
  ignorePunctuation?: boolean;
  /** Remove punctuation and collapse whitespace (a simplified `clean_label`). */
  cleanText?: boolean;
  /** Top-level lists must have the same length (`--strict-match` / `disallow_extra_items`). */
  disallowExtraItems?: boolean;
}

type Dict = Record<string, unknown>;

function isDict(value: unknown): value is Dict {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Python's str.strip() whitespace set.
const PY_WS =
  '\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const PY_STRIP = new RegExp(`^[${PY_WS}]+|[${PY_WS}]+$`, 'g');
const PY_WS_RUN = new RegExp(`[${PY_WS}]+`, 'g');
const DIGITS = '\\d(?:_?\\d)*';
const PY_FLOAT_LITERAL = new RegExp(
  `^[+-]?(?:(?:${DIGITS})?\\.${DIGITS}|${DIGITS}\\.?)(?:[eE][+-]?${DIGITS})?$`,
);
const PY_FLOAT_SPECIAL = /^([+-]?)(inf|infinity|nan)$/i;

/**
 * Python's `float(value)`: the number, or `undefined` where Python raises. Accepts numbers,
 * booleans (`True` is 1.0), bigints and strings in Python's float syntax (surrounding whitespace,
 * `_` between digits, `inf`/`infinity`/`nan` in any case).
 */
export function pyFloat(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value !== 'string') return undefined;
  const text = value.replace(PY_STRIP, '');
  const special = PY_FLOAT_SPECIAL.exec(text);
  if (special) {
    if ((special[2] ?? '').toLowerCase() === 'nan') return Number.NaN;
    return special[1] === '-' ? -Infinity : Infinity;
  }
  if (!PY_FLOAT_LITERAL.test(text)) return undefined;
  return Number(text.replace(/_/g, ''));
}

/** `numpy.isclose(a, b)` with the default tolerances: `|a - b| <= atol + rtol * |b|`; NaN is never close. */
export function isClose(a: number, b: number, rtol = 1e-5, atol = 1e-8): boolean {
  if (Number.isNaN(a) || Number.isNaN(b)) return false;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return a === b;
  return Math.abs(a - b) <= atol + rtol * Math.abs(b);
}

/** Python's `str()` of a JSON leaf. */
export function pyStr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') {
    if (Number.isInteger(value) && Math.abs(value) < 1e16) return String(value);
    return pythonFloatRepr(value);
  }
  if (typeof value === 'bigint') return value.toString();
  return JSON.stringify(value) ?? String(value);
}

// Python's `[^\w\s]` in Unicode mode: \w is letters, numbers and `_`.
const NON_WORD = new RegExp(`[^\\p{L}\\p{N}_${PY_WS}]`, 'gu');

function prepareString(text: string, options: ActionMatchOptions): string {
  let out = text;
  if (options.ignoreCapitalization) out = out.toLowerCase();
  if (options.ignorePunctuation || options.cleanText) out = out.replace(NON_WORD, '');
  if (options.cleanText) out = out.replace(PY_WS_RUN, ' ').replace(PY_STRIP, '');
  return out;
}

/** Match two leaves: numerically when both are numbers to Python, else as strings. */
export function matchLeaf(
  reference: unknown,
  prediction: unknown,
  options: ActionMatchOptions = {},
): boolean {
  const ref = pyFloat(reference);
  const pred = pyFloat(prediction);
  if (ref !== undefined && pred !== undefined) return isClose(ref, pred);
  if (typeof prediction === 'object' && prediction !== null) return false;
  return prepareString(pyStr(reference), options) === prepareString(pyStr(prediction), options);
}

/**
 * Whether every reference item can be paired with a distinct prediction item it matches
 * (maximum bipartite matching, Kuhn's algorithm).
 */
function assignDistinct(
  refs: readonly unknown[],
  preds: readonly unknown[],
  matches: (r: unknown, p: unknown) => boolean,
): boolean {
  if (refs.length > preds.length) return false;
  const candidates = refs.map((r) => {
    const list: number[] = [];
    preds.forEach((p, j) => {
      if (matches(r, p)) list.push(j);
    });
    return list;
  });
  if (candidates.some((c) => c.length === 0)) return false;
  const owner = new Array<number>(preds.length).fill(-1);
  const tryAssign = (i: number, seen: boolean[]): boolean => {
    for (const j of candidates[i] ?? []) {
      if (seen[j]) continue;
      seen[j] = true;
      const current = owner[j] ?? -1;
      if (current === -1 || tryAssign(current, seen)) {
        owner[j] = i;
        return true;
      }
    }
    return false;
  };
  for (let i = 0; i < refs.length; i++) {
    if (!tryAssign(i, new Array<boolean>(preds.length).fill(false))) return false;
  }
  return true;
}

/** Recursive match of a reference value against a prediction value. */
export function matchItem(
  reference: unknown,
  prediction: unknown,
  options: ActionMatchOptions = {},
): boolean {
  if (isDict(reference)) return isDict(prediction) && matchDict(reference, prediction, options);
  if (Array.isArray(reference))
    return Array.isArray(prediction) && matchList(reference, prediction, options);
  return matchLeaf(reference, prediction, options);
}

/** Every reference key is present in the prediction with a matching value (extra keys allowed). */
export function matchDict(
  reference: Dict,
  prediction: Dict,
  options: ActionMatchOptions = {},
): boolean {
  for (const [key, value] of Object.entries(reference)) {
    if (!Object.hasOwn(prediction, key)) return false;
    if (!matchItem(value, prediction[key], options)) return false;
  }
  return true;
}

/** Order-independent: each reference item needs its own matching prediction item. */
export function matchList(
  reference: readonly unknown[],
  prediction: readonly unknown[],
  options: ActionMatchOptions = {},
): boolean {
  return assignDistinct(reference, prediction, (r, p) => matchItem(r, p, options));
}

/** The reference's `normalize_scenario_payload`: a list of exactly one dict becomes that dict. */
export function normalizeScenarioPayload(payload: unknown): unknown {
  if (Array.isArray(payload) && payload.length === 1 && isDict(payload[0])) return payload[0];
  return payload;
}

function asList(payload: unknown): unknown[] {
  const normalized = normalizeScenarioPayload(payload);
  if (Array.isArray(normalized)) return normalized;
  return [normalized];
}

/**
 * `check_if_task_success`: does the prediction (final responses, or the pulled actions) match the
 * reference answer? See the module notes for the rules.
 */
export function checkActionMatch(
  reference: unknown,
  prediction: unknown,
  options: ActionMatchOptions = {},
): boolean {
  const refs = asList(reference);
  let preds = asList(prediction);
  if (refs.length === 1 && preds.length > 1) preds = [preds[preds.length - 1]];
  if (options.disallowExtraItems && refs.length !== preds.length) return false;
  return assignDistinct(refs, preds, (r, p) => matchItem(r, p, options));
}

/**
 * Python `==` on JSON-like values: numbers by value (`1 == 1.0`), booleans as 0/1 against numbers
 * (`True == 1`), lists element-wise in order, dicts by key set and values, NaN unequal to itself.
 */
export function pyEquals(a: unknown, b: unknown): boolean {
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  const numeric = (v: unknown): number | bigint | undefined =>
    typeof v === 'number' || typeof v === 'bigint'
      ? v
      : typeof v === 'boolean'
        ? v
          ? 1
          : 0
        : undefined;
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined) {
    if (typeof na === 'bigint' || typeof nb === 'bigint') {
      // Compare a bigint with a number by value (loose equality does exactly that).
      return na == nb;
    }
    return na === nb;
  }
  if (a === null || b === null) return a === b;
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => pyEquals(item, b[i]));
  }
  if (isDict(a) && isDict(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((k) => Object.hasOwn(b, k) && pyEquals(a[k], b[k]));
  }
  return Object.is(a, b);
}
