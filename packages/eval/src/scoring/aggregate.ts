/**
 * Run-level numbers from per-scenario metrics: success rates with Wilson intervals, per-domain and
 * per-signal rates, failure reasons, latency and token totals, pass^k. `summary.ts` turns them into
 * the `all_summary.txt` text.
 *
 * Conventions (as the NeMo runner): a scenario whose `is_successful` is `'N/A'` is left out of the
 * success rates; stalled scenarios count as failures but are left out of the per-signal rates;
 * db-state and NL assertion rates are per assertion, the other signal rates per scenario; the
 * domain of a scenario is its name up to the first `__`.
 *
 * @module
 */
import { audioAggregate, audioOf, completeAudio } from './audio-aggregate.js';
import type { AudioAggregate } from './audio-aggregate.js';
import { latencyStats } from './signals.js';
import { passHatK, wilsonInterval } from './statistics.js';
import type { PassHatK, Rate, RateWithInterval, TrialCounts } from './statistics.js';
import type { FailureClass, LatencyStats, ScenarioMetrics, Tau2RewardComponent } from './types.js';

/** Per-signal pass rates. */
export interface SignalRates {
  is_action_match: Rate;
  db_state_match: Rate;
  user_db_state_match: Rate;
  /** Per assertion. */
  db_state_assertion: Rate;
  /** Per assertion. */
  nl_assertion: Rate;
  judge_passed: Rate;
  judge_score_mean: number | null;
  judge_score_count: number;
  clean_exit: Rate;
}

/** Token totals of one side. */
export interface TokenTotals {
  n_calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** Numbers of one domain. */
export interface DomainAggregate {
  scenarios: number;
  success: RateWithInterval;
  task_success: RateWithInterval;
  signals: SignalRates;
  stalled: number;
  not_scored: number;
  latency: LatencyStats;
}

/** Everything about a run. */
export interface RunAggregate {
  /** Metrics entries (scenario × trial). */
  results: number;
  unique_scenarios: number;
  /** Most trials of any scenario. */
  trials: number;
  scorer: 'nemo' | 'tau2' | 'mixed' | 'none';
  success: RateWithInterval;
  task_success: RateWithInterval;
  signals: SignalRates;
  per_domain: Record<string, DomainAggregate>;
  not_scored: { scenario: string; reason: string }[];
  stalled: string[];
  failures: { scenario: string; reason: string; infrastructure: boolean }[];
  /** Why scenarios failed or were not scored, counted (a scenario may count under several signals). */
  failure_reasons: Record<string, number>;
  /** Failed scenarios by the class of their `failure_attribution`, most frequent first. */
  failure_causes: Partial<Record<FailureClass, number>>;
  latency: LatencyStats;
  turns: { total: number; mean: number | null; min: number | null; max: number | null };
  /** Sum of `scenario_duration`, seconds. */
  duration_seconds: number;
  tokens: { agent: TokenTotals; user: TokenTotals; total_tokens: number };
  /** Every result was produced by scripted policies only. */
  scripted: boolean;
  /** Results whose agent side was scripted. */
  scripted_agent_results: number;
  /** pass^k for k = 1..min trials, when a scenario ran more than once. */
  pass_hat_k: PassHatK[];
  tau2?: {
    avg_reward: number | null;
    rewarded: number;
    components: Partial<Record<Tau2RewardComponent, Rate>>;
  };
  min_agent_turns?: number;
  /** Audio mode: entity accuracy, clarifications, word error rates (only when a result has audio). */
  audio?: AudioAggregate;
}

function rate(passed: number, total: number): Rate {
  return { passed, total, rate: total === 0 ? null : passed / total };
}

function rateWithInterval(passed: number, total: number): RateWithInterval {
  return { ...rate(passed, total), ci95: wilsonInterval(passed, total) };
}

/**
 * The domain of a result: its scenario name up to the first `__` (the reference's grouping). A
 * name without `__` (NeMo's `simple_qa_1`) goes under its scenario's domain when the metrics
 * carry one, else under the name itself.
 */
export function domainOf(
  metrics: Pick<ScenarioMetrics, 'scenario_name'> & { domain?: string | undefined },
): string {
  const name = metrics.scenario_name;
  const i = name.indexOf('__');
  if (i !== -1) return name.slice(0, i);
  return metrics.domain ?? name;
}

/** Trial counts per scenario from a run's metrics (scored trials only). */
export function trialCounts(metrics: readonly ScenarioMetrics[]): TrialCounts[] {
  const byName = new Map<string, TrialCounts>();
  for (const m of metrics) {
    const entry = byName.get(m.scenario_name) ?? {
      scenario: m.scenario_name,
      domain: domainOf(m),
      trials: 0,
      successes: 0,
    };
    if (typeof m.is_successful === 'boolean') {
      entry.trials++;
      if (m.is_successful) entry.successes++;
    }
    byName.set(m.scenario_name, entry);
  }
  return [...byName.values()];
}

function blankUsage(): ScenarioMetrics['token_usage']['agent'] {
  return { n_calls: 0, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, models: [] };
}

/**
 * Metrics read back from a `metrics.json` (possibly written by an older version, or by the
 * reference harness), with every field this module and the report read filled with a neutral
 * default when missing. Unknown extra fields are kept.
 */
export function coerceMetrics(raw: unknown): ScenarioMetrics {
  const m = (typeof raw === 'object' && raw !== null ? raw : {}) as Partial<ScenarioMetrics> &
    Record<string, unknown>;
  const tokenUsage = (m.token_usage ?? {}) as Partial<ScenarioMetrics['token_usage']>;
  const breakdown = (m.success_breakdown ?? {}) as Partial<ScenarioMetrics['success_breakdown']>;
  const audio = audioOf(m);
  const latencies = Array.isArray(m.latencies)
    ? m.latencies.map((l) =>
        typeof l === 'number' ? { user_transcript: '', agent_transcript: '', latency_ms: l } : l,
      )
    : [];
  return {
    ...m,
    total_turns: m.total_turns ?? (Array.isArray(m.turns) ? m.turns.length : 0),
    duration_seconds: m.duration_seconds ?? 0,
    turns: m.turns ?? [],
    latency_stats: m.latency_stats ?? latencyStats(latencies.map((l) => l.latency_ms)),
    latencies,
    scenario_name: m.scenario_name ?? 'unknown',
    scenario_directory: m.scenario_directory ?? '',
    scenario_duration: m.scenario_duration ?? 0,
    stop_reason: m.stop_reason ?? '[ERROR]',
    token_usage: {
      agent: { ...blankUsage(), ...tokenUsage.agent },
      user: { ...blankUsage(), ...tokenUsage.user },
    },
    domain: m.domain ?? domainOf({ scenario_name: m.scenario_name ?? 'unknown' }),
    trial: m.trial ?? 1,
    actions: { agent: m.actions?.agent ?? [], user: m.actions?.user ?? [] },
    reference_action_count: m.reference_action_count ?? 0,
    failure: m.failure ?? null,
    sync_errors: m.sync_errors ?? [],
    is_action_match: m.is_action_match ?? 'N/A',
    db_state_match: m.db_state_match ?? 'N/A',
    db_state_expected_hash: m.db_state_expected_hash ?? null,
    db_state_actual_hash: m.db_state_actual_hash ?? null,
    user_db_state_match: m.user_db_state_match ?? 'N/A',
    user_db_state_expected_hash: m.user_db_state_expected_hash ?? null,
    user_db_state_actual_hash: m.user_db_state_actual_hash ?? null,
    db_state_assertion_pass_rate: m.db_state_assertion_pass_rate ?? 'N/A',
    db_state_assertion_verdicts: m.db_state_assertion_verdicts ?? [],
    nl_assertion_pass_rate: m.nl_assertion_pass_rate ?? 'N/A',
    nl_assertion_verdicts: m.nl_assertion_verdicts ?? [],
    judge_score: m.judge_score ?? null,
    judge_passed: m.judge_passed ?? 'N/A',
    judge: m.judge ?? null,
    clean_exit: m.clean_exit ?? m.stop_reason === '[EXIT]',
    is_successful: m.is_successful ?? 'N/A',
    success_breakdown: {
      passed: breakdown.passed ?? [],
      failed: breakdown.failed ?? [],
      not_applicable: breakdown.not_applicable ?? [],
      excluded: breakdown.excluded ?? [],
    },
    is_task_successful: m.is_task_successful ?? 'N/A',
    stalled: m.stalled ?? m['insufficient_agent_turns'] === true,
    scorer: m.scorer ?? 'nemo',
    scripted: m.scripted ?? false,
    scripted_sides: m.scripted_sides ?? { agent: false, user: false },
    scoring_warnings: m.scoring_warnings ?? [],
    ...(audio ? { audio: completeAudio(audio) } : {}),
  };
}

function signalRates(metrics: readonly ScenarioMetrics[]): SignalRates {
  const live = metrics.filter((m) => !m.stalled);
  const count = (pick: (m: ScenarioMetrics) => unknown): Rate => {
    const values = live.map(pick).filter((v): v is boolean => typeof v === 'boolean');
    return rate(values.filter(Boolean).length, values.length);
  };
  const assertions = live.flatMap((m) => m.db_state_assertion_verdicts ?? []);
  const nl = live.flatMap((m) => m.nl_assertion_verdicts ?? []);
  const scores = live.map((m) => m.judge_score).filter((s): s is number => typeof s === 'number');
  return {
    is_action_match: count((m) => m.is_action_match),
    db_state_match: count((m) => m.db_state_match),
    user_db_state_match: count((m) => m.user_db_state_match),
    db_state_assertion: rate(assertions.filter((v) => v.passed).length, assertions.length),
    nl_assertion: rate(nl.filter((v) => v.passed).length, nl.length),
    judge_passed: count((m) => m.judge_passed),
    judge_score_mean:
      scores.length === 0 ? null : scores.reduce((s, x) => s + x, 0) / scores.length,
    judge_score_count: scores.length,
    clean_exit: count((m) => m.clean_exit),
  };
}

function successRates(metrics: readonly ScenarioMetrics[]): {
  success: RateWithInterval;
  task: RateWithInterval;
} {
  const scored = metrics.filter((m) => typeof m.is_successful === 'boolean');
  const task = metrics.filter((m) => typeof m.is_task_successful === 'boolean');
  return {
    success: rateWithInterval(scored.filter((m) => m.is_successful === true).length, scored.length),
    task: rateWithInterval(task.filter((m) => m.is_task_successful === true).length, task.length),
  };
}

function allLatencies(metrics: readonly ScenarioMetrics[]): number[] {
  return metrics.flatMap((m) => (m.latencies ?? []).map((l) => l.latency_ms));
}

function emptyTokens(): TokenTotals {
  return { n_calls: 0, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
}

/** Failed scenarios counted by the class of their attribution, most frequent first. */
function failureCauses(metrics: readonly ScenarioMetrics[]): Partial<Record<FailureClass, number>> {
  const counts = new Map<FailureClass, number>();
  for (const m of metrics)
    if (m.failure_attribution)
      counts.set(m.failure_attribution.class, (counts.get(m.failure_attribution.class) ?? 0) + 1);
  return Object.fromEntries([...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
}

/** Aggregate a run's metrics. */
export function aggregateRun(
  metrics: readonly ScenarioMetrics[],
  options: { minAgentTurns?: number } = {},
): RunAggregate {
  const { success, task } = successRates(metrics);
  const byDomain = new Map<string, ScenarioMetrics[]>();
  for (const m of metrics) byDomain.set(domainOf(m), [...(byDomain.get(domainOf(m)) ?? []), m]);

  const perDomain: Record<string, DomainAggregate> = {};
  for (const domain of [...byDomain.keys()].sort()) {
    const list = byDomain.get(domain) ?? [];
    const rates = successRates(list);
    perDomain[domain] = {
      scenarios: list.length,
      success: rates.success,
      task_success: rates.task,
      signals: signalRates(list),
      stalled: list.filter((m) => m.stalled).length,
      not_scored: list.filter((m) => m.is_successful === 'N/A').length,
      latency: latencyStats(allLatencies(list)),
    };
  }

  const failureReasons: Record<string, number> = {};
  const bump = (key: string): void => {
    failureReasons[key] = (failureReasons[key] ?? 0) + 1;
  };
  for (const m of metrics) {
    if (m.is_successful === true) continue;
    if (m.is_successful === 'N/A') bump('not scored');
    else if (m.failure)
      bump(
        m.failure.infrastructure ? 'infrastructure failure' : `bridge failure (${m.failure.phase})`,
      );
    else if (m.stalled) bump('stalled');
    else if (m.tau2?.termination_gate && m.scorer === 'tau2') bump(`terminated (${m.stop_reason})`);
    else if (m.success_breakdown.failed.length === 0) bump('other');
    else for (const signal of m.success_breakdown.failed) bump(`failed: ${signal}`);
  }

  const turnCounts = metrics.map((m) => m.total_turns);
  const tokens = { agent: emptyTokens(), user: emptyTokens(), total_tokens: 0 };
  for (const m of metrics) {
    for (const side of ['agent', 'user'] as const) {
      const usage = m.token_usage?.[side];
      if (!usage) continue;
      tokens[side].n_calls += usage.n_calls ?? 0;
      tokens[side].prompt_tokens += usage.prompt_tokens ?? 0;
      tokens[side].completion_tokens += usage.completion_tokens ?? 0;
      tokens[side].total_tokens +=
        usage.total_tokens ?? (usage.prompt_tokens ?? 0) + (usage.completion_tokens ?? 0);
    }
  }
  tokens.total_tokens = tokens.agent.total_tokens + tokens.user.total_tokens;

  const counts = trialCounts(metrics);
  const perName = new Map<string, number>();
  for (const m of metrics) perName.set(m.scenario_name, (perName.get(m.scenario_name) ?? 0) + 1);
  const trials = Math.max(0, ...perName.values());
  const scoredTrials = counts.filter((c) => c.trials > 0).map((c) => c.trials);
  const passK: PassHatK[] = [];
  if (trials > 1 && scoredTrials.length > 0) {
    for (let k = 1; k <= Math.min(...scoredTrials); k++) passK.push(passHatK(counts, k));
  }

  const scorers = new Set(metrics.map((m) => m.scorer));
  const aggregate: RunAggregate = {
    results: metrics.length,
    unique_scenarios: new Set(metrics.map((m) => m.scenario_name)).size,
    trials,
    scorer:
      scorers.size === 0
        ? 'none'
        : scorers.size > 1
          ? 'mixed'
          : ([...scorers][0] as 'nemo' | 'tau2'),
    success,
    task_success: task,
    signals: signalRates(metrics),
    per_domain: perDomain,
    not_scored: metrics
      .filter((m) => m.is_successful === 'N/A')
      .map((m) => ({ scenario: m.scenario_name, reason: m.not_scored_reason ?? 'not scored' })),
    stalled: metrics.filter((m) => m.stalled).map((m) => m.scenario_name),
    failures: metrics
      .filter((m) => m.failure)
      .map((m) => ({
        scenario: m.scenario_name,
        reason: m.failure?.message ?? '',
        infrastructure: m.failure?.infrastructure ?? false,
      })),
    failure_reasons: failureReasons,
    failure_causes: failureCauses(metrics),
    latency: latencyStats(allLatencies(metrics)),
    turns: {
      total: turnCounts.reduce((s, t) => s + t, 0),
      mean:
        turnCounts.length === 0 ? null : turnCounts.reduce((s, t) => s + t, 0) / turnCounts.length,
      min: turnCounts.length === 0 ? null : Math.min(...turnCounts),
      max: turnCounts.length === 0 ? null : Math.max(...turnCounts),
    },
    duration_seconds: metrics.reduce((s, m) => s + (m.scenario_duration ?? 0), 0),
    tokens,
    scripted: metrics.length > 0 && metrics.every((m) => m.scripted),
    scripted_agent_results: metrics.filter((m) => m.scripted_sides?.agent).length,
    pass_hat_k: passK,
  };
  if (options.minAgentTurns !== undefined) aggregate.min_agent_turns = options.minAgentTurns;
  const audio = audioAggregate(metrics);
  if (audio) aggregate.audio = audio;

  const tau2 = metrics.filter((m) => m.tau2 !== undefined);
  if (tau2.length > 0) {
    const rewards = tau2
      .map((m) => m.tau2?.reward)
      .filter((r): r is number => typeof r === 'number');
    const components: Partial<Record<Tau2RewardComponent, Rate>> = {};
    for (const c of ['DB', 'ENV_ASSERTION', 'ACTION', 'COMMUNICATE', 'NL_ASSERTION'] as const) {
      const values = tau2
        .filter((m) => !m.stalled)
        .map((m) => m.tau2?.reward_breakdown[c])
        .filter((v): v is number => typeof v === 'number');
      if (values.length > 0)
        components[c] = rate(values.filter((v) => Math.abs(v - 1) <= 1e-6).length, values.length);
    }
    aggregate.tau2 = {
      avg_reward: rewards.length === 0 ? null : rewards.reduce((s, r) => s + r, 0) / rewards.length,
      rewarded: rewards.length,
      components,
    };
  }
  return aggregate;
}
