/**
 * The NeMo harness's deterministic answer matcher (`is_action_match`, evaluation.md A5.1). Python's
 * `float()`, `str()` and whitespace come from `@scenaro/agent/python`; `np.isclose` is here.
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
import {
  PYTHON_WHITESPACE_CLASS,
  pythonFloat,
  pythonStr,
  pythonStrip,
} from '@scenaro/agent/python';
import { isJsonObject } from '@scenaro/sdk/util';

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

const PY_WS_RUN = new RegExp(`[${PYTHON_WHITESPACE_CLASS}]+`, 'g');

/** `numpy.isclose(a, b)` with the default tolerances: `|a - b| <= atol + rtol * |b|`; NaN is never close. */
export function isClose(a: number, b: number, rtol = 1e-5, atol = 1e-8): boolean {
  if (Number.isNaN(a) || Number.isNaN(b)) return false;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return a === b;
  return Math.abs(a - b) <= atol + rtol * Math.abs(b);
}

// Python's `[^\w\s]` in Unicode mode: \w is letters, numbers and `_`.
const NON_WORD = new RegExp(`[^\\p{L}\\p{N}_${PYTHON_WHITESPACE_CLASS}]`, 'gu');

function prepareString(text: string, options: ActionMatchOptions): string {
  let out = text;
  if (options.ignoreCapitalization) out = out.toLowerCase();
  if (options.ignorePunctuation || options.cleanText) out = out.replace(NON_WORD, '');
  if (options.cleanText) out = pythonStrip(out.replace(PY_WS_RUN, ' '));
  return out;
}

/** Match two leaves: numerically when both are numbers to Python, else as strings. */
export function matchLeaf(
  reference: unknown,
  prediction: unknown,
  options: ActionMatchOptions = {},
): boolean {
  const ref = pythonFloat(reference);
  const pred = pythonFloat(prediction);
  if (ref !== undefined && pred !== undefined) return isClose(ref, pred);
  if (typeof prediction === 'object' && prediction !== null) return false;
  return (
    prepareString(pythonStr(reference), options) === prepareString(pythonStr(prediction), options)
  );
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
  if (isJsonObject(reference))
    return isJsonObject(prediction) && matchDict(reference, prediction, options);
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
  if (Array.isArray(payload) && payload.length === 1 && isJsonObject(payload[0])) return payload[0];
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
