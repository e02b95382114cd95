/**
 * What both scorers share: the inputs, the base metrics of a run, and the individual signals
 * (action match, db hashes, db-state assertions, the judge call) before they are combined.
 *
 * @module
 */
import { computeDbDiff, getDictHash } from '@scenaro/agent';
import type { DbStatePredicate, DomainRegistry, JsonObject } from '@scenaro/agent';
import { pyEquals } from '@scenaro/agent/python';
import type { Scenario, Side, SuccessSignal } from '@scenaro/domains';
import type { ActionRecord } from '@scenaro/sdk/protocol';
import type { ScenarioRun, SideTokenUsage } from '../bridge/types.js';
import type { Judge, JudgeResult } from './judge.js';
import { checkActionMatch, normalizeScenarioPayload } from './match.js';
import type { ActionMatchOptions } from './match.js';
import type {
  AssertionVerdict,
  DbDiffReport,
  LatencyRecord,
  LatencyStats,
  MetricsTurn,
  NlAssertionVerdict,
  ScenarioMetrics,
} from './types.js';

/** Finds the db-state predicate an assertion names (`DomainRegistry.predicate` for the scenario's domain). */
export type PredicateLookup = (side: Side, funcName: string) => DbStatePredicate | undefined;

/** A {@link PredicateLookup} over a registry: the scenario domain's predicates, for either side. */
export function registryPredicates(registry: DomainRegistry, domain: string): PredicateLookup {
  return (_side, funcName) => registry.predicate(domain, funcName);
}

/** What a scorer is given for one scenario. */
export interface ScoreInput {
  scenario: Scenario;
  run: ScenarioRun;
  /**
   * Expected end-state dbs (gold replay): the left side of the db diff, and the expected hash
   * (their `getDictHash`) when no hash is given and the scenario publishes none.
   */
  expectedDb?: unknown;
  expectedUserDb?: unknown;
  /**
   * Expected hashes. Precedence: these, then the scenario's published hashes, then the hash of
   * `expectedDb` / `expectedUserDb`. A db whose hash disagrees with the hash used is reported in
   * `scoring_warnings` (its diff may then not explain the mismatch).
   */
  expectedDbHash?: string | null;
  expectedUserDbHash?: string | null;
  /** End-state dbs re-requested with `include_db` when the run's summaries carry none. */
  actualDb?: unknown;
  actualUserDb?: unknown;
  predicates: PredicateLookup;
  /** The LLM judge; off when absent. */
  judge?: Judge;
  /** Call the judge for every scenario, not only those that need it or have NL assertions. @default false */
  judgeAll?: boolean;
  /** Stall rule: fewer agent LLM calls than this force a failure (0 disables). Default 3 (NeMo), 0 (tau2). */
  minAgentTurns?: number;
  /** `--strict-match`: top-level lengths must agree in the action match. @default false */
  strictMatch?: boolean;
  /** String options of the action match (the scenario fields of the reference). */
  matchOptions?: Omit<ActionMatchOptions, 'disallowExtraItems'> & { disallowExtraItems?: boolean };
  /** The reference answer, when it is not `{"actions": scenario.referenceActions}` (e.g. a flat order dict). */
  referenceAnswer?: unknown;
  /** Where the scenario's files go (`scenario_directory`). */
  scenarioDirectory?: string;
  /** Trial number (pass^k). @default 1 */
  trial?: number;
  /** Wall-clock seconds of the whole scenario, when the runner measured it; else the run's. */
  scenarioDurationSeconds?: number;
  /** Aborts a judge call. */
  signal?: AbortSignal;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `{count, mean_ms, p50_ms, p95_ms, min_ms, max_ms}` with `p50 = sorted[n//2]`, `p95 = sorted[int(0.95*n)]`; -1 everywhere when empty. */
export function latencyStats(latencies: readonly number[]): LatencyStats {
  const sorted = latencies.filter((l) => Number.isFinite(l)).sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return { count: 0, mean_ms: -1, p50_ms: -1, p95_ms: -1, min_ms: -1, max_ms: -1 };
  return {
    count: n,
    mean_ms: sorted.reduce((s, l) => s + l, 0) / n,
    p50_ms: sorted[Math.floor(n / 2)] as number,
    p95_ms: sorted[Math.floor(0.95 * n)] as number,
    min_ms: sorted[0] as number,
    max_ms: sorted[n - 1] as number,
  };
}

/** Latency records from the turns (each agent turn with a latency, and the user text it answered). */
export function latencyRecords(run: ScenarioRun): LatencyRecord[] {
  const records: LatencyRecord[] = [];
  run.turns.forEach((turn, i) => {
    if (turn.role !== 'agent' || turn.latencyMs === undefined) return;
    const previous = i > 0 ? run.turns[i - 1] : undefined;
    records.push({
      user_transcript: previous?.role === 'user' ? previous.text : '',
      agent_transcript: turn.text,
      latency_ms: turn.latencyMs,
    });
  });
  if (records.length === 0 && run.latencies.length > 0) {
    return run.latencies.map((latency_ms) => ({
      user_transcript: '',
      agent_transcript: '',
      latency_ms,
    }));
  }
  return records;
}

function isScripted(usage: SideTokenUsage): boolean {
  return usage.models.length > 0 && usage.models.every((m) => m.startsWith('scripted:'));
}

/** The agent's (and user's) actions as the prediction of the action match: pushed final responses when there are any, else the pulled actions with their side; `undefined` when the run has neither. */
export function buildActionPrediction(run: ScenarioRun): unknown[] | undefined {
  if (run.finalResponses.length > 0) {
    return run.finalResponses.map((r) => (isObject(r) ? r : { message: r }));
  }
  if (!run.agentSummary && !run.userSummary) return undefined;
  return [
    {
      actions: [
        ...(run.agentSummary?.actions ?? []).map((a) => ({ ...a, side: 'agent' })),
        ...(run.userSummary?.actions ?? []).map((a) => ({ ...a, side: 'user' })),
      ],
    },
  ];
}

/** The reference answer of the action match: `{"actions": [gold actions with side]}` unless overridden. */
export function buildActionReference(scenario: Scenario, referenceAnswer?: unknown): unknown {
  if (referenceAnswer !== undefined) return referenceAnswer;
  return { actions: scenario.referenceActions.map((a) => ({ ...a })) };
}

/** Signals that need the judge (when the scenario whitelists them and they have something to judge). */
export function judgeDependentSignals(scenario: Scenario): SuccessSignal[] {
  const out: SuccessSignal[] = [];
  if (scenario.successSignals.includes('judge_passed')) out.push('judge_passed');
  if (scenario.successSignals.includes('nl_assertion') && scenario.nlAssertions.length > 0)
    out.push('nl_assertion');
  return out;
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
    verdict.error = `${assertion.func_name} raised: ${error instanceof Error ? error.message : String(error)}`;
  }
  return verdict;
}

/** Everything computed before the scorers combine it. */
export interface ScenarioSignals {
  base: Omit<
    ScenarioMetrics,
    | 'is_successful'
    | 'success_breakdown'
    | 'is_task_successful'
    | 'not_scored_reason'
    | 'failure_reason'
    | 'scorer'
    | 'tau2'
  >;
  /** Judge-dependent signals the scenario gates on. */
  needsJudge: SuccessSignal[];
  /** The judge's answer, when it was called. */
  judgeResult?: JudgeResult;
  /** Why the judge result is missing or unusable, when it is. */
  judgeUnavailable?: string;
  /** Stalled per the stall rule. */
  stalled: boolean;
  /** Combined db verdict: agent (and user, when an expected user db exists); null when neither applies. */
  dbMatch: boolean | null;
}

function diffReport(side: 'agent' | 'user', expected: unknown, actual: unknown): DbDiffReport {
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
      message: error instanceof Error ? error.message : String(error),
    };
  }
}

/**
 * Compute every signal of one scenario, calling the judge when it is configured and the scenario
 * needs it (or has NL assertions, or `judgeAll`). The judge is not called for a run that failed
 * or stalled: its verdict could not change the outcome.
 */
export async function computeSignals(
  input: ScoreInput,
  defaults: { minAgentTurns: number },
): Promise<ScenarioSignals> {
  const { scenario, run } = input;
  const minAgentTurns = input.minAgentTurns ?? defaults.minAgentTurns;
  const stalled = minAgentTurns > 0 && run.tokenUsage.agent.n_calls < minAgentTurns;

  // ---- action match ----
  const reference = buildActionReference(scenario, input.referenceAnswer);
  const prediction = buildActionPrediction(run);
  const isActionMatch =
    prediction === undefined
      ? false
      : checkActionMatch(reference, prediction, {
          ...input.matchOptions,
          disallowExtraItems:
            (input.strictMatch ?? false) || (input.matchOptions?.disallowExtraItems ?? false),
        });

  // ---- db hashes ----
  const actualDb = input.actualDb ?? run.agentSummary?.db;
  const actualUserDb = input.actualUserDb ?? run.userSummary?.db;
  const warnings: string[] = [];
  const expectedHashOf = (
    side: 'agent' | 'user',
    hash: string | null | undefined,
    published: string | null | undefined,
    db: unknown,
  ): string | null => {
    const given = hash ?? published ?? null;
    if (db === undefined) return given;
    const own = getDictHash(db);
    if (given !== null && given !== own) {
      warnings.push(
        `the expected ${side} db hashes to ${own}, not to the expected hash ${given}; its diff may not explain a mismatch`,
      );
    }
    return given ?? own;
  };
  const expectedHash = expectedHashOf(
    'agent',
    input.expectedDbHash,
    scenario.expectedDbHash,
    input.expectedDb,
  );
  const expectedUserHash = expectedHashOf(
    'user',
    input.expectedUserDbHash,
    scenario.expectedUserDbHash,
    input.expectedUserDb,
  );
  const actualHash =
    run.agentSummary?.db_hash ?? (isObject(actualDb) ? getDictHash(actualDb) : null);
  const actualUserHash =
    run.userSummary?.db_hash ?? (isObject(actualUserDb) ? getDictHash(actualUserDb) : null);
  const dbStateMatch =
    expectedHash === null ? ('N/A' as const) : actualHash !== null && actualHash === expectedHash;
  const userDbStateMatch =
    expectedUserHash === null
      ? ('N/A' as const)
      : actualUserHash !== null && actualUserHash === expectedUserHash;
  const dbMatch =
    dbStateMatch === 'N/A' && userDbStateMatch === 'N/A'
      ? null
      : dbStateMatch !== false && userDbStateMatch !== false;

  // ---- db-state assertions ----
  const verdicts = scenario.dbStateAssertions.map((a) =>
    evaluateAssertion(a, a.side === 'user' ? actualUserDb : actualDb, input.predicates),
  );
  const assertionRate =
    verdicts.length === 0
      ? ('N/A' as const)
      : verdicts.filter((v) => v.passed).length / verdicts.length;

  // ---- judge ----
  const needsJudge = judgeDependentSignals(scenario);
  let judgeResult: JudgeResult | undefined;
  let judgeUnavailable: string | undefined;
  const wantJudge =
    (input.judgeAll ?? false) || needsJudge.length > 0 || scenario.nlAssertions.length > 0;
  if (!input.judge) {
    if (wantJudge) judgeUnavailable = 'no LLM judge is configured';
  } else if (run.failure || stalled) {
    if (wantJudge)
      judgeUnavailable = run.failure
        ? 'the run failed; the judge was not called'
        : 'the agent stalled; the judge was not called';
  } else if (wantJudge) {
    try {
      judgeResult = await input.judge.judge(
        {
          scenarioName: scenario.name,
          reference: normalizeScenarioPayload(reference),
          prediction: prediction === undefined ? undefined : normalizeScenarioPayload(prediction),
          conversation: run.turns.map((t) => ({ role: t.role, text: t.text })),
          agentContext: run.agentContext,
          userContext: run.userContext,
          nlAssertions: scenario.nlAssertions,
        },
        input.signal ? { signal: input.signal } : {},
      );
    } catch (error) {
      judgeResult = {
        score: 0,
        reason: 'judge call threw',
        error: error instanceof Error ? error.message : String(error),
      };
    }
    if (judgeResult.error !== undefined)
      judgeUnavailable = `the judge failed: ${judgeResult.error}`;
  }
  const judgeOk = judgeResult !== undefined && judgeResult.error === undefined;
  const judgeScore = judgeOk ? (judgeResult as JudgeResult).score : null;
  const threshold = input.judge?.threshold ?? 0.9;
  const nlVerdicts: NlAssertionVerdict[] =
    judgeOk && scenario.nlAssertions.length > 0
      ? scenario.nlAssertions.map((assertion, i) => {
          const v = (judgeResult as JudgeResult).nl_assertion_verdicts?.[i];
          return {
            index: i + 1,
            assertion,
            passed: v?.passed === true,
            reason: v?.reason ?? 'no verdict from the judge',
          };
        })
      : [];
  const nlRate =
    nlVerdicts.length === 0
      ? ('N/A' as const)
      : nlVerdicts.filter((v) => v.passed).length / nlVerdicts.length;

  // ---- base ----
  const turns: MetricsTurn[] = run.turns.map((t) => {
    const turn: MetricsTurn = { role: t.role, text: t.text, start: t.start, end: t.end };
    if (t.latencyMs !== undefined) turn.latency_ms = t.latencyMs;
    if (t.interrupted) turn.interrupted = true;
    return turn;
  });
  const latencies = latencyRecords(run);
  const agentActions: ActionRecord[] = (run.agentSummary?.actions ?? []).map((a) => ({ ...a }));
  const userActions: ActionRecord[] = (run.userSummary?.actions ?? []).map((a) => ({ ...a }));

  const base: ScenarioSignals['base'] = {
    total_turns: turns.length,
    duration_seconds: turns.length > 0 ? (turns[turns.length - 1] as MetricsTurn).end : 0,
    turns,
    latency_stats: latencyStats(latencies.map((l) => l.latency_ms)),
    latencies,
    scenario_name: scenario.name,
    scenario_directory: input.scenarioDirectory ?? '',
    scenario_duration: input.scenarioDurationSeconds ?? run.durationSeconds,
    stop_reason: run.stopReason,
    token_usage: structuredClone(run.tokenUsage),
    domain: scenario.domain,
    trial: input.trial ?? 1,
    actions: { agent: agentActions, user: userActions },
    reference_action_count: scenario.referenceActions.length,
    failure: run.failure ? { ...run.failure } : null,
    sync_errors: [...run.syncErrors],
    is_action_match: isActionMatch,
    db_state_match: dbStateMatch,
    db_state_expected_hash: expectedHash,
    db_state_actual_hash: actualHash,
    user_db_state_match: userDbStateMatch,
    user_db_state_expected_hash: expectedUserHash,
    user_db_state_actual_hash: actualUserHash,
    db_state_assertion_pass_rate: assertionRate,
    db_state_assertion_verdicts: verdicts,
    nl_assertion_pass_rate: nlRate,
    nl_assertion_verdicts: nlVerdicts,
    judge_score: judgeScore,
    judge_passed: judgeScore === null ? 'N/A' : judgeScore >= threshold,
    judge:
      judgeResult === undefined
        ? null
        : {
            score: judgeScore,
            reason: judgeResult.reason,
            model: judgeResult.model ?? input.judge?.model ?? null,
            error: judgeResult.error ?? null,
          },
    clean_exit: run.stopReason === '[EXIT]',
    stalled,
    scripted: (() => {
      const models = [...run.tokenUsage.agent.models, ...run.tokenUsage.user.models];
      return models.length > 0 && models.every((m) => m.startsWith('scripted:'));
    })(),
    scripted_sides: {
      agent: isScripted(run.tokenUsage.agent),
      user: isScripted(run.tokenUsage.user),
    },
    scoring_warnings: warnings,
  };
  if (dbStateMatch === false) base.db_diff = diffReport('agent', input.expectedDb, actualDb);
  if (userDbStateMatch === false)
    base.user_db_diff = diffReport('user', input.expectedUserDb, actualUserDb);

  const signals: ScenarioSignals = { base, needsJudge, stalled, dbMatch };
  if (judgeResult !== undefined) signals.judgeResult = judgeResult;
  if (judgeUnavailable !== undefined) signals.judgeUnavailable = judgeUnavailable;
  return signals;
}
