/**
 * Path grammar for sync deltas and the default applier.
 *
 * A path is dot-separated keys; a key may carry list selectors `name[id]` that
 * pick the element of the list `name` whose id field equals `id`:
 * `bills[B1002].status`, `users.u1.orders[#W1].status`. The id field is the
 * first of `id`, `<singular>_id` (`bills` -> `bill_id`), and any key ending in
 * `_id` whose value matches. Segments `__proto__`, `constructor` and
 * `prototype` are refused.
 */
import { errorMessage, isJsonObject } from '@scenaro/sdk/util';
import type { Db, JsonObject, SyncApplyResult } from './types.js';

/** A path that cannot be applied. */
export class DeltaPathError extends Error {
  override readonly name = 'DeltaPathError';
}

/** Keys that would reach an object's prototype machinery. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set([
  '__proto__',
  'constructor',
  'prototype',
]);

/** One step of a parsed path: a key, optionally followed by a list selector. */
export interface PathSegment {
  key: string;
  selector?: string;
}

const SEGMENT = /^([^[\]]+)(?:\[([^[\]]+)\])?$/;

/** Parse a delta path. Throws {@link DeltaPathError} with the reason. */
export function parseDeltaPath(path: string): PathSegment[] {
  if (typeof path !== 'string' || path.length === 0) throw new DeltaPathError('empty path');
  const segments: PathSegment[] = [];
  for (const part of path.split('.')) {
    const match = SEGMENT.exec(part);
    if (!match) throw new DeltaPathError(`malformed path segment '${part}' in '${path}'`);
    const key = match[1] as string;
    const selector = match[2];
    if (FORBIDDEN_KEYS.has(key) || (selector !== undefined && FORBIDDEN_KEYS.has(selector))) {
      throw new DeltaPathError(`forbidden path segment '${part}' in '${path}'`);
    }
    segments.push(selector === undefined ? { key } : { key, selector });
  }
  return segments;
}

/**
 * How many levels deep a delta path writes: one per key, one more per list selector (the list
 * and its element). A path this grammar cannot parse (a domain applier may use its own) is
 * counted the same way from its dots and brackets.
 */
export function deltaPathDepth(path: string): number {
  try {
    return parseDeltaPath(path).reduce((n, s) => n + (s.selector === undefined ? 1 : 2), 0);
  } catch {
    return path.split('.').length + (path.match(/\[/g)?.length ?? 0);
  }
}

function singular(key: string): string {
  if (key.endsWith('ies')) return `${key.slice(0, -3)}y`;
  if (key.endsWith('s')) return key.slice(0, -1);
  return key;
}

/**
 * An id field's value as a selector compares it (`String(value)`), or `undefined` when it has
 * no string form: an object whose own `toString` and `valueOf` are not functions (JSON such as
 * `{"id": {"toString": 1}}`) makes `String()` throw a TypeError; such an id matches nothing.
 */
function idText(value: unknown): string | undefined {
  try {
    return String(value);
  } catch {
    return undefined;
  }
}

/** Find the element of `list` selected by `selector`. */
export function selectListElement(
  list: unknown[],
  listKey: string,
  selector: string,
): JsonObject | undefined {
  const idFields = ['id', `${singular(listKey)}_id`];
  for (const field of idFields) {
    const hit = list.find((item) => isJsonObject(item) && idText(item[field]) === selector);
    if (hit) return hit as JsonObject;
  }
  return list.find(
    (item) =>
      isJsonObject(item) &&
      Object.keys(item).some((k) => k.endsWith('_id') && idText(item[k]) === selector),
  ) as JsonObject | undefined;
}

function own(container: JsonObject, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(container, key) ? container[key] : undefined;
}

/**
 * Set `value` at `path` inside `db`. Intermediate keys must exist (no silent
 * creation of structure); the final key may be new.
 */
export function setAtPath(db: Db, path: string, value: unknown): void {
  const segments = parseDeltaPath(path);
  let node: unknown = db;
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    if (!isJsonObject(node))
      throw new DeltaPathError(`'${path}': cannot descend into a non-object`);
    if (segment.selector === undefined) {
      if (last) {
        Object.defineProperty(node, segment.key, {
          value,
          writable: true,
          enumerable: true,
          configurable: true,
        });
        return;
      }
      const next = own(node, segment.key);
      if (next === undefined) throw new DeltaPathError(`'${path}': no key '${segment.key}'`);
      node = next;
      return;
    }
    const list = own(node, segment.key);
    if (!Array.isArray(list)) throw new DeltaPathError(`'${path}': '${segment.key}' is not a list`);
    const element = selectListElement(list, segment.key, segment.selector);
    if (!element) {
      throw new DeltaPathError(
        `'${path}': no element of '${segment.key}' with id '${segment.selector}'`,
      );
    }
    if (last) {
      throw new DeltaPathError(`'${path}': a path cannot end on a list selector`);
    }
    node = element;
  });
}

/**
 * The default sync applier: apply every `path -> value` of the delta with
 * {@link setAtPath}; each failure becomes one error naming its path.
 */
export function applyDeltaDefault(db: Db, delta: JsonObject): SyncApplyResult {
  const applied: string[] = [];
  const errors: string[] = [];
  for (const path of Object.keys(delta)) {
    try {
      setAtPath(db, path, delta[path]);
      applied.push(path);
    } catch (err) {
      errors.push(errorMessage(err));
    }
  }
  return { applied, errors };
}
