/**
 * The statistics of comparing two runs of the same scenarios: an exact McNemar test on the
 * pass/fail flips, a paired bootstrap (seeded, so the same runs always give the same interval)
 * for any per-scenario difference, and the noise floor that repeated trials give.
 *
 * @module
 */
import { seededRandom } from '@scenaro/sdk/util';

/** 97.5th percentile of the standard normal. */
const Z95 = 1.959963984540054;

/**
 * The two-sided exact McNemar p-value for `fixed` (fail in A, pass in B) and `broken` (pass in A,
 * fail in B) pairs: under "no difference" each discordant pair is a fair coin, so the p-value is
 * twice the binomial tail of the smaller count, capped at 1. Pairs that agree carry no evidence.
 */
export function exactMcNemar(fixed: number, broken: number): number {
  if (!Number.isInteger(fixed) || !Number.isInteger(broken) || fixed < 0 || broken < 0)
    throw new RangeError(`McNemar needs counts (got ${fixed}, ${broken})`);
  const n = fixed + broken;
  if (n === 0) return 1;
  const m = Math.min(fixed, broken);
  let term = 1n; // C(n, 0)
  let tail = 0n;
  for (let i = 0; i <= m; i++) {
    tail += term;
    term = (term * BigInt(n - i)) / BigInt(i + 1);
  }
  // tail / 2^n, as a double without overflow.
  const scale = 2n ** 60n;
  const p = Number((tail * scale) / 2n ** BigInt(n)) / Number(scale);
  return Math.min(1, 2 * p);
}

/** The mean of `values` and a percentile interval from a paired bootstrap. */
export interface BootstrapInterval {
  mean: number;
  ci95: [number, number];
  /** How many pairs the mean is over. */
  n: number;
}

/** Options of {@link pairedBootstrap}. */
export interface BootstrapOptions {
  /** @default 2000 */
  resamples?: number;
  /** @default 1 */
  seed?: number;
}

/**
 * The mean of per-pair differences with a 95 % percentile interval from resampling the pairs
 * (null with no pairs). The generator is seeded, so the interval is the same on every run.
 */
export function pairedBootstrap(
  differences: readonly number[],
  options: BootstrapOptions = {},
): BootstrapInterval | null {
  const n = differences.length;
  if (n === 0) return null;
  const resamples = options.resamples ?? 2000;
  const random = seededRandom(options.seed ?? 1);
  const mean = differences.reduce((s, x) => s + x, 0) / n;
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += differences[Math.floor(random() * n)]!;
    means[r] = sum / n;
  }
  means.sort();
  const at = (q: number): number => means[Math.min(resamples - 1, Math.floor(q * resamples))]!;
  return { mean, ci95: [Math.min(at(0.025), mean), Math.max(at(0.975), mean)], n };
}

/** One scenario's trials in both runs, for the noise floor. */
export interface TrialPasses {
  /** Scored trials paired between the runs. */
  trials: number;
  passesA: number;
  passesB: number;
}

/** What chance alone moves, given each scenario's pass probability. */
export interface NoiseFloor {
  /** Flips expected between two runs of the same agent. */
  expected_flips: number;
  /** Half-width of the 95 % band of the pass-rate difference two runs of the same agent give. */
  pass_rate_band: number;
}

/**
 * The noise floor of a pass-rate difference: each scenario's pass probability is estimated from
 * its trials in both runs (pooled, as "no difference" says they are the same agent); a trial pair
 * then flips with probability 2p(1-p), and the run's pass rate varies by p(1-p)/k per scenario
 * and run. Null without repeated trials: one trial says nothing about a scenario's spread.
 */
export function noiseFloor(scenarios: readonly TrialPasses[]): NoiseFloor | null {
  const used = scenarios.filter((s) => s.trials > 0);
  if (used.length === 0 || used.every((s) => s.trials < 2)) return null;
  let flips = 0;
  let variance = 0;
  let total = 0;
  for (const s of used) {
    const p = (s.passesA + s.passesB) / (2 * s.trials);
    flips += s.trials * 2 * p * (1 - p);
    // Each run's scenario mean over k trials has variance p(1-p)/k; the difference has twice it.
    variance += (2 * p * (1 - p)) / s.trials;
    total += 1;
  }
  return { expected_flips: flips, pass_rate_band: (Z95 * Math.sqrt(variance)) / total };
}
