import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DbCache, DbPathError } from './db-loader.js';
import { applyInitialization, loadFromRoots } from './initialize.js';
import { DomainRegistry } from './registry.js';
import { createScenarioState } from './types.js';

const base = mkdtempSync(join(tmpdir(), 'scenaro-roots-'));
const first = join(base, 'first');
const second = join(base, 'second');
mkdirSync(join(first, 'a'), { recursive: true });
mkdirSync(join(second, 'b'), { recursive: true });
writeFileSync(join(first, 'a', 'db.json'), '{"from": "first"}');
writeFileSync(join(second, 'a.json'), '{"from": "second-a"}');
writeFileSync(join(second, 'b', 'db.json'), '{"from": "second"}');
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('data roots', () => {
  const source = { dataRoot: first, extraRoots: [second], cache: new DbCache() };

  it('prefers the first root that has the artifact', async () => {
    expect(await loadFromRoots(source, 'a/db.json')).toEqual({ from: 'first' });
    expect(await loadFromRoots(source, 'b/db.json')).toEqual({ from: 'second' });
  });

  it('reports the first not-found error when no root has it', async () => {
    await expect(loadFromRoots(source, 'c/db.json')).rejects.toMatchObject({ notFound: true });
  });

  it('never falls through on an unsafe path', async () => {
    const err = await loadFromRoots(source, '../second/b/db.json').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DbPathError);
    expect((err as DbPathError).notFound).toBe(false);
  });

  it('initializes from an extra root', async () => {
    const state = createScenarioState();
    const result = await applyInitialization(
      state,
      { domain: 'x', shared_state_init: '{"db_path": "b/db.json"}', actions: [] },
      new DomainRegistry(),
      source,
    );
    expect(result).toEqual({ success: true, errors: [] });
    expect(state.db).toEqual({ from: 'second' });
    expect(state.dbSource).toBe('b/db.json');
  });
});

describe('a db_path once a db is loaded', () => {
  const source = { dataRoot: first, extraRoots: [second], cache: new DbCache() };
  const init = (state: ReturnType<typeof createScenarioState>, sharedStateInit: object) =>
    applyInitialization(
      state,
      { domain: 'x', shared_state_init: JSON.stringify(sharedStateInit), actions: [] },
      new DomainRegistry(),
      source,
    );

  it('is skipped with a warning when it names another db; the rest still applies', async () => {
    const state = createScenarioState();
    expect(await init(state, { db_path: 'a/db.json' })).toEqual({ success: true, errors: [] });
    const result = await init(state, { db_path: 'b/db.json', note: 'kept' });
    expect(result).toEqual({
      success: true,
      errors: [],
      warnings: [
        "db_path 'b/db.json' was skipped: a db is already loaded (from a/db.json). Send " +
          'update_system_prompt to start a new scenario with another db.',
      ],
    });
    expect(state.db).toEqual({ from: 'first' });
    expect(state.dbSource).toBe('a/db.json');
    expect(state.shared['note']).toBe('kept');
  });

  it('is skipped silently when the db came from that path', async () => {
    const state = createScenarioState();
    await init(state, { db: { inline: true } });
    expect((await init(state, { db_path: 'a/db.json' })).warnings).toHaveLength(1);
    const again = createScenarioState();
    await init(again, { db_path: 'a/db.json' });
    expect(await init(again, { db_path: 'a/db.json' })).toEqual({ success: true, errors: [] });
  });
});
