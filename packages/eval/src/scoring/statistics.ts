/**
 * The statistics of a run's numbers: rates with Wilson score intervals, and pass^k (the chance
 * that k trials of a task all succeed) computed exactly with bigint binomials.
 *
 * @module
 */

/** The share of a scenario's verdicts that passed; `'N/A'` when it has none. */
export function passRate(verdicts: readonly { passed: boolean }[]): number | 'N/A' {
  return verdicts.length === 0 ? 'N/A' : verdicts.filter((v) => v.passed).length / verdicts.length;
}

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
