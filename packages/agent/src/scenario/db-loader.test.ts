import { mkdir, mkdtemp, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DbCache, DbParseError, DbPathError, loadDbArtifact } from './db-loader.js';

let base: string; // temp dir holding `root/` and `outside/`
let root: string;
let outside: string;

async function put(rel: string, content: unknown): Promise<string> {
  const file = path.join(root, rel);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'db-loader-'));
  root = path.join(base, 'root');
  outside = path.join(base, 'outside');
  await mkdir(root);
  await mkdir(outside);
  await writeFile(path.join(outside, 'secret.json'), '{"secret": true}');
  await mkdir(path.join(outside, 'shards'));
  await writeFile(path.join(outside, 'shards', 'a.json'), '{"secret": true}');

  await put('retail/db.json', { users: { u1: { name: 'a' } } });
  await put('air/db/users.json', { u1: 1 });
  await put('air/db/flights.json', { f1: 2 });
  await put('air/db/notes.txt', 'not json');
  await mkdir(path.join(root, 'air/db/sub.json')); // a directory named like a shard is skipped
  await put('proto.json', '{"__proto__": {"polluted": true}, "a": 1}');
  await put('protodir/__proto__.json', '{"polluted": true}');
  await put('bad.json', '{"oops": ');
  await put('inner/real.json', { ok: 1 });
  await symlink(path.join(root, 'inner/real.json'), path.join(root, 'inner-link.json'));
  await symlink(path.join(outside, 'secret.json'), path.join(root, 'escape.json'));
  await symlink(path.join(outside, 'shards'), path.join(root, 'escapedir'));
  await put('mixed/ok.json', { ok: 1 });
  await symlink(path.join(outside, 'secret.json'), path.join(root, 'mixed/leak.json'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('loadDbArtifact', () => {
  it('loads a single file, with or without the .json suffix', async () => {
    const expected = { users: { u1: { name: 'a' } } };
    expect(await loadDbArtifact(root, 'retail/db.json')).toEqual(expected);
    expect(await loadDbArtifact(root, 'retail/db')).toEqual(expected);
  });

  it('merges a directory of shards in sorted order, keyed by stem', async () => {
    const db = await loadDbArtifact(root, 'air/db.json');
    expect(db).toEqual({ flights: { f1: 2 }, users: { u1: 1 } });
    expect(Object.keys(db as object)).toEqual(['flights', 'users']);
  });

  it('throws DbPathError naming the path when nothing matches', async () => {
    const err = await loadDbArtifact(root, 'nope/db.json').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DbPathError);
    expect((err as Error).message).toContain('"nope/db.json"');
    expect((err as Error).message).toMatch(/neither .* is a file nor .* is a directory/);
  });

  it('refuses ../ escapes even when the target exists', async () => {
    await expect(loadDbArtifact(root, '../outside/secret.json')).rejects.toThrow(
      /"\.\.\/outside\/secret\.json".*escapes the data root/,
    );
    await expect(loadDbArtifact(root, 'retail/../../outside/secret')).rejects.toThrow(DbPathError);
    // `x/..` + `.json` would name `<root>.json`, a sibling of the root.
    await expect(loadDbArtifact(root, 'x/..')).rejects.toThrow(/escapes the data root/);
    // `..` that stays inside is fine.
    expect(await loadDbArtifact(root, 'air/../retail/db.json')).toEqual({
      users: { u1: { name: 'a' } },
    });
  });

  it('refuses absolute paths', async () => {
    const abs = path.join(root, 'retail/db.json');
    await expect(loadDbArtifact(root, abs)).rejects.toThrow(/absolute paths are refused/);
    await expect(loadDbArtifact(root, abs)).rejects.toThrow(DbPathError);
  });

  it('refuses NUL bytes and empty paths', async () => {
    await expect(loadDbArtifact(root, 'retail/db\0.json')).rejects.toThrow(/NUL byte/);
    await expect(loadDbArtifact(root, '')).rejects.toThrow(DbPathError);
  });

  it('refuses symlinks that resolve outside the root, allows ones inside', async () => {
    await expect(loadDbArtifact(root, 'escape.json')).rejects.toThrow(
      /"escape\.json".*symlink.*outside the data root/,
    );
    await expect(loadDbArtifact(root, 'escapedir')).rejects.toThrow(/outside the data root/);
    await expect(loadDbArtifact(root, 'mixed')).rejects.toThrow(/outside the data root/);
    expect(await loadDbArtifact(root, 'inner-link.json')).toEqual({ ok: 1 });
  });

  it('refuses a missing root', async () => {
    await expect(loadDbArtifact(path.join(base, 'missing'), 'x.json')).rejects.toThrow(
      /data root .* does not exist/,
    );
  });

  it('keeps __proto__ keys as data without polluting Object.prototype', async () => {
    const db = (await loadDbArtifact(root, 'proto.json')) as Record<string, unknown>;
    expect(Object.keys(db)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(db)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(db, '__proto__')?.value).toEqual({ polluted: true });
    const shards = (await loadDbArtifact(root, 'protodir')) as Record<string, unknown>;
    expect(Object.keys(shards)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(shards)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reports invalid JSON as DbParseError naming the file', async () => {
    const err = await loadDbArtifact(root, 'bad.json').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DbParseError);
    expect((err as DbParseError).file).toMatch(/bad\.json$/);
  });
});

describe('DbCache', () => {
  it('parses once, returns the same deep-frozen value, and independent clones', async () => {
    const cache = new DbCache();
    const a = await cache.get(root, 'retail/db.json');
    const b = await cache.get(root, 'retail/db');
    expect(a).toBe(b);
    expect(Object.isFrozen(a)).toBe(true);
    expect(Object.isFrozen((a as { users: { u1: object } }).users.u1)).toBe(true);

    const c1 = (await cache.loadClone(root, 'retail/db.json')) as {
      users: Record<string, unknown>;
    };
    const c2 = (await cache.loadClone(root, 'retail/db.json')) as {
      users: Record<string, unknown>;
    };
    expect(c1).not.toBe(c2);
    expect(Object.isFrozen(c1)).toBe(false);
    c1.users.u2 = { name: 'b' };
    expect(c2.users.u2).toBeUndefined();
    expect((a as { users: Record<string, unknown> }).users.u2).toBeUndefined();
    expect(cache.stats()).toEqual({ entries: 1, hits: 3, misses: 1 });
  });

  it('shares one in-flight load between concurrent callers', async () => {
    const cache = new DbCache();
    const [x, y, z] = await Promise.all([
      cache.get(root, 'air/db.json'),
      cache.get(root, 'air/db.json'),
      cache.get(root, 'air/db'),
    ]);
    expect(x).toBe(y);
    expect(y).toBe(z);
    expect(cache.stats().misses).toBe(1);
  });

  it('reloads when the file changes on disk', async () => {
    const cache = new DbCache();
    const file = await put('changing.json', { v: 1 });
    expect(await cache.get(root, 'changing.json')).toEqual({ v: 1 });
    await writeFile(file, JSON.stringify({ v: 22 }));
    const later = new Date(Date.now() + 5_000);
    await utimes(file, later, later);
    expect(await cache.get(root, 'changing.json')).toEqual({ v: 22 });
    expect(cache.stats()).toMatchObject({ entries: 1, misses: 2 });
  });

  it('is bounded (LRU eviction)', async () => {
    const cache = new DbCache({ maxEntries: 2 });
    await put('lru/a.json', { a: 1 });
    await put('lru/b.json', { b: 1 });
    await put('lru/c.json', { c: 1 });
    await cache.get(root, 'lru/a.json');
    await cache.get(root, 'lru/b.json');
    await cache.get(root, 'lru/a.json'); // a is now most recent
    await cache.get(root, 'lru/c.json'); // evicts b
    expect(cache.stats()).toEqual({ entries: 2, hits: 1, misses: 3 });
    await cache.get(root, 'lru/a.json');
    expect(cache.stats().hits).toBe(2);
    await cache.get(root, 'lru/b.json');
    expect(cache.stats().misses).toBe(4);
    expect(() => new DbCache({ maxEntries: 0 })).toThrow(RangeError);
  });

  it('does not cache failures and applies the same path checks', async () => {
    const cache = new DbCache();
    await expect(cache.get(root, '../outside/secret.json')).rejects.toThrow(DbPathError);
    await expect(cache.get(root, 'bad.json')).rejects.toThrow(DbParseError);
    expect(cache.stats().entries).toBe(0);
  });
});
