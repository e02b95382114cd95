import { describe, expect, it } from 'vitest';
import { makeMetrics } from '../test-support/scoring-fixtures.js';
import type { ScenarioMetrics } from '../scoring/types.js';
import { compareRuns } from './compare.js';
import { CompareError } from './load.js';
import type { LoadedRun } from './load.js';

function run(name: string, metrics: ScenarioMetrics[], scorer = 'nemo'): LoadedRun {
  return { dir: `/runs/${name}`, name, scorer, metrics };
}

function result(
  scenario: string,
  passed: boolean,
  extra: Partial<ScenarioMetrics> = {},
): ScenarioMetrics {
  return makeMetrics({
    scenario_name: scenario,
    is_successful: passed,
    success_breakdown: {
      passed: passed ? ['db_state_match'] : [],
      failed: passed ? [] : ['db_state_match'],
      not_applicable: [],
      excluded: [],
    },
    ...extra,
  });
}

const names = Array.from({ length: 10 }, (_, i) => `tau2_airline__${i}`);

describe('compareRuns', () => {
  it('finds no flip and intervals around 0 when a run is compared with itself', () => {
    const metrics = names.map((n, i) => result(n, i % 3 !== 0));
    const c = compareRuns(run('a', metrics), run('b', metrics));
    expect(c.fixed + c.broken).toBe(0);
    expect(c.verdict).toBe('no-change');
    expect(c.pass_rate_delta!.ci95[0]).toBeLessThanOrEqual(0);
    expect(c.pass_rate_delta!.ci95[1]).toBeGreaterThanOrEqual(0);
    for (const m of c.metrics) {
      expect(m.ci95[0]).toBeLessThanOrEqual(0);
      expect(m.ci95[1]).toBeGreaterThanOrEqual(0);
    }
    expect(c.mcnemar_p).toBe(1);
  });

  it('pairs by name, counts flips both ways and calls a clear loss a regression', () => {
    const a = names.map((n) => result(n, true));
    const b = names.map((n, i) => result(n, i >= 8));
    const c = compareRuns(run('a', a), run('b', [...b].reverse()));
    expect(c.broken).toBe(8);
    expect(c.fixed).toBe(0);
    expect(c.scenarios.filter((s) => s.flip === 'broken').map((s) => s.scenario)).toEqual(
      names.slice(0, 8),
    );
    expect(c.pass_rate_a).toBe(1);
    expect(c.pass_rate_b).toBeCloseTo(0.2, 12);
    expect(c.mcnemar_p).toBeCloseTo(2 / 256, 12);
    expect(c.verdict).toBe('regressed');
    expect(c.pass_rate_delta!.ci95[1]).toBeLessThan(0);
    // Two flips could be chance.
    const two = compareRuns(
      run('a', a),
      run(
        'b',
        names.map((n, i) => result(n, i >= 2)),
      ),
    );
    expect(two.verdict).toBe('not-significant');
  });

  it('reports the flips that trials show as chance as within noise', () => {
    const trials = (passes: number[]): ScenarioMetrics[] =>
      names.flatMap((n) => passes.map((p, t) => result(n, p === 1, { trial: t + 1 })));
    // Every scenario passes half its trials in both runs, different trials each time.
    const c = compareRuns(run('a', trials([1, 0, 1, 0])), run('b', trials([0, 1, 0, 1])));
    expect(c.broken).toBeGreaterThan(0);
    expect(c.noise_floor).not.toBeNull();
    expect(c.verdict).toBe('within-noise');
  });

  it('follows latency, turns and WER per scenario', () => {
    const a = names.map((n) => result(n, true, { total_turns: 10 }));
    const b = names.map((n) => result(n, true, { total_turns: 14 }));
    const c = compareRuns(run('a', a), run('b', b));
    const turns = c.metrics.find((m) => m.key === 'turns')!;
    expect(turns.mean).toBe(4);
    expect(turns.ci95).toEqual([4, 4]);
    expect(c.scenarios[0]!.metrics.turns).toEqual({ a: 10, b: 14, delta: 4 });
    expect(c.metrics.find((m) => m.key === 'agent_wer')).toBeUndefined();
  });

  it('refuses runs with no scenario in common or different scorers', () => {
    const a = run('a', [result('x__1', true)]);
    expect(() => compareRuns(a, run('b', [result('y__1', true)]))).toThrow(CompareError);
    expect(() => compareRuns(a, run('b', [result('y__1', true)]))).toThrow(/no scenario in common/);
    expect(() => compareRuns(a, run('b', [result('x__1', true)], 'tau2'))).toThrow(
      /scored differently/,
    );
  });

  it('keeps unscored results out of the pairs', () => {
    const a = [result('x__1', true), result('x__2', true)];
    const b = [result('x__1', true), makeMetrics({ scenario_name: 'x__2', is_successful: 'N/A' })];
    const c = compareRuns(run('a', a), run('b', b));
    expect(c.paired_trials).toBe(1);
    expect(c.scenarios.find((s) => s.scenario === 'x__2')!.unpaired_trials).toBe(1);
  });
});
