/**
 * Reuse of a session db's hash between changes. An evaluation bridge asks for
 * `get_scenario_summary` (and so for `db_hash`) far more often than the db changes, and
 * hashing walks, sorts and serializes the whole db.
 *
 * Correctness comes first: a hash is reused only when nothing can have changed the db since it
 * was computed. Every path that changes a session db in this package marks it:
 * - {@link executeBoundTool} brackets every tool call (any kind) with {@link beginDbWrite};
 * - the session brackets every `client-message` handler except the read-only
 *   `get_scenario_summary` and `get_context_history` (so `apply_sync_delta`,
 *   `apply_initialization` and handlers registered by an application are covered);
 * - replacing `state.db` (initialization, a new scenario) is seen by identity.
 *
 * While any write is in flight nothing is reused, so a hash taken in the middle of an async tool
 * is never served after it. Code that changes `state.db` in place by other means (a timer in an
 * `onSession` hook, say) must call {@link markDbChanged} afterwards.
 *
 * @module
 */
import { getDictHash } from './db-hash.js';
import type { Db, ScenarioState } from './types.js';

interface DbTrack {
  /** Bumped at the start and the end of every write. */
  revision: number;
  /** Writes in flight. */
  writers: number;
  memo?: { db: Db; revision: number; hash: string };
}

const tracks = new WeakMap<ScenarioState, DbTrack>();

function track(state: ScenarioState): DbTrack {
  let t = tracks.get(state);
  if (!t) {
    t = { revision: 0, writers: 0 };
    tracks.set(state, t);
  }
  return t;
}

/** Record that `state.db` may have changed: its next hash is computed afresh. */
export function markDbChanged(state: ScenarioState): void {
  const t = track(state);
  t.revision++;
  delete t.memo;
}

/**
 * Start something that may change `state.db`; call the returned function when it has finished
 * (also on failure). Until then, and afterwards until the next hash, no hash is reused.
 */
export function beginDbWrite(state: ScenarioState): () => void {
  const t = track(state);
  t.writers++;
  markDbChanged(state);
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    t.writers--;
    markDbChanged(state);
  };
}

/**
 * `getDictHash` of the session db, or `null` without one (absent or empty), reusing the last
 * hash when the db is the same object and nothing has written to it since.
 */
export function sessionDbHash(state: ScenarioState): string | null {
  const { db } = state;
  if (db === undefined || Object.keys(db).length === 0) return null;
  const t = track(state);
  const memo = t.memo;
  if (memo && memo.db === db && memo.revision === t.revision && t.writers === 0) return memo.hash;
  const hash = getDictHash(db);
  if (t.writers === 0) t.memo = { db, revision: t.revision, hash };
  return hash;
}
