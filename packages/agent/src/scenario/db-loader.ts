/**
 * Loads domain database artifacts (`load_db_artifact` semantics) from a data root, confined to
 * that root, plus a bounded cache that parses each artifact once and hands out per-session clones.
 *
 * Resolution of `dbPath` (relative to `root`): strip one trailing `.json`; if `<p>.json` is a file,
 * parse it; else if `<p>/` is a directory, parse each `*.json` file in it in sorted (code point)
 * order into `{<stem>: parsed}`; else throw {@link DbPathError}.
 *
 * Security: `dbPath` must be relative, free of NUL bytes, must not escape `root` lexically, and
 * every file read must resolve (after symlinks, via `fs.realpath`) inside the real `root`. The
 * realpath check and the read are separate system calls, so a concurrent attacker able to swap
 * directories inside `root` between them is out of scope (files are read via their real path).
 *
 * Parsing uses `JSON.parse`: integers beyond 2^53 lose precision and Python's `NaN`/`Infinity`
 * literals are rejected (neither occurs in the tau2 data).
 *
 * @module
 */
import type { BigIntStats } from 'node:fs';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { compareCodePoints } from '../python/strings.js';
import { MAX_NESTING_DEPTH, exceedsNestingDepth } from './nesting.js';

/** A `dbPath` that is unsafe, or does not name a database file or directory inside the root. */
export class DbPathError extends Error {
  override readonly name = 'DbPathError';
  /** The offending `dbPath` as given. */
  readonly dbPath: string;
  /** True when the path is safe but names nothing (another root may have it). */
  readonly notFound: boolean;

  constructor(dbPath: string, reason: string, options?: { cause?: unknown; notFound?: boolean }) {
    super(`db path ${JSON.stringify(dbPath)}: ${reason}`, options);
    this.dbPath = dbPath;
    this.notFound = options?.notFound ?? false;
  }
}

/** A database file that exists inside the root but is not valid JSON. */
export class DbParseError extends Error {
  override readonly name = 'DbParseError';
  /** Path of the file that failed to parse, relative to the (real) data root. */
  readonly file: string;

  constructor(file: string, options?: { cause?: unknown }) {
    const detail = options?.cause instanceof Error ? `: ${options.cause.message}` : '';
    super(`db file ${JSON.stringify(file)} is not valid JSON${detail}`, options);
    this.file = file;
  }
}

interface FileVersion {
  /** Real (symlink-free) path. */
  real: string;
  /** The real path relative to the real data root (what errors name). */
  shown: string;
  /** `ino:size:mtimeNs`, used to detect changes. */
  version: string;
}

/** A resolved artifact: one JSON file, or a directory of `<stem>.json` shards. */
type ResolvedArtifact =
  | { kind: 'file'; real: string; file: FileVersion }
  | { kind: 'dir'; real: string; shards: { stem: string; file: FileVersion }[] };

function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..' + path.sep) && rel !== '..' && !path.isAbsolute(rel));
}

function isNotFound(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

async function statOrNull(p: string): Promise<BigIntStats | null> {
  try {
    return await stat(p, { bigint: true });
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

/** Checks `dbPath` lexically and returns the path with one trailing `.json` removed. */
function checkDbPath(dbPath: string): string {
  if (typeof dbPath !== 'string' || dbPath.length === 0) {
    throw new DbPathError(String(dbPath), 'must be a non-empty relative path');
  }
  if (dbPath.includes('\0')) throw new DbPathError(dbPath, 'contains a NUL byte');
  if (path.isAbsolute(dbPath) || path.win32.isAbsolute(dbPath)) {
    throw new DbPathError(
      dbPath,
      'absolute paths are refused; give a path relative to the data root',
    );
  }
  return dbPath.endsWith('.json') ? dbPath.slice(0, -'.json'.length) : dbPath;
}

async function realRootOf(root: string, dbPath: string): Promise<string> {
  try {
    return await realpath(path.resolve(root));
  } catch (err) {
    throw new DbPathError(dbPath, 'the data root given to the server does not exist', {
      notFound: true,
      cause: err,
    });
  }
}

/** Realpath of `p`, required to lie inside `realRoot`. */
async function confinedRealpath(p: string, realRoot: string, dbPath: string): Promise<string> {
  const real = await realpath(p);
  if (!isInside(realRoot, real)) {
    throw new DbPathError(dbPath, 'resolves through a symlink to a path outside the data root');
  }
  return real;
}

async function fileVersion(real: string, realRoot: string): Promise<FileVersion> {
  const st = await stat(real, { bigint: true });
  return {
    real,
    shown: path.relative(realRoot, real),
    version: `${st.ino}:${st.size}:${st.mtimeNs}`,
  };
}

/** Resolves `dbPath` under `root` to a confined file or shard directory, without reading it. */
async function resolveArtifact(root: string, dbPath: string): Promise<ResolvedArtifact> {
  const base = checkDbPath(dbPath);
  const lexRoot = path.resolve(root);
  const target = path.resolve(lexRoot, base);
  if (!isInside(lexRoot, target) || !isInside(lexRoot, target + '.json')) {
    throw new DbPathError(dbPath, "escapes the data root via '..'");
  }
  const realRoot = await realRootOf(root, dbPath);

  const fileStat = await statOrNull(target + '.json');
  if (fileStat?.isFile()) {
    const real = await confinedRealpath(target + '.json', realRoot, dbPath);
    return { kind: 'file', real, file: await fileVersion(real, realRoot) };
  }
  const dirStat = await statOrNull(target);
  if (dirStat?.isDirectory()) {
    const real = await confinedRealpath(target, realRoot, dbPath);
    const names = (await readdir(real)).filter((n) => n.endsWith('.json')).sort(compareCodePoints);
    const shards: { stem: string; file: FileVersion }[] = [];
    for (const name of names) {
      const shardPath = path.join(real, name);
      const st = await statOrNull(shardPath);
      if (!st?.isFile()) continue; // e.g. a directory named `x.json` or a dangling link
      const shardReal = await confinedRealpath(shardPath, realRoot, dbPath);
      shards.push({
        stem: name.slice(0, -'.json'.length),
        file: await fileVersion(shardReal, realRoot),
      });
    }
    return { kind: 'dir', real, shards };
  }
  throw new DbPathError(
    dbPath,
    `neither ${JSON.stringify(base + '.json')} is a file nor ${JSON.stringify(base + '/')} is a directory under the data root`,
    { notFound: true },
  );
}

async function parseFile(file: FileVersion): Promise<unknown> {
  const text = await readFile(file.real, 'utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new DbParseError(file.shown, { cause: err });
  }
}

async function readArtifact(artifact: ResolvedArtifact): Promise<unknown> {
  if (artifact.kind === 'file') return parseFile(artifact.file);
  const merged: Record<string, unknown> = {};
  for (const { stem, file } of artifact.shards) {
    // defineProperty: a shard named `__proto__.json` stays an ordinary key.
    Object.defineProperty(merged, stem, {
      value: await parseFile(file),
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  return merged;
}

function versionOf(artifact: ResolvedArtifact): string {
  return artifact.kind === 'file'
    ? artifact.file.version
    : artifact.shards.map((s) => `${s.stem}=${s.file.version}`).join('|');
}

/**
 * Loads a database artifact (`load_db_artifact`): `<dbPath minus .json>.json` if it is a file,
 * else the directory `<dbPath minus .json>/` merged as `{<stem>: parsed}` in sorted file order.
 * Returns a fresh, mutable value.
 *
 * @throws DbPathError for unsafe paths (absolute, NUL byte, `..` escape, symlink out of the root),
 *   a missing root, or when neither the file nor the directory exists.
 * @throws DbParseError when a file is not valid JSON.
 */
export async function loadDbArtifact(root: string, dbPath: string): Promise<unknown> {
  try {
    return withinDepth(await readArtifact(await resolveArtifact(root, dbPath)), dbPath);
  } catch (err) {
    throw withoutServerPaths(err, dbPath);
  }
}

/**
 * `err` if it is one of this module's errors (they name paths relative to the data root only);
 * any other failure (ENAMETOOLONG, EACCES, ELOOP, ...) whose message would carry absolute server
 * paths becomes a {@link DbPathError} giving just its code.
 */
function withoutServerPaths(err: unknown, dbPath: string): unknown {
  if (err instanceof DbPathError || err instanceof DbParseError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  const reason = typeof code === 'string' ? code : ((err as Error | null)?.name ?? 'Error');
  return new DbPathError(dbPath, `cannot be read (${reason})`, { cause: err });
}

/** `value`, unless it nests deeper than a session db may (it could not be cloned or hashed). */
function withinDepth<T>(value: T, dbPath: string): T {
  if (exceedsNestingDepth(value)) {
    throw new DbPathError(dbPath, `nests deeper than ${MAX_NESTING_DEPTH} levels`);
  }
  return value;
}

/** Freezes every object and array in `value` (iteratively; no recursion limit). */
function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null || Object.isFrozen(v)) continue;
    Object.freeze(v);
    for (const key of Object.keys(v)) stack.push((v as Record<string, unknown>)[key]);
  }
  return value;
}

/** Options for {@link DbCache}. */
export interface DbCacheOptions {
  /** Maximum number of cached artifacts (least recently used are evicted). @default 16 */
  maxEntries?: number;
}

/** Counters exposed by {@link DbCache.stats}. */
export interface DbCacheStats {
  /** Artifacts currently cached. */
  entries: number;
  /** `get` calls answered from the cache or from an in-flight load. */
  hits: number;
  /** `get` calls that started a load. */
  misses: number;
}

interface CacheEntry {
  version: string;
  value: unknown;
}

/**
 * Bounded LRU cache of parsed database artifacts, keyed by real path and validated by file
 * identity, size and mtime (every shard for a directory). A 5 MB db is read and parsed once;
 * sessions get their own mutable copy through {@link DbCache.loadClone}. Concurrent requests for
 * the same artifact version share one in-flight load.
 */
export class DbCache {
  readonly #maxEntries: number;
  readonly #entries = new Map<string, CacheEntry>();
  readonly #inflight = new Map<string, Promise<unknown>>();
  #hits = 0;
  #misses = 0;

  constructor(options: DbCacheOptions = {}) {
    const max = options.maxEntries ?? 16;
    if (!Number.isInteger(max) || max < 1) {
      throw new RangeError(`maxEntries must be a positive integer, got ${max}`);
    }
    this.#maxEntries = max;
  }

  /**
   * The cached, deep-frozen parsed artifact (same rules and errors as {@link loadDbArtifact}).
   * Re-reads when the file(s) changed on disk. Do not mutate the result; use
   * {@link DbCache.loadClone} for a session copy.
   */
  async get(root: string, dbPath: string): Promise<unknown> {
    try {
      return await this.#get(root, dbPath);
    } catch (err) {
      throw withoutServerPaths(err, dbPath);
    }
  }

  async #get(root: string, dbPath: string): Promise<unknown> {
    const artifact = await resolveArtifact(root, dbPath);
    const key = `${artifact.kind}:${artifact.real}`;
    const version = versionOf(artifact);

    const hit = this.#entries.get(key);
    if (hit !== undefined && hit.version === version) {
      this.#hits++;
      this.#entries.delete(key); // refresh LRU position
      this.#entries.set(key, hit);
      return hit.value;
    }
    const flightKey = `${key}\0${version}`;
    const pending = this.#inflight.get(flightKey);
    if (pending !== undefined) {
      this.#hits++;
      return pending;
    }
    this.#misses++;
    const load = readArtifact(artifact)
      .then((value) => {
        withinDepth(value, dbPath);
        const frozen = deepFreeze(value);
        this.#entries.delete(key);
        this.#entries.set(key, { version, value: frozen });
        while (this.#entries.size > this.#maxEntries) {
          const oldest = this.#entries.keys().next().value as string;
          this.#entries.delete(oldest);
        }
        return frozen;
      })
      .finally(() => this.#inflight.delete(flightKey));
    this.#inflight.set(flightKey, load);
    return load;
  }

  /** A fresh mutable `structuredClone` of the cached artifact, for one session. */
  async loadClone(root: string, dbPath: string): Promise<unknown> {
    return structuredClone(await this.get(root, dbPath));
  }

  /** Drops every cached artifact (in-flight loads still complete and are then cached). */
  clear(): void {
    this.#entries.clear();
  }

  /** Hit/miss counters and current size. */
  stats(): DbCacheStats {
    return { entries: this.#entries.size, hits: this.#hits, misses: this.#misses };
  }
}
