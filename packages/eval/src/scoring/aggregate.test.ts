import { describe, expect, it } from 'vitest';
import { makeMetrics, usage } from '../test-support/scoring-fixtures.js';
import { aggregateRun, coerceMetrics, domainOf, trialCounts } from './aggregate.js';
import { binomial, passHatK, passHatKTask, wilsonInterval } from './statistics.js';
import { formatSummary } from './summary.js';
import type { ScenarioMetrics } from './types.js';

/** Every non-empty line of `lines` appears somewhere in `text`. */
function expectEachLine(text: string, lines: string): void {
  for (const line of lines.split('\n').filter(Boolean)) expect(text).toContain(line);
}

describe('pass^k', () => {
  it('computes C(c,k)/C(n,k) per task', () => {
    expect(passHatKTask(4, 2, 2)).toBeCloseTo(1 / 6, 15);
    expect(passHatKTask(4, 4, 4)).toBe(1);
    expect(passHatKTask(4, 3, 4)).toBe(0);
    expect(passHatKTask(4, 3, 1)).toBe(0.75);
    expect(passHatKTask(5, 0, 1)).toBe(0);
    expect(() => passHatKTask(2, 1, 3)).toThrow(RangeError);
  });

  it('stays exact with large binomials', () => {
    expect(binomial(100, 50)).toBe(100891344545564193334812497256n);
    expect(binomial(5, 7)).toBe(0n);
    expect(passHatKTask(100, 50, 50)).toBeCloseTo(9.911653021418339e-30, 40);
    expect(passHatKTask(100, 50, 50) / 9.911653021418339e-30).toBeCloseTo(1, 12);
    expect(passHatKTask(2000, 1999, 1000)).toBeCloseTo(0.5, 12);
  });

  it('averages over tasks and per domain, capping k at the smallest trial count', () => {
    const result = passHatK(
      [
        { scenario: 'a__1', domain: 'a', trials: 4, successes: 2 },
        { scenario: 'a__2', domain: 'a', trials: 4, successes: 4 },
        { scenario: 'b__1', domain: 'b', trials: 4, successes: 0 },
      ],
      2,
    );
    expect(result.k).toBe(2);
    expect(result.value).toBeCloseTo((1 / 6 + 1 + 0) / 3, 12);
    expect(result.per_domain['a']).toBeCloseTo((1 / 6 + 1) / 2, 12);
    expect(result.per_domain['b']).toBe(0);
    const capped = passHatK([{ scenario: 'x', domain: 'x', trials: 3, successes: 3 }], 5);
    expect(capped).toMatchObject({ k: 3, requested_k: 5, value: 1 });
    expect(passHatK([], 1).value).toBeNull();
  });
});

describe('Wilson interval', () => {
  it('matches the closed form', () => {
    const [lo, hi] = wilsonInterval(8, 10) ?? [NaN, NaN];
    expect(lo).toBeCloseTo(0.49016247153664183, 12);
    expect(hi).toBeCloseTo(0.9433178485456247, 12);
    const zero = wilsonInterval(0, 10) ?? [NaN, NaN];
    expect(zero[0]).toBe(0);
    expect(zero[1]).toBeCloseTo(0.2775327998628892, 12);
    const all = wilsonInterval(10, 10) ?? [NaN, NaN];
    expect(all[0]).toBeCloseTo(0.7224672001371107, 12);
    expect(all[1]).toBeCloseTo(1, 12);
    expect(wilsonInterval(0, 0)).toBeNull();
  });
});

function failed(overrides: Partial<ScenarioMetrics>): ScenarioMetrics {
  return makeMetrics({
    is_successful: false,
    is_task_successful: false,
    db_state_match: false,
    success_breakdown: {
      passed: ['clean_exit'],
      failed: ['db_state_match'],
      not_applicable: [],
      excluded: [],
    },
    ...overrides,
  });
}

describe('aggregateRun', () => {
  const metrics: ScenarioMetrics[] = [
    makeMetrics({ scenario_name: 'tau2_airline__1' }),
    failed({ scenario_name: 'tau2_airline__2' }),
    makeMetrics({
      scenario_name: 'tau2_telecom__1',
      db_state_match: 'N/A',
      db_state_assertion_pass_rate: 0.5,
      db_state_assertion_verdicts: [
        {
          func_name: 'a',
          side: 'user',
          passed: true,
          expected: true,
          actual: true,
          message: null,
          error: null,
        },
        {
          func_name: 'b',
          side: 'user',
          passed: false,
          expected: true,
          actual: false,
          message: null,
          error: null,
        },
      ],
      is_successful: false,
      is_task_successful: false,
      clean_exit: false,
      stop_reason: '[TIMEOUT]',
      success_breakdown: {
        passed: [],
        failed: ['db_state_assertion', 'clean_exit'],
        not_applicable: [],
        excluded: [],
      },
    }),
    failed({
      scenario_name: 'tau2_telecom__2',
      stalled: true,
      failure_reason: 'stalled',
      token_usage: { agent: usage(1), user: usage(1) },
      latencies: [],
      total_turns: 1,
    }),
    makeMetrics({
      scenario_name: 'qa__1',
      is_successful: 'N/A',
      is_task_successful: 'N/A',
      not_scored_reason: 'judge_passed needs the LLM judge: no LLM judge is configured',
    }),
    failed({
      scenario_name: 'qa__2',
      failure: { phase: 'connect', message: 'refused', infrastructure: true },
      failure_reason: 'bridge failure',
    }),
  ];
  const agg = aggregateRun(metrics, { minAgentTurns: 3 });

  it('rates success over scored scenarios, with an interval', () => {
    expect(agg.success).toMatchObject({ passed: 1, total: 5, rate: 0.2 });
    expect(agg.success.ci95?.[0]).toBeGreaterThan(0);
    expect(agg.task_success).toMatchObject({ passed: 1, total: 5 });
    expect(agg.not_scored).toEqual([
      { scenario: 'qa__1', reason: 'judge_passed needs the LLM judge: no LLM judge is configured' },
    ]);
    expect(agg.scorer).toBe('nemo');
    expect(agg.results).toBe(6);
    expect(agg.trials).toBe(1);
    expect(agg.pass_hat_k).toEqual([]);
  });

  it('leaves stalled scenarios out of per-signal rates and counts assertions one by one', () => {
    // db_state_match: airline 1 (true), airline 2 (false), qa 1 (true), qa 2 (false); the stalled telecom 2 is left out.
    expect(agg.signals.db_state_match).toEqual({ passed: 2, total: 4, rate: 0.5 });
    expect(agg.signals.db_state_assertion).toEqual({ passed: 1, total: 2, rate: 0.5 });
    expect(agg.signals.clean_exit).toMatchObject({ passed: 4, total: 5 });
    expect(agg.stalled).toEqual(['tau2_telecom__2']);
  });

  it('groups by scenario-name prefix and counts failure reasons', () => {
    expect(Object.keys(agg.per_domain)).toEqual(['qa', 'tau2_airline', 'tau2_telecom']);
    expect(agg.per_domain['tau2_airline']?.success).toMatchObject({
      passed: 1,
      total: 2,
      rate: 0.5,
    });
    expect(agg.per_domain['tau2_telecom']?.stalled).toBe(1);
    expect(agg.failure_reasons).toEqual({
      'failed: db_state_match': 1,
      'failed: db_state_assertion': 1,
      'failed: clean_exit': 1,
      stalled: 1,
      'not scored': 1,
      'infrastructure failure': 1,
    });
    expect(agg.failures).toEqual([{ scenario: 'qa__2', reason: 'refused', infrastructure: true }]);
    expect(domainOf({ scenario_name: 'fastbite' })).toBe('fastbite');
    expect(domainOf({ scenario_name: 'simple_qa_2', domain: 'simple_qa' })).toBe('simple_qa');
    expect(domainOf({ scenario_name: 'qa__x', domain: 'qa_suite' })).toBe('qa');
  });

  it('totals latency, turns and tokens', () => {
    expect(agg.latency.count).toBe(10);
    expect(agg.latency.min_ms).toBe(500);
    expect(agg.turns.total).toBe(21);
    expect(agg.tokens.agent.n_calls).toBe(4 * 5 + 1);
    expect(agg.tokens.total_tokens).toBe((21 + 16) * 110);
  });

  it('computes pass^k when scenarios ran several times', () => {
    const trials = [true, true, false, false].map((ok, i) =>
      makeMetrics({
        scenario_name: 'a__1',
        trial: i + 1,
        is_successful: ok,
        is_task_successful: ok,
      }),
    );
    trials.push(
      ...[true, true, true, true].map((ok, i) =>
        makeMetrics({ scenario_name: 'b__1', trial: i + 1, is_successful: ok }),
      ),
    );
    const result = aggregateRun(trials);
    expect(result.trials).toBe(4);
    expect(result.unique_scenarios).toBe(2);
    expect(trialCounts(trials)).toEqual([
      { scenario: 'a__1', domain: 'a', trials: 4, successes: 2 },
      { scenario: 'b__1', domain: 'b', trials: 4, successes: 4 },
    ]);
    expect(result.pass_hat_k.map((p) => p.k)).toEqual([1, 2, 3, 4]);
    expect(result.pass_hat_k[1]?.value).toBeCloseTo((1 / 6 + 1) / 2, 12);
    expect(result.pass_hat_k[1]?.per_domain).toEqual({ a: expect.closeTo(1 / 6, 12), b: 1 });
  });
});

describe('formatSummary', () => {
  it('writes the reference sections', () => {
    const metrics = [
      makeMetrics({ scenario_name: 'tau2_airline__1' }),
      failed({ scenario_name: 'tau2_retail__2' }),
    ];
    const text = formatSummary(aggregateRun(metrics, { minAgentTurns: 3 }), metrics);
    expectEachLine(
      text,
      `
EVALUATION SUMMARY
====== tau2_airline__1 ======:
  Is successful: True
    Failed signals: db_state_match
Overall Latency Statistics:
`,
    );
    expect(text).toMatch(
      /Overall Success Rate: 50\.00% \(1\/2 scenarios — strict conjunction across all applicable signals, 95% CI \d/,
    );
    expectEachLine(
      text,
      `
Task Success Rate (excl. clean_exit): 50.00% (1/2 scenarios
  DB-State match:               50.00% (1/2 scenarios)
Token Usage:
  agent: 8 call(s), prompt=800, completion=80, total=880
Per-Domain Success Rate:
  tau2_retail: 0.00% (0/1)
`,
    );
    expect(text).not.toContain('WARNING');
    expect(text).not.toContain('SCRIPTED');
    expect(text).not.toContain('pass^');
  });

  it('reports -1 latency, stalls, scripted policies and pass^k', () => {
    const metrics = [1, 2].map((trial) =>
      failed({
        scenario_name: 'dom__s',
        trial,
        latencies: [],
        latency_stats: { count: 0, mean_ms: -1, p50_ms: -1, p95_ms: -1, min_ms: -1, max_ms: -1 },
        stalled: true,
        scripted: true,
        scripted_sides: { agent: true, user: true },
      }),
    );
    const text = formatSummary(aggregateRun(metrics, { minAgentTurns: 3 }), metrics);
    expect(text.startsWith('#'.repeat(80))).toBe(true);
    expectEachLine(
      text,
      `
SCRIPTED policies
  Mean: -1.0ms
WARNING: 2 scenario(s) had fewer than 3 agent turn(s)
[COUNTED AS FAILURE: insufficient agent turns / stalled
pass^1: 0.00% (1 tasks)
pass^2: 0.00% (1 tasks)
====== dom__s (trial 2) ======:
`,
    );
    expect(text).not.toContain('Per-Domain');
  });

  it('says N/A when nothing was scored', () => {
    const metrics = [
      makeMetrics({ is_successful: 'N/A', is_task_successful: 'N/A', not_scored_reason: 'x' }),
    ];
    const text = formatSummary(aggregateRun(metrics), metrics);
    expect(text).toContain('Overall Success Rate: N/A (no scenarios had any applicable signal)');
    expect(text).toContain('NOT SCORED: 1 scenario(s)');
  });
});

describe('coerceMetrics', () => {
  it('fills what an older or reference metrics.json lacks', () => {
    const m = coerceMetrics({
      scenario_name: 'tau2_retail__7',
      total_turns: 3,
      stop_reason: '[TIMEOUT]',
      is_successful: false,
      success_breakdown: { failed: ['clean_exit'] },
      insufficient_agent_turns: true,
      latencies: [{ user_transcript: 'a', agent_transcript: 'b', latency_ms: 120 }],
      extra_field: 1,
    });
    expect(m.domain).toBe('tau2_retail');
    expect(m.clean_exit).toBe(false);
    expect(m.stalled).toBe(true);
    expect(m.success_breakdown).toEqual({
      passed: [],
      failed: ['clean_exit'],
      not_applicable: [],
      excluded: [],
    });
    expect(m.latency_stats.p50_ms).toBe(120);
    expect(m.token_usage.agent.n_calls).toBe(0);
    expect(m).toHaveProperty('extra_field', 1);
    expect(aggregateRun([m]).success).toMatchObject({ passed: 0, total: 1 });
    expect(coerceMetrics(null).scenario_name).toBe('unknown');
  });
});
