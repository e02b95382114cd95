/**
 * Building figures: a rate or a mean with the events behind it, hidden (with the reason) when it
 * is not applicable or backed by too few events; and pooling figures across scenarios by
 * summing their counts.
 *
 * @module
 */
import type { CompositeFigure, MeanFigure, MeasureFigure, RateFigure } from './types.js';

/** How many times each of `keys` comes, keyed in sorted order. */
export function countOf(keys: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of [...keys].sort()) out[key] = (out[key] ?? 0) + 1;
  return out;
}

/** Round to the microsecond, so stored figures do not carry float noise. */
export function round(x: number): number {
  const r = Math.round(x * 1e6) / 1e6;
  return r === 0 ? 0 : r;
}

export function lowCountReason(min: number): string {
  return `fewer than ${min} events`;
}

function gated<T extends { count: number }>(
  figure: T,
  min: number,
): T & { shown: boolean; reason?: string } {
  return figure.count < min
    ? { ...figure, shown: false, reason: lowCountReason(min) }
    : { ...figure, shown: true };
}

/** `numerator / denominator`, N/A with `na` when the denominator is 0. */
export function rateFigure(
  numerator: number,
  denominator: number,
  min: number,
  na: string,
): RateFigure {
  if (denominator === 0)
    return {
      unit: 'ratio',
      value: null,
      numerator,
      denominator,
      count: 0,
      shown: false,
      reason: na,
    };
  return gated(
    {
      unit: 'ratio' as const,
      value: round(numerator / denominator),
      numerator,
      denominator,
      count: denominator,
    },
    min,
  );
}

/** The mean of `count` values summing to `total`, N/A with `na` when there are none. */
export function meanFigure(total: number, count: number, min: number, na: string): MeanFigure {
  if (count === 0)
    return { unit: 'seconds', value: null, total: 0, count: 0, shown: false, reason: na };
  return gated(
    { unit: 'seconds' as const, value: round(total / count), total: round(total), count },
    min,
  );
}

export function meanOf(values: readonly number[], min: number, na: string): MeanFigure {
  return meanFigure(
    values.reduce((s, v) => s + v, 0),
    values.length,
    min,
    na,
  );
}

/** A measured amount: shown unless N/A. */
export function measureFigure(
  value: number | null,
  count: number,
  unit: 'seconds' | 'count',
  na: string,
): MeasureFigure {
  return value === null
    ? { unit, value: null, count, shown: false, reason: na }
    : { unit, value: round(value), count, shown: true };
}

/** A ratio of two measured amounts (dead air over conversation): shown unless N/A. */
export function measuredRate(
  numerator: number,
  denominator: number,
  count: number,
  na: string,
): RateFigure {
  numerator = round(numerator);
  denominator = round(denominator);
  return denominator > 0
    ? {
        unit: 'ratio',
        value: round(numerator / denominator),
        numerator,
        denominator,
        count,
        shown: true,
      }
    : { unit: 'ratio', value: null, numerator, denominator, count, shown: false, reason: na };
}

export const SELECTIVITY_INCOMPLETE = 'needs all three selectivity rates';

/** The mean of the three selectivity rates; shown only when each of them is. */
export function selectivityFigure(parts: readonly RateFigure[], min: number): CompositeFigure {
  const count = parts.reduce((n, p) => n + p.count, 0);
  const values = parts.map((p) => p.value);
  if (values.some((v) => v === null))
    return { unit: 'ratio', value: null, count, shown: false, reason: SELECTIVITY_INCOMPLETE };
  const value = round((values as number[]).reduce((s, v) => s + v, 0) / values.length);
  return parts.every((p) => p.shown)
    ? { unit: 'ratio', value, count, shown: true }
    : { unit: 'ratio', value, count, shown: false, reason: lowCountReason(min) };
}

/** Why pooled figures are N/A: the scenarios' distinct reasons, or `none` without scenarios. */
export function pooledReason(
  figures: readonly { value: number | null; reason?: string }[],
  none: string,
): string {
  const reasons = [
    ...new Set(figures.filter((f) => f.value === null && f.reason).map((f) => f.reason!)),
  ].sort();
  return reasons.length > 0 ? reasons.join('; ') : none;
}

/** The sums of fields `a` and `b` over `figures`. */
function sums<F, K extends keyof F>(figures: readonly F[], a: K, b: K): [number, number] {
  return figures.reduce<[number, number]>(
    ([x, y], f) => [x + Number(f[a]), y + Number(f[b])],
    [0, 0],
  );
}

export function poolRates(figures: readonly RateFigure[], min: number, none: string): RateFigure {
  const [numerator, denominator] = sums(figures, 'numerator', 'denominator');
  return rateFigure(numerator, denominator, min, pooledReason(figures, none));
}

export function poolMeans(figures: readonly MeanFigure[], min: number, none: string): MeanFigure {
  const [total, count] = sums(figures, 'total', 'count');
  return meanFigure(total, count, min, pooledReason(figures, none));
}
