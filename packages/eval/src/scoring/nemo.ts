/**
 * The NeMo harness's scoring (evaluation.md A5): six signals and their composite.
 *
 * - `is_action_match`: the reference answer (`{"actions": gold actions}`) against the prediction
 *   (pushed final responses when there are any, else the pulled actions of both bots with their
 *   side). The reference used the push path whenever the push list existed, even empty; we use it
 *   only when there are final responses.
 * - `db_state_match`: expected agent-db hash == the agent bot's `db_hash`; a missing hash fails.
 *   The user db is compared too when an expected one exists (`user_db_state_match`); both must
 *   match for the `db_state_match` gate (the reference never compares the user db).
 * - `db_state_assertion`: predicates over the pulled dbs; passes at rate 1.0.
 * - `nl_assertion`, `judge_passed`: from the LLM judge (threshold 0.9); pass rate 1.0 for NL.
 * - `clean_exit`: `stop_reason == "[EXIT]"`.
 *
 * Composite: `is_successful` = AND over the applicable signals of the scenario's
 * `successSignals` whitelist (`'N/A'` when none applies); `is_task_successful` ignores
 * `clean_exit`. Overrides, in order: a bridge failure -> false; the stall rule (fewer agent LLM
 * calls than `minAgentTurns`) -> false and `stalled`; a gating signal that needs the judge while
 * there is none (or it failed) -> `'N/A'` with `not_scored_reason`, never false (counting only the
 * failures of such scenarios would bias the success rate down).
 *
 * @module
 */
import { computeSignals } from './signals.js';
import type { ScenarioSignals } from './signals.js';
import type { ScoreInput } from './score-input.js';
import { SIGNAL_NAMES } from './types.js';
import type { ScenarioMetrics, SignalName, SuccessBreakdown } from './types.js';

/** The stall rule's default: fewer agent LLM calls than this is a stalled run. */
export const DEFAULT_MIN_AGENT_TURNS = 3;

/** Per-signal pass/fail/N-A (`null`) values the composite is taken over. */
export function signalChecks(signals: ScenarioSignals): Record<SignalName, boolean | null> {
  const b = signals.base;
  const rate = (v: number | 'N/A'): boolean | null => (v === 'N/A' ? null : v >= 1.0);
  return {
    is_action_match: b.is_action_match === 'N/A' ? null : b.is_action_match,
    db_state_match: signals.dbMatch,
    db_state_assertion: rate(b.db_state_assertion_pass_rate),
    nl_assertion: rate(b.nl_assertion_pass_rate),
    judge_passed: b.judge_passed === 'N/A' ? null : b.judge_passed,
    clean_exit: b.clean_exit,
  };
}

/** `{passed, failed, not_applicable}` over the whitelist, `excluded` = computed but not whitelisted. */
export function successBreakdown(
  checks: Record<SignalName, boolean | null>,
  whitelist: ReadonlySet<string>,
): SuccessBreakdown {
  const breakdown: SuccessBreakdown = { passed: [], failed: [], not_applicable: [], excluded: [] };
  for (const name of SIGNAL_NAMES) {
    const value = checks[name];
    if (!whitelist.has(name)) {
      if (value !== null) breakdown.excluded.push(name);
    } else if (value === true) breakdown.passed.push(name);
    else if (value === false) breakdown.failed.push(name);
    else breakdown.not_applicable.push(name);
  }
  return breakdown;
}

/** Combine computed signals into NeMo-style metrics. */
export function composeNemo(signals: ScenarioSignals, input: ScoreInput): ScenarioMetrics {
  const { scenario, run } = input;
  const checks = signalChecks(signals);
  const whitelist = new Set<string>(scenario.successSignals);
  const breakdown = successBreakdown(checks, whitelist);
  const metrics: ScenarioMetrics = {
    ...signals.base,
    is_successful: 'N/A',
    success_breakdown: breakdown,
    is_task_successful: 'N/A',
    scorer: 'nemo',
  };
  const minAgentTurns = input.minAgentTurns ?? DEFAULT_MIN_AGENT_TURNS;
  if (run.failure) {
    metrics.is_successful = false;
    metrics.is_task_successful = false;
    metrics.failure_reason = `bridge failure (${run.failure.phase}${run.failure.infrastructure ? ', infrastructure' : ''}): ${run.failure.message}`;
    return metrics;
  }
  if (signals.stalled) {
    metrics.is_successful = false;
    metrics.is_task_successful = false;
    metrics.failure_reason = `stalled: the agent made ${run.tokenUsage.agent.n_calls} LLM call(s), fewer than min_agent_turns=${minAgentTurns}`;
    return metrics;
  }
  if (signals.needsJudge.length > 0 && signals.judgeUnavailable !== undefined) {
    metrics.not_scored_reason = `${signals.needsJudge.join(' and ')} need${signals.needsJudge.length === 1 ? 's' : ''} the LLM judge: ${signals.judgeUnavailable}`;
    return metrics;
  }
  const applicable = breakdown.passed.length + breakdown.failed.length;
  if (applicable === 0) {
    metrics.not_scored_reason =
      scenario.successSignals.length === 0
        ? 'the scenario has no success signals'
        : `none of the scenario's success signals (${scenario.successSignals.join(', ')}) applies`;
    return metrics;
  }
  metrics.is_successful = breakdown.failed.length === 0;
  metrics.is_task_successful = breakdown.failed.filter((s) => s !== 'clean_exit').length === 0;
  return metrics;
}

/** Score one scenario the NeMo way. */
export async function scoreScenario(input: ScoreInput): Promise<ScenarioMetrics> {
  const signals = await computeSignals(input, { minAgentTurns: DEFAULT_MIN_AGENT_TURNS });
  return composeNemo(signals, input);
}
