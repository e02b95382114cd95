/**
 * Fast per-scenario db copies for gold replay. A replay session gets a db
 * whose top-level tables are copied from the shared, frozen parse only when
 * first touched, and hashing reuses the canonical form of every table that
 * was never touched. Hashes are byte-identical to `getDictHash`.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import {
  canonicalJson,
  compareCodePoints,
  DbCache,
  getDictHash,
  HASH_EXCLUDED_KEYS,
  ORDER_INDEPENDENT_FIELDS,
} from '@scenaro/agent/scenario';
import type { JsonObject } from '@scenaro/agent/scenario';
import { setDictItem } from '@scenaro/agent/python';
import { isJsonObject } from '@scenaro/sdk/util';

/** A deep copy of parsed JSON (several times faster than `structuredClone` on large dbs). */
export function cloneJson<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = cloneJson(value[i]);
    return out as T;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const copy = cloneJson((value as Record<string, unknown>)[key]);
    if (key === '__proto__') setDictItem(out, key, copy);
    else out[key] = copy;
  }
  return out as T;
}

/** For each lazy db: its tables not touched yet, with their frozen originals. */
const untouchedTables = new WeakMap<object, Map<string, unknown>>();
/** Canonical (`get_dict_hash`) form of frozen tables, computed once. */
const canonicalOfTable = new WeakMap<object, string>();

/**
 * A db whose tables are copied from `source` on first access. `source`
 * must not change afterwards (the db cache hands out deep-frozen parses).
 */
export function lazyDbCopy(source: unknown): unknown {
  if (!isJsonObject(source)) return cloneJson(source);
  const db: JsonObject = {};
  const untouched = new Map<string, unknown>();
  for (const key of Object.keys(source)) {
    const original = source[key];
    if (original === null || typeof original !== 'object') {
      setDictItem(db, key, original);
      continue;
    }
    untouched.set(key, original);
    Object.defineProperty(db, key, {
      enumerable: true,
      configurable: true,
      get() {
        const copy = cloneJson(original);
        untouched.delete(key);
        setDictItem(db, key, copy);
        return copy;
      },
      set(value: unknown) {
        untouched.delete(key);
        setDictItem(db, key, value);
      },
    });
  }
  untouchedTables.set(db, untouched);
  return db;
}

/** Keys whose JSON spelling is plain ASCII without escapes. */
const PLAIN_KEY = /^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * `getDictHash` of a db, reusing the canonical form of tables a
 * {@link lazyDbCopy} never touched. Falls back to `getDictHash` for any db
 * it cannot split safely.
 */
export function replayDbHash(db: JsonObject): string {
  const untouched = untouchedTables.get(db);
  if (!untouched || untouched.size === 0) return getDictHash(db);
  const keys = Object.keys(db)
    .filter((k) => !HASH_EXCLUDED_KEYS.has(k))
    .sort(compareCodePoints);
  const parts: string[] = [];
  for (const key of keys) {
    if (ORDER_INDEPENDENT_FIELDS.has(key) || !PLAIN_KEY.test(key)) return getDictHash(db);
    const descriptor = Object.getOwnPropertyDescriptor(db, key);
    const original = descriptor?.get !== undefined ? untouched.get(key) : undefined;
    const table = original ?? db[key];
    // canonicalJson drops a top-level `session` key, which is only right for the db itself.
    if (isJsonObject(table) && Object.prototype.hasOwnProperty.call(table, 'session'))
      return getDictHash(db);
    let canonical: string;
    if (original !== undefined && typeof original === 'object' && original !== null) {
      canonical = canonicalOfTable.get(original) ?? canonicalJson(original);
      canonicalOfTable.set(original, canonical);
    } else {
      canonical = canonicalJson(table);
    }
    parts.push(`"${key}":${canonical}`);
  }
  const hash = createHash('sha256');
  hash.update('{', 'latin1');
  parts.forEach((part, i) => hash.update(i === 0 ? part : `,${part}`, 'latin1'));
  hash.update('}', 'latin1');
  return hash.digest('hex');
}

/**
 * A db cache for replay: parses through `inner` (shared across scenarios)
 * and hands out {@link lazyDbCopy} copies instead of full clones.
 */
export class ReplayDbCache extends DbCache {
  constructor(private readonly inner?: DbCache) {
    super();
  }

  override get(root: string, dbPath: string): Promise<unknown> {
    return this.inner ? this.inner.get(root, dbPath) : super.get(root, dbPath);
  }

  override async loadClone(root: string, dbPath: string): Promise<unknown> {
    return lazyDbCopy(await this.get(root, dbPath));
  }
}
