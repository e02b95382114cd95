/**
 * Expected end-state checks: dotted paths with `[id]` selectors mapped to the values the db
 * must hold after a scenario, e.g.
 *
 * ```json
 * {
 *   "users[u_001].cart.items[AUD-0001-SAG].quantity": 2,
 *   "orders[o_1025].status": "pending",
 *   "products[p_0001].variants[AUD-0001-SAG].stock": 15,
 *   "users[u_001].selection.product_ids": ["p_0002"]
 * }
 * ```
 *
 * Paths are parsed with the agent's delta-path grammar (`parseDeltaPath`: `__proto__`,
 * `constructor` and `prototype` are refused). A selector `name[x]` picks, from the list `name`,
 * the element whose id field equals `x` (`id`, `<singular>_id`, then any `*_id` key, as in sync
 * deltas); failing that, the element whose `sku` equals `x` (cart lines, variants); failing that,
 * when `x` is a number, the element at index `x` (`items[0]`). Values are compared with Python's
 * `==` (deep, key order ignored); an expected `null` also matches a missing key.
 *
 * @module
 */
import { parseDeltaPath, selectListElement } from '@scenaro/agent/scenario';
import { pyEquals } from '@scenaro/agent/python';
import { errorMessage, isJsonObject } from '@scenaro/sdk/util';

function own(container: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(container, key) ? container[key] : undefined;
}

function selectElement(list: unknown[], listKey: string, selector: string): unknown {
  const byId = selectListElement(list, listKey, selector);
  if (byId !== undefined) return byId;
  const bySku = list.find((item) => isJsonObject(item) && own(item, 'sku') === selector);
  if (bySku !== undefined) return bySku;
  if (/^\d+$/.test(selector)) {
    const index = Number(selector);
    if (index < list.length) return list[index];
  }
  return undefined;
}

/** What reading a path found. */
export type PathReadResult = { found: true; value: unknown } | { found: false; reason: string };

/**
 * Read the value at `path` in `db`.
 * @throws DeltaPathError when the path itself is malformed or forbidden.
 */
export function readAtPath(db: unknown, path: string): PathReadResult {
  const segments = parseDeltaPath(path);
  let node: unknown = db;
  let walked = '';
  for (const segment of segments) {
    if (!isJsonObject(node)) {
      return { found: false, reason: `'${walked || '(root)'}' is not an object` };
    }
    const value = own(node, segment.key);
    walked = walked ? `${walked}.${segment.key}` : segment.key;
    if (value === undefined) return { found: false, reason: `no key '${walked}'` };
    if (segment.selector === undefined) {
      node = value;
      continue;
    }
    if (!Array.isArray(value)) return { found: false, reason: `'${walked}' is not a list` };
    const element = selectElement(value, segment.key, segment.selector);
    walked = `${walked}[${segment.selector}]`;
    if (element === undefined) return { found: false, reason: `no element '${walked}'` };
    node = element;
  }
  return { found: true, value: node };
}

/** One path whose value is not the expected one. */
export interface ExpectedStateMismatch {
  path: string;
  expected: unknown;
  /** The value found; absent when the path did not resolve. */
  actual?: unknown;
  /** Why the path did not resolve, or was malformed. */
  reason?: string;
}

/** Outcome of {@link checkExpectedState}. */
export interface ExpectedStateReport {
  ok: boolean;
  /** How many paths were checked. */
  checked: number;
  mismatches: ExpectedStateMismatch[];
}

/** Check every `path -> value` of `expected` against `db`. Never throws. */
export function checkExpectedState(
  db: unknown,
  expected: Readonly<Record<string, unknown>>,
): ExpectedStateReport {
  const mismatches: ExpectedStateMismatch[] = [];
  const paths = Object.keys(expected);
  for (const path of paths) {
    const want = expected[path];
    let read: PathReadResult;
    try {
      read = readAtPath(db, path);
    } catch (err) {
      mismatches.push({
        path,
        expected: want,
        reason: errorMessage(err),
      });
      continue;
    }
    if (!read.found) {
      if (want !== null) mismatches.push({ path, expected: want, reason: read.reason });
    } else if (!pyEquals(read.value, want)) {
      mismatches.push({ path, expected: want, actual: read.value });
    }
  }
  return { ok: mismatches.length === 0, checked: paths.length, mismatches };
}

/** One line per mismatch, for test failures and logs. */
export function formatMismatches(mismatches: readonly ExpectedStateMismatch[]): string {
  return mismatches
    .map((m) =>
      m.reason !== undefined
        ? `${m.path}: expected ${JSON.stringify(m.expected)}, ${m.reason}`
        : `${m.path}: expected ${JSON.stringify(m.expected)}, got ${JSON.stringify(m.actual)}`,
    )
    .join('\n');
}
