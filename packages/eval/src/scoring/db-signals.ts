/**
 * The signals read from the end-state dbs: each side's hash against the expected one, the
 * db-state assertions, and the db diff of a side whose hash does not match.
 *
 * @module
 */
import { computeDbDiff, getDictHash } from '@scenaro/agent/scenario';
import type { JsonObject } from '@scenaro/agent/scenario';
import { pyEquals } from '@scenaro/agent/python';
import type { Scenario } from '@scenaro/domains';
import type { PredicateLookup, ScoreInput } from './score-input.js';
import { passRate } from './statistics.js';
import type { AssertionVerdict, DbDiffReport, NotApplicable, ScenarioMetrics } from './types.js';
import { errorMessage } from '@scenaro/sdk/util';

type Side = 'agent' | 'user';

/** The hash comparison of both sides, as `metrics.json` stores it. */
export type DbStateFields = Pick<
  ScenarioMetrics,
  | 'db_state_match'
  | 'db_state_expected_hash'
  | 'db_state_actual_hash'
  | 'user_db_state_match'
  | 'user_db_state_expected_hash'
  | 'user_db_state_actual_hash'
>;

/** The db-hash signals of a run, with the end-state dbs they were read from. */
export interface DbStateSignals {
  fields: DbStateFields;
  /** Combined verdict: agent (and user, when an expected user db exists); null when neither applies. */
  dbMatch: boolean | null;
  /** The end-state dbs: those re-requested with `include_db`, else those the summaries carried. */
  actualDb: unknown;
  actualUserDb: unknown;
  /** Expected dbs that disagree with the expected hash used. */
  warnings: string[];
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Compare each side's end-state hash with the expected one (see `ScoreInput` for precedence). */
export function dbStateSignals(input: ScoreInput): DbStateSignals {
  const { scenario, run } = input;
  const actualDb = input.actualDb ?? run.agentSummary?.db;
  const actualUserDb = input.actualUserDb ?? run.userSummary?.db;
  const warnings: string[] = [];
  const expectedHash = expectedHashOf(
    'agent',
    input.expectedDbHash ?? scenario.expectedDbHash ?? null,
    input.expectedDb,
    warnings,
  );
  const expectedUserHash = expectedHashOf(
    'user',
    input.expectedUserDbHash ?? scenario.expectedUserDbHash ?? null,
    input.expectedUserDb,
    warnings,
  );
  const actualHash = run.agentSummary?.db_hash ?? hashOf(actualDb);
  const actualUserHash = run.userSummary?.db_hash ?? hashOf(actualUserDb);
  const dbStateMatch = hashMatch(expectedHash, actualHash);
  const userDbStateMatch = hashMatch(expectedUserHash, actualUserHash);
  return {
    fields: {
      db_state_match: dbStateMatch,
      db_state_expected_hash: expectedHash,
      db_state_actual_hash: actualHash,
      user_db_state_match: userDbStateMatch,
      user_db_state_expected_hash: expectedUserHash,
      user_db_state_actual_hash: actualUserHash,
    },
    dbMatch:
      dbStateMatch === 'N/A' && userDbStateMatch === 'N/A'
        ? null
        : dbStateMatch !== false && userDbStateMatch !== false,
    actualDb,
    actualUserDb,
    warnings,
  };
}

/** The expected hash given (or published), else the expected db's own; a disagreement is warned. */
function expectedHashOf(
  side: Side,
  given: string | null,
  db: unknown,
  warnings: string[],
): string | null {
  if (db === undefined) return given;
  const own = getDictHash(db);
  if (given !== null && given !== own) {
    warnings.push(
      `the expected ${side} db hashes to ${own}, not to the expected hash ${given}; its diff may not explain a mismatch`,
    );
  }
  return given ?? own;
}

function hashOf(db: unknown): string | null {
  return isObject(db) ? getDictHash(db) : null;
}

function hashMatch(expected: string | null, actual: string | null): boolean | NotApplicable {
  return expected === null ? 'N/A' : actual !== null && actual === expected;
}

/** The db diff of each side whose hash does not match (none for a side that matches or does not apply). */
export function dbDiffs(
  input: ScoreInput,
  db: DbStateSignals,
): Pick<ScenarioMetrics, 'db_diff' | 'user_db_diff'> {
  const diffs: Pick<ScenarioMetrics, 'db_diff' | 'user_db_diff'> = {};
  if (db.fields.db_state_match === false)
    diffs.db_diff = diffReport('agent', input.expectedDb, db.actualDb);
  if (db.fields.user_db_state_match === false)
    diffs.user_db_diff = diffReport('user', input.expectedUserDb, db.actualUserDb);
  return diffs;
}

function diffReport(side: Side, expected: unknown, actual: unknown): DbDiffReport {
  if (expected === undefined) {
    return {
      status: 'unavailable',
      side,
      message: 'only the expected hash is known; the expected db is needed for a diff',
    };
  }
  if (actual === undefined || actual === null) {
    return {
      status: 'needs_include_db',
      side,
      message: `the ${side} bot's summary carries no db; re-request get_scenario_summary with include_db and score again with the db`,
    };
  }
  try {
    return { status: 'computed', side, diff: computeDbDiff(expected, actual) };
  } catch (error) {
    return {
      status: 'unavailable',
      side,
      message: errorMessage(error),
    };
  }
}

/** The scenario's db-state assertions, each run on its side's end-state db. */
export function assertionSignals(
  input: ScoreInput,
  db: Pick<DbStateSignals, 'actualDb' | 'actualUserDb'>,
): Pick<ScenarioMetrics, 'db_state_assertion_pass_rate' | 'db_state_assertion_verdicts'> {
  const verdicts = input.scenario.dbStateAssertions.map((a) =>
    evaluateAssertion(a, a.side === 'user' ? db.actualUserDb : db.actualDb, input.predicates),
  );
  return {
    db_state_assertion_pass_rate: passRate(verdicts),
    db_state_assertion_verdicts: verdicts,
  };
}

/** Run one db-state assertion. */
export function evaluateAssertion(
  assertion: Scenario['dbStateAssertions'][number],
  db: unknown,
  predicates: PredicateLookup,
): AssertionVerdict {
  const verdict: AssertionVerdict = {
    func_name: assertion.func_name,
    side: assertion.side,
    passed: false,
    expected: assertion.assert_value,
    actual: null,
    message: assertion.message ?? null,
    error: null,
  };
  if (!isObject(db)) {
    verdict.error = `no ${assertion.side === 'user' ? 'user ' : ''}db in the ${assertion.side} bot's scenario summary (pull it with include_db)`;
    return verdict;
  }
  const predicate = predicates(assertion.side, assertion.func_name);
  if (!predicate) {
    verdict.error = `unknown db-state predicate '${assertion.func_name}'`;
    return verdict;
  }
  try {
    // Predicates get a copy: a misbehaving one must not change what the next assertion sees.
    const actual = predicate(structuredClone(db), structuredClone(assertion.arguments));
    verdict.actual = actual === undefined ? null : actual;
    verdict.passed = pyEquals(actual, assertion.assert_value);
  } catch (error) {
    verdict.error = `${assertion.func_name} raised: ${errorMessage(error)}`;
  }
  return verdict;
}
