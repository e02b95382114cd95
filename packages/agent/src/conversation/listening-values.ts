/**
 * The caller values of a plan step, for the listening reference agent: which
 * arguments of a planned call the caller must have said (ids, codes, emails,
 * names, amounts), what the agent calls them when it asks, and whether a heard
 * value is close enough to the planned one to be taken for it.
 */
import type { JsonObject } from '../scenario/types.js';
import { canonical, editDistance, keyWords, valueKindOf } from './listening-common.js';
import type { ValueKind } from './listening-common.js';
import type { PlannedAction } from './scripted-plan.js';

/** One argument value the caller must have said. */
export interface CallerValue {
  path: (string | number)[];
  key: string;
  kind: ValueKind;
  planned: string;
  /** What the agent calls it when it asks ("user id", "passenger's first name"). */
  label: string;
  /** Shared by every step that needs the same value. */
  id: string;
}

/** A caller value an action was called with, as heard. */
export interface HeardUse extends Pick<CallerValue, 'id' | 'label' | 'kind'> {
  value: string;
}

/**
 * What the agent calls a value when it asks for it ("user id", "payment
 * method"); a name in a list of passengers is the passenger's, who need not be
 * the caller ("passenger's first name").
 */
function labelOf(key: string, kind: ValueKind, path: readonly (string | number)[]): string {
  if (key === 'user_id') return 'user id';
  if (key === 'payment_id') return 'payment method';
  if (kind === 'email') return 'email address';
  if (kind === 'name' && path.includes('passengers')) return `passenger's ${keyWords(key)}`;
  return keyWords(key);
}

/**
 * Whether a field is money charged to a payment method (the `amount` beside a
 * `payment_id`): the agent prices the change from what it read (fares,
 * balances) and splits it over the payment methods; the caller never knew it.
 */
function isCharge(key: string, value: unknown, holder: JsonObject | undefined): boolean {
  return (
    typeof value === 'number' && key === 'amount' && typeof holder?.['payment_id'] === 'string'
  );
}

/**
 * The caller values of an action: leaves of its arguments, with their path.
 * Money charged to a payment method is not one ({@link isCharge}).
 */
export function callerValues(action: PlannedAction): CallerValue[] {
  const out: CallerValue[] = [];
  const walk = (
    value: unknown,
    path: (string | number)[],
    key: string,
    holder: JsonObject | undefined,
  ) => {
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...path, i], key, holder));
    else if (value !== null && typeof value === 'object') {
      const object = value as JsonObject;
      for (const [k, v] of Object.entries(object)) walk(v, [...path, k], k, object);
    } else {
      const kind = isCharge(key, value, holder) ? undefined : valueKindOf(key, value);
      if (kind !== undefined) {
        const planned = String(value);
        const label = labelOf(key, kind, path);
        out.push({ path, key, kind, planned, label, id: `${kind}:${canonical(planned)}` });
      }
    }
  };
  walk(action.arguments, [], '', undefined);
  return out;
}

/** Set the leaf of `target` at `path` (a path from {@link callerValues}). */
export function setAt(
  target: JsonObject,
  path: readonly (string | number)[],
  value: unknown,
): void {
  let node: unknown = target;
  for (const step of path.slice(0, -1)) node = (node as Record<string | number, unknown>)[step];
  (node as Record<string | number, unknown>)[path[path.length - 1]!] = value;
}

/** A heard value is taken for the planned one only when it is not wholly another value. */
export function closeEnough(value: CallerValue, heard: string): boolean {
  if (value.kind === 'amount' || value.kind === 'name') return true;
  const a = canonical(value.planned);
  return editDistance(a, canonical(heard)) <= Math.ceil(0.6 * a.length);
}
