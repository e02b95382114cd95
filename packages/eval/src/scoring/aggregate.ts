/**
 * Run-level numbers from per-scenario metrics: success rates with Wilson intervals, per-domain and
 * per-signal rates, failure reasons, latency and token totals, pass^k; and the `all_summary.txt`
 * text.
 *
 * Conventions (as the NeMo runner): a scenario whose `is_successful` is `'N/A'` is left out of the
 * success rates; stalled scenarios count as failures but are left out of the per-signal rates;
 * db-state and NL assertion rates are per assertion, the other signal rates per scenario; the
 * domain of a scenario is its name up to the first `__`.
 *
 * @module
 */
import { latencyStats } from './signals.js';
import type { LatencyStats, ScenarioMetrics, Tau2RewardComponent } from './types.js';

/** `passed / total` (`rate` null when `total` is 0). */
export interface Rate {
  passed: number;
  total: number;
  rate: number | null;
}

/** A rate with its Wilson 95 % interval. */
export interface RateWithInterval extends Rate {
  ci95: [number, number] | null;
}

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

/** pass^k over tasks (and per domain). */
export interface PassHatK {
  /** The k used (capped at the smallest trial count). */
  k: number;
  requested_k: number;
  /** Mean over tasks of C(c, k) / C(n, k); null without tasks. */
  value: number | null;
  tasks: number;
  per_domain: Record<string, number>;
}

/** One task's trials, for pass^k. */
export interface TrialCounts {
  scenario: string;
  domain: string;
  /** Scored trials. */
  trials: number;
  successes: number;
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
}

function rate(passed: number, total: number): Rate {
  return { passed, total, rate: total === 0 ? null : passed / total };
}

function rateWithInterval(passed: number, total: number): RateWithInterval {
  return { ...rate(passed, total), ci95: wilsonInterval(passed, total) };
}

/** 97.5th percentile of the standard normal. */
const Z95 = 1.959963984540054;

/** Wilson score interval of `successes / n` (`null` when n = 0). */
export function wilsonInterval(
  successes: number,
  n: number,
  z: number = Z95,
): [number, number] | null {
  if (n <= 0) return null;
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  return [Math.max(0, center - half), Math.min(1, center + half)];
}

/** The binomial coefficient C(n, k), exact. */
export function binomial(n: number, k: number): bigint {
  if (!Number.isInteger(n) || !Number.isInteger(k) || k < 0 || n < 0 || k > n) return 0n;
  const kk = BigInt(Math.min(k, n - k));
  const nn = BigInt(n);
  let result = 1n;
  for (let i = 1n; i <= kk; i++) result = (result * (nn - kk + i)) / i;
  return result;
}

function bitLength(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length;
}

/** `num / den` for non-negative bigints, rounded to a double without overflow. */
function ratio(num: bigint, den: bigint): number {
  if (num === 0n) return 0;
  const shift = bitLength(den) - bitLength(num) + 64;
  const q = shift >= 0 ? (num << BigInt(shift)) / den : num / (den << BigInt(-shift));
  return Number(q) * 2 ** -shift;
}

/** One task's pass^k = C(c, k) / C(n, k) (c successes in n trials), exact up to the final division. */
export function passHatKTask(n: number, c: number, k: number): number {
  if (k > n) throw new RangeError(`pass^k needs k <= n (k=${k}, n=${n})`);
  return ratio(binomial(c, k), binomial(n, k));
}

/**
 * pass^k: the mean over tasks of C(c, k) / C(n, k), with k capped at the smallest trial count of
 * any task (as tau2 does), and the same mean per domain.
 */
export function passHatK(results: readonly TrialCounts[], k: number): PassHatK {
  const tasks = results.filter((r) => r.trials > 0);
  if (tasks.length === 0) return { k, requested_k: k, value: null, tasks: 0, per_domain: {} };
  const used = Math.max(1, Math.min(k, ...tasks.map((t) => t.trials)));
  const byDomain = new Map<string, number[]>();
  const values = tasks.map((t) => {
    const v = passHatKTask(t.trials, t.successes, used);
    byDomain.set(t.domain, [...(byDomain.get(t.domain) ?? []), v]);
    return v;
  });
  const mean = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
  return {
    k: used,
    requested_k: k,
    value: mean(values),
    tasks: tasks.length,
    per_domain: Object.fromEntries(
      [...byDomain.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([d, xs]) => [d, mean(xs)]),
    ),
  };
}

/** The domain of a result: its scenario name up to the first `__` (the reference's grouping). */
export function domainOf(metrics: Pick<ScenarioMetrics, 'scenario_name'>): string {
  const name = metrics.scenario_name;
  const i = name.indexOf('__');
  return i === -1 ? name : name.slice(0, i);
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

// ---------------------------------------------------------------------------------------------
// all_summary.txt
// ---------------------------------------------------------------------------------------------

const RULE = '-'.repeat(80);

function pct(r: Rate): string {
  return r.rate === null ? 'N/A' : `${(r.rate * 100).toFixed(2)}%`;
}

function pctPadded(r: Rate): string {
  return r.rate === null ? '   N/A' : (r.rate * 100).toFixed(2).padStart(6) + '%';
}

function interval(r: RateWithInterval): string {
  return r.ci95 === null
    ? ''
    : `, 95% CI ${(r.ci95[0] * 100).toFixed(1)}-${(r.ci95[1] * 100).toFixed(1)}%`;
}

function fmtValue(v: unknown): string {
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (v === null || v === undefined) return 'None';
  return String(v);
}

function thousands(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

function latencyLines(stats: LatencyStats, indent: string): string[] {
  return [
    `${indent}Mean: ${stats.mean_ms.toFixed(1)}ms`,
    `${indent}P50: ${stats.p50_ms.toFixed(1)}ms`,
    `${indent}P95: ${stats.p95_ms.toFixed(1)}ms`,
    `${indent}Min: ${stats.min_ms.toFixed(1)}ms`,
    `${indent}Max: ${stats.max_ms.toFixed(1)}ms`,
  ];
}

function scenarioBlock(m: ScenarioMetrics): string[] {
  const lines = [`====== ${m.scenario_name}${m.trial > 1 ? ` (trial ${m.trial})` : ''} ======:`];
  lines.push(`  Is successful: ${fmtValue(m.is_successful)}`);
  lines.push(`  Is task-successful (excl. clean_exit): ${fmtValue(m.is_task_successful)}`);
  if (m.not_scored_reason) lines.push(`  [NOT SCORED: ${m.not_scored_reason}]`);
  if (m.failure_reason) lines.push(`  Failure: ${m.failure_reason}`);
  lines.push(`    Action-list match: ${fmtValue(m.is_action_match)}`);
  if (m.db_state_match !== 'N/A') lines.push(`    DB-state match: ${fmtValue(m.db_state_match)}`);
  if (m.user_db_state_match !== 'N/A')
    lines.push(`    User DB-state match: ${fmtValue(m.user_db_state_match)}`);
  if (typeof m.db_state_assertion_pass_rate === 'number') {
    lines.push(
      `    DB-state-assertion pass rate: ${(m.db_state_assertion_pass_rate * 100).toFixed(2)}%`,
    );
  }
  if (typeof m.nl_assertion_pass_rate === 'number') {
    lines.push(`    NL-assertion pass rate: ${(m.nl_assertion_pass_rate * 100).toFixed(2)}%`);
  }
  if (typeof m.judge_score === 'number') lines.push(`    Judge score: ${m.judge_score.toFixed(2)}`);
  if (m.judge_passed !== 'N/A') lines.push(`    Judge passed: ${fmtValue(m.judge_passed)}`);
  if (m.tau2) {
    const parts = m.tau2.reward_basis
      .map((c) => `${c}=${fmtValue(m.tau2?.reward_breakdown[c])}`)
      .join(', ');
    lines.push(`    tau2 reward: ${fmtValue(m.tau2.reward)} (${parts || 'empty basis'})`);
  }
  if (m.success_breakdown.failed.length > 0)
    lines.push(`    Failed signals: ${m.success_breakdown.failed.join(', ')}`);
  lines.push(`  Stop reason: ${m.stop_reason}`);
  lines.push(`  Turns: ${m.total_turns}`);
  if (m.stalled)
    lines.push(
      '  [COUNTED AS FAILURE: insufficient agent turns / stalled — excluded from per-signal rates]',
    );
  lines.push(`  Duration: ${m.scenario_duration.toFixed(1)}s`);
  if (m.scenario_duration > 0)
    lines.push(`  Turns/min: ${(m.total_turns / (m.scenario_duration / 60)).toFixed(1)}`);
  lines.push(`  Latency Measurements: ${m.latency_stats.count}`);
  if (m.latency_stats.count > 0) lines.push(...latencyLines(m.latency_stats, '    '));
  return lines;
}

/** The text of `all_summary.txt`. */
export function formatSummary(
  aggregate: RunAggregate,
  metrics: readonly ScenarioMetrics[],
): string {
  const out: string[] = [];
  const scriptedNote = aggregate.scripted
    ? 'Every result in this run came from SCRIPTED policies (no LLM). These numbers check the harness, not a model.'
    : aggregate.scripted_agent_results > 0
      ? `${aggregate.scripted_agent_results} of ${aggregate.results} result(s) had a SCRIPTED agent (no LLM); they do not measure a model.`
      : undefined;
  if (scriptedNote) {
    out.push('#'.repeat(80), `# ${scriptedNote}`, '#'.repeat(80), '');
  }
  out.push('EVALUATION SUMMARY', '='.repeat(80), '');
  out.push(`Total Scenarios: ${aggregate.unique_scenarios}`);
  if (aggregate.trials > 1)
    out.push(`Trials per Scenario: up to ${aggregate.trials} (${aggregate.results} results)`);
  out.push(`Scorer: ${aggregate.scorer}`);
  out.push(`Total Duration: ${(aggregate.duration_seconds / 60).toFixed(1)}mins`);
  out.push(`Total Turns: ${aggregate.turns.total}`, '');

  out.push('Per-Scenario Results:', RULE);
  for (const m of metrics) out.push('', ...scenarioBlock(m));

  out.push('', '', 'Overall Latency Statistics:', RULE);
  out.push(`  Total Measurements: ${aggregate.latency.count}`);
  out.push(...latencyLines(aggregate.latency, '  '));

  if (aggregate.stalled.length > 0) {
    const threshold =
      aggregate.min_agent_turns !== undefined
        ? `fewer than ${aggregate.min_agent_turns} agent turn(s)`
        : 'too few agent turns';
    out.push(
      '',
      '',
      `WARNING: ${aggregate.stalled.length} scenario(s) had ${threshold} (likely stalled LLM / server hang) and were counted as failures.`,
      `Stalled scenarios: ${aggregate.stalled.join(', ')}`,
      'Resume the run to retry them.',
    );
  }
  if (aggregate.failures.length > 0) {
    out.push(
      '',
      '',
      `WARNING: ${aggregate.failures.length} scenario(s) failed in the harness and were counted as failures:`,
    );
    for (const f of aggregate.failures)
      out.push(`  ${f.scenario}: ${f.infrastructure ? '[infrastructure] ' : ''}${f.reason}`);
  }
  if (aggregate.not_scored.length > 0) {
    out.push(
      '',
      '',
      `NOT SCORED: ${aggregate.not_scored.length} scenario(s) left out of the success rates:`,
    );
    for (const n of aggregate.not_scored) out.push(`  ${n.scenario}: ${n.reason}`);
  }

  const s = aggregate.success;
  if (s.total > 0) {
    out.push(
      '',
      '',
      `Overall Success Rate: ${pct(s)} (${s.passed}/${s.total} scenarios — strict conjunction across all applicable signals${interval(s)})`,
    );
    const t = aggregate.task_success;
    if (t.total > 0)
      out.push(
        `Task Success Rate (excl. clean_exit): ${pct(t)} (${t.passed}/${t.total} scenarios${interval(t)})`,
      );
  } else {
    out.push('', '', 'Overall Success Rate: N/A (no scenarios had any applicable signal)');
  }

  const sig = aggregate.signals;
  out.push('', 'Per-signal pass rates:');
  const signalLine = (label: string, r: Rate, unit: string): void => {
    if (r.total > 0)
      out.push(`  ${label.padEnd(29)}${pctPadded(r)} (${r.passed}/${r.total} ${unit})`);
  };
  signalLine('Action-list match:', sig.is_action_match, 'scenarios');
  signalLine('DB-State match:', sig.db_state_match, 'scenarios');
  signalLine('User DB-State match:', sig.user_db_state_match, 'scenarios');
  signalLine('DB-State-Assertion pass:', sig.db_state_assertion, 'predicates');
  signalLine('NL-Assertion pass:', sig.nl_assertion, 'assertions');
  if (sig.judge_score_mean !== null) {
    out.push(
      `  ${'Judge score mean:'.padEnd(29)}${sig.judge_score_mean.toFixed(3)} (across ${sig.judge_score_count} scenarios)`,
    );
  }
  signalLine('Judge passed (>= threshold):', sig.judge_passed, 'scenarios');
  signalLine('Clean exit:', sig.clean_exit, 'scenarios');

  if (aggregate.tau2) {
    out.push('', 'tau2 reward:');
    out.push(
      `  Average reward: ${aggregate.tau2.avg_reward === null ? 'N/A' : aggregate.tau2.avg_reward.toFixed(4)} (${aggregate.tau2.rewarded} scored)`,
    );
    for (const [c, r] of Object.entries(aggregate.tau2.components)) {
      out.push(`  ${`${c}:`.padEnd(29)}${pctPadded(r)} (${r.passed}/${r.total} scenarios)`);
    }
  }

  if (aggregate.pass_hat_k.length > 0) {
    out.push('', '', 'pass^k (mean over tasks of C(c,k)/C(n,k)):', RULE);
    for (const p of aggregate.pass_hat_k) {
      const domains = Object.entries(p.per_domain)
        .map(([d, v]) => `${d} ${(v * 100).toFixed(2)}%`)
        .join(', ');
      out.push(
        `  pass^${p.k}: ${p.value === null ? 'N/A' : `${(p.value * 100).toFixed(2)}%`} (${p.tasks} tasks)${domains ? ` — ${domains}` : ''}`,
      );
    }
  }

  const tokens = aggregate.tokens;
  if (tokens.agent.n_calls + tokens.user.n_calls > 0) {
    out.push('', '', 'Token Usage:', RULE);
    for (const side of ['agent', 'user'] as const) {
      const b = tokens[side];
      out.push(
        `  ${side}: ${b.n_calls} call(s), prompt=${thousands(b.prompt_tokens)}, completion=${thousands(b.completion_tokens)}, total=${thousands(b.prompt_tokens + b.completion_tokens)}`,
      );
    }
    out.push(
      `  Run total: ${thousands(tokens.agent.prompt_tokens + tokens.agent.completion_tokens + tokens.user.prompt_tokens + tokens.user.completion_tokens)} tokens`,
    );
  }

  const domains = Object.entries(aggregate.per_domain);
  if (domains.length > 1) {
    const block = (title: string, pick: (d: DomainAggregate) => Rate): void => {
      const rows = domains.filter(([, d]) => pick(d).total > 0);
      if (rows.length === 0) return;
      out.push('', title, RULE);
      for (const [name, d] of rows) {
        const r = pick(d);
        out.push(`  ${name}: ${pct(r)} (${r.passed}/${r.total})`);
      }
    };
    out.push('');
    block('Per-Domain Success Rate:', (d) => d.success);
    block('Per-Domain Task Success Rate (excl. clean_exit):', (d) => d.task_success);
    block('Per-Domain DB-State Match Rate:', (d) => d.signals.db_state_match);
    block('Per-Domain NL-Assertion Pass Rate:', (d) => d.signals.nl_assertion);
    block('Per-Domain DB-State-Assertion Pass Rate:', (d) => d.signals.db_state_assertion);
  }
  return `${out.join('\n')}\n`;
}
