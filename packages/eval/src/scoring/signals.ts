/**
 * What both scorers share: the base metrics of a run and its individual signals (action match,
 * db hashes, db-state assertions, the judge call) before they are combined.
 *
 * @module
 */
import type { Scenario, SuccessSignal } from '@scenaro/domains';
import type { ActionRecord } from '@scenaro/sdk/protocol';
import type { ScenarioRun, SideTokenUsage, Turn } from '../bridge/types.js';
import { assertionSignals, dbDiffs, dbStateSignals } from './db-signals.js';
import type { JudgeResult } from './judge.js';
import { judgeSignals } from './judge-signals.js';
import type { JudgedActions } from './judge-signals.js';
import { checkActionMatch } from './match.js';
import type { ScoreInput } from './score-input.js';
import type { LatencyRecord, LatencyStats, MetricsTurn, ScenarioMetrics } from './types.js';
import { isJsonObject } from '@scenaro/sdk/util';

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
    | 'audio'
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

/** The conversation's part of the base metrics: turns, latencies, tokens, actions, failure. */
type ConversationFields = Pick<
  ScenarioMetrics,
  | 'total_turns'
  | 'duration_seconds'
  | 'turns'
  | 'latency_stats'
  | 'latencies'
  | 'scenario_name'
  | 'scenario_directory'
  | 'scenario_duration'
  | 'stop_reason'
  | 'token_usage'
  | 'domain'
  | 'trial'
  | 'actions'
  | 'reference_action_count'
  | 'failure'
  | 'sync_errors'
>;

/**
 * Compute every signal of one scenario, calling the judge when it is configured and the scenario
 * needs it (or has NL assertions, or `judgeAll`). The judge is not called for a run that failed
 * or stalled: its verdict could not change the outcome.
 */
export async function computeSignals(
  input: ScoreInput,
  defaults: { minAgentTurns: number },
): Promise<ScenarioSignals> {
  const minAgentTurns = input.minAgentTurns ?? defaults.minAgentTurns;
  const stalled = minAgentTurns > 0 && input.run.tokenUsage.agent.n_calls < minAgentTurns;
  const actions = actionMatch(input);
  const db = dbStateSignals(input);
  const judge = await judgeSignals(input, actions, stalled);
  const base: ScenarioSignals['base'] = {
    ...conversationFields(input),
    is_action_match: actions.isActionMatch,
    ...db.fields,
    ...assertionSignals(input, db),
    ...judge.fields,
    ...runFlags(input.run, stalled),
    scoring_warnings: db.warnings,
    ...dbDiffs(input, db),
  };
  const signals: ScenarioSignals = {
    base,
    needsJudge: judge.needsJudge,
    stalled,
    dbMatch: db.dbMatch,
  };
  if (judge.judgeResult !== undefined) signals.judgeResult = judge.judgeResult;
  if (judge.judgeUnavailable !== undefined) signals.judgeUnavailable = judge.judgeUnavailable;
  return signals;
}

/** The action match: the run's actions (see {@link buildActionPrediction}) against the reference. */
function actionMatch(input: ScoreInput): JudgedActions & { isActionMatch: boolean } {
  const reference = buildActionReference(input.scenario, input.referenceAnswer);
  const prediction = buildActionPrediction(input.run);
  const isActionMatch =
    prediction === undefined
      ? false
      : checkActionMatch(reference, prediction, {
          ...input.matchOptions,
          disallowExtraItems:
            (input.strictMatch ?? false) || (input.matchOptions?.disallowExtraItems ?? false),
        });
  return { reference, prediction, isActionMatch };
}

function conversationFields(input: ScoreInput): ConversationFields {
  const { scenario, run } = input;
  const turns = run.turns.map(metricsTurn);
  const latencies = latencyRecords(run);
  return {
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
    actions: {
      agent: (run.agentSummary?.actions ?? []).map((a): ActionRecord => ({ ...a })),
      user: (run.userSummary?.actions ?? []).map((a): ActionRecord => ({ ...a })),
    },
    reference_action_count: scenario.referenceActions.length,
    failure: run.failure ? { ...run.failure } : null,
    sync_errors: [...run.syncErrors],
  };
}

function metricsTurn(t: Turn): MetricsTurn {
  const turn: MetricsTurn = { role: t.role, text: t.text, start: t.start, end: t.end };
  if (t.latencyMs !== undefined) turn.latency_ms = t.latencyMs;
  if (t.interrupted) turn.interrupted = true;
  return turn;
}

/** How the run ended and which sides were scripted policies. */
function runFlags(
  run: ScenarioRun,
  stalled: boolean,
): Pick<ScenarioMetrics, 'clean_exit' | 'stalled' | 'scripted' | 'scripted_sides'> {
  const models = [...run.tokenUsage.agent.models, ...run.tokenUsage.user.models];
  return {
    clean_exit: run.stopReason === '[EXIT]',
    stalled,
    scripted: models.length > 0 && models.every((m) => m.startsWith('scripted:')),
    scripted_sides: {
      agent: isScripted(run.tokenUsage.agent),
      user: isScripted(run.tokenUsage.user),
    },
  };
}

function isScripted(usage: SideTokenUsage): boolean {
  return usage.models.length > 0 && usage.models.every((m) => m.startsWith('scripted:'));
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

/** The agent's (and user's) actions as the prediction of the action match: pushed final responses when there are any, else the pulled actions with their side; `undefined` when the run has neither. */
export function buildActionPrediction(run: ScenarioRun): unknown[] | undefined {
  if (run.finalResponses.length > 0) {
    return run.finalResponses.map((r) => (isJsonObject(r) ? r : { message: r }));
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
