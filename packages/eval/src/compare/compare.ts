/**
 * Comparing two runs of the same scenarios: which scenarios flipped (fixed or broken), how the
 * pass rate moved with its paired interval and exact McNemar test, how latency, turns and word
 * error rates moved per scenario and over the run, and whether the move is outside the noise
 * that repeated trials show.
 *
 * @module
 */
import type { ScenarioMetrics } from '../scoring/types.js';
import { CompareError } from './load.js';
import type { LoadedRun } from './load.js';
import { exactMcNemar, noiseFloor, pairedBootstrap } from './stats.js';
import type { BootstrapInterval, NoiseFloor } from './stats.js';

/** One per-scenario number compare follows. */
export interface ComparedMetric {
  key: string;
  label: string;
  unit: 'ms' | 'turns' | 'ratio';
  /** Which way is better, for the verdict on a delta. */
  better: 'lower' | 'higher';
  read(metrics: ScenarioMetrics): number | null;
}

/** The numbers compared per scenario; a metric a run lacks is left out of its pairs. */
export const COMPARED_METRICS: readonly ComparedMetric[] = [
  {
    key: 'latency_p50_ms',
    label: 'latency p50',
    unit: 'ms',
    better: 'lower',
    read: (m) => (m.latency_stats.count > 0 ? m.latency_stats.p50_ms : null),
  },
  {
    key: 'latency_p95_ms',
    label: 'latency p95',
    unit: 'ms',
    better: 'lower',
    read: (m) => (m.latency_stats.count > 0 ? m.latency_stats.p95_ms : null),
  },
  { key: 'turns', label: 'turns', unit: 'turns', better: 'lower', read: (m) => m.total_turns },
  {
    key: 'agent_wer',
    label: "WER of the agent's ear",
    unit: 'ratio',
    better: 'lower',
    read: (m) => m.audio?.wer.agent_stt.wer ?? null,
  },
  {
    key: 'user_wer',
    label: "WER of the user's ear",
    unit: 'ratio',
    better: 'lower',
    read: (m) => m.audio?.wer.user_stt.wer ?? null,
  },
];

/** A scenario's result as compare sees it. */
export type Outcome = 'pass' | 'fail' | 'not-scored';

function outcomeOf(m: ScenarioMetrics): Outcome {
  return m.is_successful === true ? 'pass' : m.is_successful === false ? 'fail' : 'not-scored';
}

/** Why a failed scenario failed, in a few words (its attribution when scored with one). */
export function failureCause(m: ScenarioMetrics): string {
  if (m.failure_attribution) return m.failure_attribution.summary;
  if (m.failure)
    return `${m.failure.infrastructure ? 'infrastructure' : 'bridge'} (${m.failure.phase}): ${m.failure.message}`;
  const failed = m.success_breakdown.failed;
  return failed.length > 0 ? `failed: ${failed.join(', ')}` : (m.not_scored_reason ?? '');
}

/** One scenario in both runs. */
export interface ScenarioComparison {
  scenario: string;
  domain: string;
  /** Trials paired (scored in both runs). */
  trials: number;
  passes_a: number;
  passes_b: number;
  /** All paired trials passed in A and failed in B (broken), the other way (fixed), or both. */
  flip: 'fixed' | 'broken' | 'mixed' | null;
  /** Trial pairs that failed in A and passed in B, and the other way. */
  fixed_trials: number;
  broken_trials: number;
  /** Trials scored in only one run, or in neither. */
  unpaired_trials: number;
  /** Mean of each metric over the scenario's trials, per run, and B - A. */
  metrics: Record<string, { a: number; b: number; delta: number }>;
  /** Failure causes of the failed trials, per run. */
  causes_a: string[];
  causes_b: string[];
}

/** A metric's move over the run. */
export interface MetricDelta extends BootstrapInterval {
  key: string;
  label: string;
  unit: ComparedMetric['unit'];
  better: ComparedMetric['better'];
  mean_a: number;
  mean_b: number;
}

/** What the pass-rate move means. */
export type Verdict = 'no-change' | 'within-noise' | 'not-significant' | 'improved' | 'regressed';

/** The whole comparison. */
export interface RunComparison {
  a: { dir: string; name: string; scenarios: number };
  b: { dir: string; name: string; scenarios: number };
  scorer: string;
  /** Scenarios in both runs. */
  paired_scenarios: number;
  /** Trial pairs scored in both runs. */
  paired_trials: number;
  only_in_a: string[];
  only_in_b: string[];
  pass_rate_a: number | null;
  pass_rate_b: number | null;
  /** B - A over the paired trials, with a paired bootstrap interval (resampled by scenario). */
  pass_rate_delta: BootstrapInterval | null;
  /** Trial pairs that failed in A and passed in B, and the other way. */
  fixed: number;
  broken: number;
  flip_rate: number | null;
  mcnemar_p: number;
  noise_floor: NoiseFloor | null;
  verdict: Verdict;
  scenarios: ScenarioComparison[];
  metrics: MetricDelta[];
  seed: number;
}

/** Options of {@link compareRuns}. */
export interface CompareOptions {
  /** Seed of the bootstrap. @default 1 */
  seed?: number;
  /** Significance level of a regression or an improvement. @default 0.05 */
  alpha?: number;
}

const key = (m: ScenarioMetrics): string => m.scenario_name;

function byScenario(
  metrics: readonly ScenarioMetrics[],
): Map<string, Map<number, ScenarioMetrics>> {
  const map = new Map<string, Map<number, ScenarioMetrics>>();
  for (const m of metrics) {
    const trials = map.get(key(m)) ?? new Map<number, ScenarioMetrics>();
    trials.set(m.trial ?? 1, m);
    map.set(key(m), trials);
  }
  return map;
}

const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;

function compareScenario(
  scenario: string,
  a: Map<number, ScenarioMetrics>,
  b: Map<number, ScenarioMetrics>,
): ScenarioComparison {
  const trialNumbers = [...new Set([...a.keys(), ...b.keys()])].sort((x, y) => x - y);
  let trials = 0;
  let passesA = 0;
  let passesB = 0;
  let fixed = 0;
  let broken = 0;
  const causesA: string[] = [];
  const causesB: string[] = [];
  for (const t of trialNumbers) {
    const ma = a.get(t);
    const mb = b.get(t);
    if (ma && outcomeOf(ma) === 'fail') causesA.push(failureCause(ma));
    if (mb && outcomeOf(mb) === 'fail') causesB.push(failureCause(mb));
    if (!ma || !mb || outcomeOf(ma) === 'not-scored' || outcomeOf(mb) === 'not-scored') continue;
    trials++;
    const passA = outcomeOf(ma) === 'pass';
    const passB = outcomeOf(mb) === 'pass';
    if (passA) passesA++;
    if (passB) passesB++;
    if (!passA && passB) fixed++;
    if (passA && !passB) broken++;
  }
  const metrics: ScenarioComparison['metrics'] = {};
  for (const spec of COMPARED_METRICS) {
    const va = [...a.values()].map(spec.read).filter((v): v is number => v !== null);
    const vb = [...b.values()].map(spec.read).filter((v): v is number => v !== null);
    if (va.length === 0 || vb.length === 0) continue;
    const [ma, mb] = [mean(va), mean(vb)];
    metrics[spec.key] = { a: ma, b: mb, delta: mb - ma };
  }
  const first = a.values().next().value ?? b.values().next().value;
  return {
    scenario,
    domain: first?.domain ?? '',
    trials,
    passes_a: passesA,
    passes_b: passesB,
    flip: fixed > 0 && broken > 0 ? 'mixed' : fixed > 0 ? 'fixed' : broken > 0 ? 'broken' : null,
    fixed_trials: fixed,
    broken_trials: broken,
    unpaired_trials: trialNumbers.length - trials,
    metrics,
    causes_a: causesA,
    causes_b: causesB,
  };
}

function verdictOf(
  delta: number,
  flips: number,
  p: number,
  floor: NoiseFloor | null,
  alpha: number,
): Verdict {
  if (flips === 0) return 'no-change';
  if (floor && Math.abs(delta) <= floor.pass_rate_band) return 'within-noise';
  if (p >= alpha) return 'not-significant';
  return delta > 0 ? 'improved' : 'regressed';
}

/**
 * Compare run B against run A (the baseline). Runs with no scenario in common, or scored by
 * different scorers, cannot be compared: a {@link CompareError} says so.
 */
export function compareRuns(
  a: LoadedRun,
  b: LoadedRun,
  options: CompareOptions = {},
): RunComparison {
  const seed = options.seed ?? 1;
  if (a.scorer !== b.scorer)
    throw new CompareError(
      `the runs were scored differently (${a.name}: ${a.scorer}, ${b.name}: ${b.scorer}); ` +
        'compare runs scored the same way',
    );
  const mapA = byScenario(a.metrics);
  const mapB = byScenario(b.metrics);
  const common = [...mapA.keys()].filter((s) => mapB.has(s)).sort();
  if (common.length === 0)
    throw new CompareError(`${a.name} and ${b.name} have no scenario in common`);
  const scenarios = common.map((s) => compareScenario(s, mapA.get(s)!, mapB.get(s)!));
  const scored = scenarios.filter((s) => s.trials > 0);
  const pairedTrials = scored.reduce((n, s) => n + s.trials, 0);
  const fixed = scored.reduce((n, s) => n + s.fixed_trials, 0);
  const broken = scored.reduce((n, s) => n + s.broken_trials, 0);
  const rate = (side: 'passes_a' | 'passes_b'): number | null =>
    pairedTrials > 0 ? scored.reduce((n, s) => n + s[side], 0) / pairedTrials : null;
  // Resampled by scenario, each scenario weighted by its trials, so trials of one scenario stay together.
  const perScenario = scored.flatMap((s) =>
    Array.from({ length: s.trials }, () => (s.passes_b - s.passes_a) / s.trials),
  );
  const passRateDelta = pairedBootstrap(perScenario, { seed });
  const floor = noiseFloor(
    scored.map((s) => ({ trials: s.trials, passesA: s.passes_a, passesB: s.passes_b })),
  );
  const p = exactMcNemar(fixed, broken);
  const metrics: MetricDelta[] = [];
  for (const spec of COMPARED_METRICS) {
    const pairs = scenarios.map((s) => s.metrics[spec.key]).filter((v) => v !== undefined);
    const interval = pairedBootstrap(
      pairs.map((v) => v.delta),
      { seed },
    );
    if (!interval) continue;
    metrics.push({
      key: spec.key,
      label: spec.label,
      unit: spec.unit,
      better: spec.better,
      mean_a: mean(pairs.map((v) => v.a)),
      mean_b: mean(pairs.map((v) => v.b)),
      ...interval,
    });
  }
  return {
    a: { dir: a.dir, name: a.name, scenarios: mapA.size },
    b: { dir: b.dir, name: b.name, scenarios: mapB.size },
    scorer: a.scorer,
    paired_scenarios: common.length,
    paired_trials: pairedTrials,
    only_in_a: [...mapA.keys()].filter((s) => !mapB.has(s)).sort(),
    only_in_b: [...mapB.keys()].filter((s) => !mapA.has(s)).sort(),
    pass_rate_a: rate('passes_a'),
    pass_rate_b: rate('passes_b'),
    pass_rate_delta: passRateDelta,
    fixed,
    broken,
    flip_rate: pairedTrials > 0 ? (fixed + broken) / pairedTrials : null,
    mcnemar_p: p,
    noise_floor: floor,
    verdict: verdictOf(passRateDelta?.mean ?? 0, fixed + broken, p, floor, options.alpha ?? 0.05),
    scenarios,
    metrics,
    seed,
  };
}
