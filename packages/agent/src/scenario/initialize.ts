/**
 * `apply_initialization` as a pure state transition, shared by the control plane
 * and gold replay: seed shared state, resolve `db_path` inside the data root,
 * run the initialization actions. All or nothing: on any error the state is
 * left exactly as it was. A `db_path` naming another db than the one already loaded is
 * skipped, as the reference does, and reported in `warnings`.
 */
import type { ApplyInitializationResult, InitializationAction } from '@scenaro/sdk/protocol';
import { errorMessage, isJsonObject } from '@scenaro/sdk/util';
import { DbPathError } from './db-loader.js';
import type { DbCache } from './db-loader.js';
import { pythonTypeName } from '../python/repr.js';
import { FORBIDDEN_KEYS } from './delta-path.js';
import { MAX_NESTING_DEPTH, exceedsNestingDepth } from './nesting.js';
import type { DomainRegistry } from './registry.js';
import type { Db, JsonObject, ScenarioState } from './types.js';

/** Where dbs are loaded from. */
export interface DbSource {
  /** The data root every `db_path` resolves inside. */
  dataRoot: string;
  /** More roots, tried in order when `dataRoot` has no such artifact (never for unsafe paths). */
  extraRoots?: readonly string[];
  /** Shared parse cache; each session gets its own clone. */
  cache: DbCache;
}

/** The arguments of `apply_initialization`, defaults applied. */
export interface InitializationRequest {
  domain: string;
  shared_state_init: string;
  actions: InitializationAction[];
}

export { MAX_NESTING_DEPTH, exceedsNestingDepth, nestingDepth } from './nesting.js';

/** Load a clone of `dbPath` from the first root that has it. */
export async function loadFromRoots(source: DbSource, dbPath: string): Promise<unknown> {
  const roots = [source.dataRoot, ...(source.extraRoots ?? [])];
  let notFound: unknown;
  for (const root of roots) {
    try {
      return await source.cache.loadClone(root, dbPath);
    } catch (err) {
      if (!(err instanceof DbPathError) || !err.notFound) throw err;
      notFound ??= err;
    }
  }
  throw notFound;
}

/**
 * Decode and check `shared_state_init`: JSON text that must decode to an
 * object without prototype-polluting keys, nested at most {@link MAX_NESTING_DEPTH} levels.
 */
export function decodeSharedStateInit(
  text: string,
): { ok: true; value: JsonObject } | { ok: false; error: string } {
  let decoded: unknown;
  try {
    decoded = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `Invalid shared_state_init JSON: ${(err as Error).message}` };
  }
  if (!isJsonObject(decoded)) {
    return {
      ok: false,
      error: `shared_state_init must decode to a dict, got ${pythonTypeName(decoded)}.`,
    };
  }
  for (const key of Object.keys(decoded)) {
    if (FORBIDDEN_KEYS.has(key)) {
      return { ok: false, error: `shared_state_init key '${key}' is not allowed.` };
    }
  }
  if (exceedsNestingDepth(decoded)) {
    return {
      ok: false,
      error: `shared_state_init nests deeper than ${MAX_NESTING_DEPTH} levels.`,
    };
  }
  return { ok: true, value: decoded };
}

/**
 * Apply an initialization to `state`. On success the new shared state, db and
 * source are committed; on failure nothing changes and every error is listed. A skipped
 * `db_path` adds `warnings` (present only when there are some) and does not fail the call.
 */
export async function applyInitialization(
  state: ScenarioState,
  request: InitializationRequest,
  registry: DomainRegistry,
  source: DbSource,
): Promise<ApplyInitializationResult> {
  const decoded = decodeSharedStateInit(request.shared_state_init);
  if (!decoded.ok) return { success: false, errors: [decoded.error] };
  const init = decoded.value;

  const shared: JsonObject = Object.assign(Object.create(null) as JsonObject, state.shared);
  for (const key of Object.keys(init)) {
    if (key !== 'db' && key !== 'db_path') shared[key] = init[key];
  }

  let db: Db | undefined;
  try {
    db = state.db === undefined ? undefined : structuredClone(state.db);
  } catch (err) {
    return {
      success: false,
      errors: [`The current db cannot be copied: ${errorMessage(err, { withName: true })}`],
    };
  }
  let dbSource = state.dbSource;
  const errors: string[] = [];
  const warnings: string[] = [];

  if (init['db'] !== undefined && init['db'] !== null) {
    if (!isJsonObject(init['db'])) {
      errors.push(`shared_state_init 'db' must be a dict, got ${pythonTypeName(init['db'])}.`);
    } else {
      // Like the reference's shared_state.update(): an inline db replaces the current one.
      db = init['db'];
      dbSource = 'inline';
    }
  } else if (init['db_path'] !== undefined) {
    const dbPath = init['db_path'];
    if (typeof dbPath !== 'string' || dbPath.length === 0) {
      errors.push(`db_path must be a non-empty string, got ${pythonTypeName(dbPath)}.`);
    } else if (db === undefined) {
      try {
        const loaded = await loadFromRoots(source, dbPath);
        if (!isJsonObject(loaded)) {
          errors.push(
            `db_path '${dbPath}' must hold a JSON object, got ${pythonTypeName(loaded)}.`,
          );
        } else {
          db = loaded;
          dbSource = dbPath;
        }
      } catch (err) {
        errors.push(errorMessage(err, { withName: true }));
      }
    } else if (dbSource !== dbPath) {
      // The reference drops a db_path once a db is present; the client hears about it here.
      warnings.push(
        `db_path '${dbPath}' was skipped: a db is already loaded (from ` +
          `${dbSource ?? 'an earlier initialization'}). Send update_system_prompt to start a new ` +
          'scenario with another db.',
      );
    }
  }

  if (errors.length === 0 && request.actions.length > 0 && db === undefined) {
    errors.push(
      'Initialization actions were supplied but no db is available (give db_path or db in shared_state_init).',
    );
  }

  if (errors.length === 0 && db !== undefined) {
    request.actions.forEach((action, index) => {
      const fn = registry.initializationFunction(request.domain, action.func_name);
      if (!fn) {
        const available = registry.initializationFunctionNames(request.domain);
        errors.push(
          `[action ${index}] No initialization function '${action.func_name}' registered under ` +
            `domain='${request.domain}'. Available: [${available.map((n) => `'${n}'`).join(', ')}].`,
        );
        return;
      }
      try {
        fn(db as Db, action.arguments ?? {});
      } catch (err) {
        errors.push(
          `[action ${index}] '${action.func_name}' raised: ${errorMessage(err, { withName: true })}`,
        );
      }
    });
  }

  // The limit holds for the resulting state, whatever built it (a db file, actions).
  if (errors.length === 0 && db !== undefined && exceedsNestingDepth(db)) {
    errors.push(`The db would nest deeper than ${MAX_NESTING_DEPTH} levels; nothing was changed.`);
  }

  if (errors.length > 0) return { success: false, errors };
  state.shared = shared;
  state.db = db;
  if (dbSource !== undefined) state.dbSource = dbSource;
  return warnings.length > 0
    ? { success: true, errors: [], warnings }
    : { success: true, errors: [] };
}
