import { getDictHash } from '@scenaro/agent/scenario';
import type { DbStatePredicate } from '@scenaro/agent/scenario';
import { describe, expect, it, vi } from 'vitest';
import type { Judge, JudgeRequest, JudgeResult } from './judge.js';
import { scoreScenario } from './nemo.js';
import { latencyStats } from './signals.js';
import type { PredicateLookup } from './score-input.js';
import {
  fieldMismatch,
  makeRun,
  makeScenario,
  usage,
  scoreInput,
} from '../test-support/scoring-fixtures.js';

function fakeJudge(
  answer: Partial<JudgeResult> | ((r: JudgeRequest) => JudgeResult),
  threshold = 0.9,
): Judge & { calls: JudgeRequest[] } {
  const calls: JudgeRequest[] = [];
  return {
    threshold,
    model: 'fake-judge',
    calls,
    judge: (request) => {
      calls.push(request);
      return Promise.resolve(
        typeof answer === 'function' ? answer(request) : { score: 1, reason: 'ok', ...answer },
      );
    },
  };
}

describe('latency stats', () => {
  it('uses p50 = sorted[n//2] and p95 = sorted[int(0.95n)]', () => {
    const values = Array.from({ length: 20 }, (_, i) => 20 - i);
    expect(latencyStats(values)).toEqual({
      count: 20,
      mean_ms: 10.5,
      p50_ms: 11,
      p95_ms: 20,
      min_ms: 1,
      max_ms: 20,
    });
    expect(latencyStats([5])).toEqual({
      count: 1,
      mean_ms: 5,
      p50_ms: 5,
      p95_ms: 5,
      min_ms: 5,
      max_ms: 5,
    });
    expect(latencyStats([])).toEqual({
      count: 0,
      mean_ms: -1,
      p50_ms: -1,
      p95_ms: -1,
      min_ms: -1,
      max_ms: -1,
    });
  });
});

describe('scoreScenario (NeMo composite)', () => {
  it('passes when every whitelisted signal passes, and fills the base fields', async () => {
    const m = await scoreScenario(scoreInput({ expectedDbHash: 'hash-a' }));
    expect(m.is_successful).toBe(true);
    expect(m.is_task_successful).toBe(true);
    expect(m.db_state_match).toBe(true);
    expect(m.db_state_expected_hash).toBe('hash-a');
    expect(m.db_state_actual_hash).toBe('hash-a');
    expect(m.success_breakdown).toEqual({
      passed: ['db_state_match', 'clean_exit'],
      failed: [],
      not_applicable: [],
      excluded: ['is_action_match'],
    });
    expect(m.scorer).toBe('nemo');
    expect(m.total_turns).toBe(5);
    expect(m.duration_seconds).toBe(5);
    expect(m.scenario_duration).toBe(12.5);
    expect(m.latency_stats.count).toBe(3);
    expect(m.latencies[1]).toEqual({
      user_transcript: 'I want to cancel.',
      agent_transcript: 'Done.',
      latency_ms: 600,
    });
    expect(m.stalled).toBe(false);
    expect(m.scripted).toBe(false);
    expect(m.judge_passed).toBe('N/A');
    expect(m.user_db_state_match).toBe('N/A');
  });

  it('hashes the expected db, fails on a mismatch and a missing hash, and asks for include_db to diff', async () => {
    const expectedDb = { users: { u1: { name: 'Ann', balance: 10 } } };
    const run = makeRun({ agentSummary: { actions: [], db_hash: 'other' } });
    const m = await scoreScenario(scoreInput({ run, expectedDb }));
    expect(m.db_state_expected_hash).toBe(getDictHash(expectedDb));
    expect(m.db_state_match).toBe(false);
    expect(m.is_successful).toBe(false);
    expect(m.is_task_successful).toBe(false);
    expect(m.success_breakdown.failed).toEqual(['db_state_match']);
    expect(m.db_diff).toMatchObject({ status: 'needs_include_db', side: 'agent' });

    const actualDb = { users: { u1: { name: 'Ann', balance: 5 } } };
    const withDb = await scoreScenario(scoreInput({ run, expectedDb, actualDb }));
    expect(withDb.db_diff).toEqual(fieldMismatch('users', 'u1', 'balance', 10, 5));

    const noHash = await scoreScenario(
      scoreInput({
        run: makeRun({ agentSummary: { actions: [], db_hash: null } }),
        expectedDbHash: 'hash-a',
      }),
    );
    expect(noHash.db_state_match).toBe(false);
    expect(noHash.db_state_actual_hash).toBeNull();

    const onlyHash = await scoreScenario(scoreInput({ run, expectedDbHash: 'x' }));
    expect(onlyHash.db_diff).toMatchObject({ status: 'unavailable' });
  });

  it('compares the user db when an expected one exists, and gates db_state_match on both', async () => {
    const run = makeRun({ userSummary: { actions: [], db_hash: 'user-actual' } });
    const m = await scoreScenario(
      scoreInput({ run, expectedDbHash: 'hash-a', expectedUserDbHash: 'user-expected' }),
    );
    expect(m.db_state_match).toBe(true);
    expect(m.user_db_state_match).toBe(false);
    expect(m.user_db_state_expected_hash).toBe('user-expected');
    expect(m.user_db_state_actual_hash).toBe('user-actual');
    expect(m.is_successful).toBe(false);
    expect(m.success_breakdown.failed).toEqual(['db_state_match']);
    expect(m.user_db_diff).toMatchObject({ status: 'unavailable', side: 'user' });
  });

  it('prefers a given hash, then the published one, then the hash of the expected db', async () => {
    const expectedDb = { t: { r: { v: 1 } } };
    const run = makeRun({ agentSummary: { actions: [], db_hash: 'hash-a' } });
    const given = await scoreScenario(
      scoreInput({
        scenario: makeScenario({ expectedDbHash: 'published' }),
        run,
        expectedDb,
        expectedDbHash: 'hash-a',
      }),
    );
    expect(given.db_state_expected_hash).toBe('hash-a');
    expect(given.db_state_match).toBe(true);
    expect(given.scoring_warnings).toEqual([
      `the expected agent db hashes to ${getDictHash(expectedDb)}, not to the expected hash hash-a; its diff may not explain a mismatch`,
    ]);
    const published = await scoreScenario(
      scoreInput({
        scenario: makeScenario({ expectedDbHash: 'published' }),
        run,
        expectedDb,
      }),
    );
    expect(published.db_state_expected_hash).toBe('published');
    const consistent = await scoreScenario(
      scoreInput({
        run,
        expectedDb,
        expectedDbHash: getDictHash(expectedDb),
      }),
    );
    expect(consistent.scoring_warnings).toEqual([]);
  });

  it('falls back to the scenario published hash', async () => {
    const m = await scoreScenario(
      scoreInput({
        scenario: makeScenario({ expectedDbHash: 'hash-a' }),
      }),
    );
    expect(m.db_state_match).toBe(true);
  });

  it('a failed clean exit fails the scenario but not the task', async () => {
    const m = await scoreScenario(
      scoreInput({
        run: makeRun({ stopReason: '[TIMEOUT]' }),
        expectedDbHash: 'hash-a',
      }),
    );
    expect(m.clean_exit).toBe(false);
    expect(m.is_successful).toBe(false);
    expect(m.is_task_successful).toBe(true);
  });

  it('is N/A when no whitelisted signal applies; non-whitelisted signals are excluded', async () => {
    const m = await scoreScenario(
      scoreInput({
        scenario: makeScenario({ successSignals: ['db_state_match'] }),
      }),
    );
    expect(m.db_state_match).toBe('N/A');
    expect(m.is_successful).toBe('N/A');
    expect(m.is_task_successful).toBe('N/A');
    expect(m.not_scored_reason).toMatch(/none of the scenario's success signals/);
    expect(m.success_breakdown).toEqual({
      passed: [],
      failed: [],
      not_applicable: ['db_state_match'],
      excluded: ['is_action_match', 'clean_exit'],
    });
  });

  it('applies the stall rule: too few agent LLM calls fail and mark stalled', async () => {
    const run = makeRun({ tokenUsage: { agent: usage(2), user: usage(2) } });
    const judge = fakeJudge({ score: 1 });
    const m = await scoreScenario(
      scoreInput({
        scenario: makeScenario({ successSignals: ['db_state_match', 'judge_passed'] }),
        run,
        expectedDbHash: 'hash-a',
        judge,
      }),
    );
    expect(m.stalled).toBe(true);
    expect(m.is_successful).toBe(false);
    expect(m.is_task_successful).toBe(false);
    expect(m.failure_reason).toMatch(
      /stalled: the agent made 2 LLM call\(s\), fewer than min_agent_turns=3/,
    );
    expect(judge.calls).toHaveLength(0);
    // The signals are still computed.
    expect(m.db_state_match).toBe(true);

    const disabled = await scoreScenario(
      scoreInput({ run, expectedDbHash: 'hash-a', minAgentTurns: 0 }),
    );
    expect(disabled.stalled).toBe(false);
    expect(disabled.is_successful).toBe(true);
    const custom = await scoreScenario(
      scoreInput({ run, expectedDbHash: 'hash-a', minAgentTurns: 2 }),
    );
    expect(custom.stalled).toBe(false);
  });

  it('a bridge failure fails the scenario with its reason', async () => {
    const m = await scoreScenario(
      scoreInput({
        run: makeRun({
          failure: {
            phase: 'setup',
            message: 'apply_initialization failed',
            infrastructure: false,
          },
          stopReason: '[ERROR]',
        }),
        expectedDbHash: 'hash-a',
      }),
    );
    expect(m.is_successful).toBe(false);
    expect(m.failure_reason).toBe('bridge failure (setup): apply_initialization failed');
    expect(m.failure).toEqual({
      phase: 'setup',
      message: 'apply_initialization failed',
      infrastructure: false,
    });
  });

  it('flags scripted runs', async () => {
    const run = makeRun({
      tokenUsage: { agent: usage(4, 'scripted:reference-agent'), user: usage(3, 'scripted:user') },
    });
    const m = await scoreScenario(scoreInput({ run, expectedDbHash: 'hash-a' }));
    expect(m.scripted).toBe(true);
    expect(m.scripted_sides).toEqual({ agent: true, user: true });
    const mixed = await scoreScenario(
      scoreInput({
        run: makeRun({
          tokenUsage: { agent: usage(4, 'scripted:reference-agent'), user: usage(3, 'gpt-4.1') },
        }),
        expectedDbHash: 'hash-a',
      }),
    );
    expect(mixed.scripted).toBe(false);
    expect(mixed.scripted_sides).toEqual({ agent: true, user: false });
  });
});

describe('action match in the composite', () => {
  const gold = [
    { action_type: 'cancel', name: 'cancel', arguments: { id: 'R1' }, side: 'agent' as const },
  ];
  const scenario = makeScenario({
    successSignals: ['is_action_match', 'clean_exit'],
    referenceActions: gold,
  });

  it('uses the pulled actions (with side) when there are no final responses', async () => {
    const run = makeRun({
      agentSummary: {
        actions: [{ action_type: 'cancel', name: 'cancel', arguments: { id: 'R1' }, result: 'ok' }],
        db_hash: null,
      },
    });
    const m = await scoreScenario(scoreInput({ scenario, run }));
    expect(m.is_action_match).toBe(true);
    expect(m.is_successful).toBe(true);
    expect(m.actions.agent).toHaveLength(1);
    expect(m.reference_action_count).toBe(1);
  });

  it('fails on wrong arguments and when there is no prediction at all', async () => {
    const wrong = makeRun({
      agentSummary: {
        actions: [{ action_type: 'cancel', name: 'cancel', arguments: { id: 'R2' } }],
        db_hash: null,
      },
    });
    expect((await scoreScenario(scoreInput({ scenario, run: wrong }))).is_action_match).toBe(false);
    const none = makeRun({ agentSummary: undefined, userSummary: undefined });
    const m = await scoreScenario(scoreInput({ scenario, run: none }));
    expect(m.is_action_match).toBe(false);
    expect(m.is_successful).toBe(false);
  });

  it('uses the push path only when there are final responses', async () => {
    const order = { customer_name: 'Charlie', total_price: '11.49' };
    const pushed = makeRun({ finalResponses: [{ customer_name: 'charlie', total_price: 11.49 }] });
    const m = await scoreScenario(
      scoreInput({
        scenario,
        run: pushed,
        referenceAnswer: order,
        matchOptions: { ignoreCapitalization: true },
      }),
    );
    expect(m.is_action_match).toBe(true);
    const strictCase = await scoreScenario(
      scoreInput({ scenario, run: pushed, referenceAnswer: order }),
    );
    expect(strictCase.is_action_match).toBe(false);
  });

  it('strictMatch forbids extra top-level items', async () => {
    const run = makeRun({ finalResponses: [{ a: 1 }, { b: 2 }, { c: 3 }] });
    const reference = [{ a: 1 }, { b: 2 }];
    expect(
      (await scoreScenario(scoreInput({ scenario, run, referenceAnswer: reference })))
        .is_action_match,
    ).toBe(true);
    expect(
      (
        await scoreScenario(
          scoreInput({ scenario, run, referenceAnswer: reference, strictMatch: true }),
        )
      ).is_action_match,
    ).toBe(false);
  });

  it('includes the user bot actions with side user', async () => {
    const telecom = makeScenario({
      successSignals: ['is_action_match'],
      referenceActions: [
        { action_type: 'toggle_roaming', name: 'toggle_roaming', arguments: {}, side: 'user' },
      ],
    });
    const run = makeRun({
      userSummary: {
        actions: [{ action_type: 'toggle_roaming', name: 'toggle_roaming', arguments: {} }],
        db_hash: 'u',
      },
    });
    expect((await scoreScenario(scoreInput({ scenario: telecom, run }))).is_action_match).toBe(
      true,
    );
  });
});

describe('db-state assertions', () => {
  const status: DbStatePredicate = (db, args) =>
    (db['device'] as { status: string }).status === args['expected_status'];
  const lookup: PredicateLookup = (_side, name) =>
    name === 'assert_service_status'
      ? status
      : name === 'boom'
        ? () => {
            throw new Error('kaput');
          }
        : undefined;
  const scenario = makeScenario({
    successSignals: ['db_state_assertion', 'clean_exit'],
    dbStateAssertions: [
      {
        side: 'user',
        func_name: 'assert_service_status',
        arguments: { expected_status: 'no_service' },
        assert_value: true,
        message: 'no service',
      },
      {
        side: 'user',
        func_name: 'assert_service_status',
        arguments: { expected_status: 'connected' },
        assert_value: false,
      },
    ],
  });

  it('runs the predicates on the pulled user db', async () => {
    const run = makeRun({
      userSummary: { actions: [], db_hash: 'u', db: { device: { status: 'no_service' } } },
    });
    const m = await scoreScenario({ scenario, run, predicates: lookup });
    expect(m.db_state_assertion_pass_rate).toBe(1);
    expect(m.db_state_assertion_verdicts[0]).toEqual({
      func_name: 'assert_service_status',
      side: 'user',
      passed: true,
      expected: true,
      actual: true,
      message: 'no service',
      error: null,
    });
    expect(m.is_successful).toBe(true);
  });

  it('reports a missing db, an unknown predicate and a throwing predicate as failed verdicts', async () => {
    const noDb = await scoreScenario({ scenario, run: makeRun(), predicates: lookup });
    expect(noDb.db_state_assertion_pass_rate).toBe(0);
    expect(noDb.db_state_assertion_verdicts[0]?.error).toMatch(/include_db/);
    expect(noDb.is_successful).toBe(false);

    const odd = makeScenario({
      successSignals: ['db_state_assertion'],
      dbStateAssertions: [
        { side: 'agent', func_name: 'nope', arguments: {}, assert_value: true },
        { side: 'agent', func_name: 'boom', arguments: {}, assert_value: true },
        {
          side: 'agent',
          func_name: 'assert_service_status',
          arguments: { expected_status: 'x' },
          assert_value: false,
        },
      ],
    });
    const run = makeRun({
      agentSummary: { actions: [], db_hash: 'a', db: { device: { status: 'y' } } },
    });
    const m = await scoreScenario({ scenario: odd, run, predicates: lookup });
    expect(m.db_state_assertion_verdicts.map((v) => v.error)).toEqual([
      "unknown db-state predicate 'nope'",
      'boom raised: kaput',
      null,
    ]);
    expect(m.db_state_assertion_pass_rate).toBeCloseTo(1 / 3);
    expect(m.is_successful).toBe(false);
  });
});

describe('the judge', () => {
  const qa = makeScenario({ successSignals: ['judge_passed', 'clean_exit'] });
  const retail = makeScenario({
    successSignals: ['db_state_match', 'nl_assertion', 'clean_exit'],
    nlAssertions: ['Agent refunds $5244.', 'Agent confirms first.'],
  });

  it('off: a scenario that needs it is not scored, never failed', async () => {
    const m = await scoreScenario(scoreInput({ scenario: qa }));
    expect(m.is_successful).toBe('N/A');
    expect(m.is_task_successful).toBe('N/A');
    expect(m.not_scored_reason).toBe(
      'judge_passed needs the LLM judge: no LLM judge is configured',
    );
    const nl = await scoreScenario(
      scoreInput({
        scenario: retail,
        run: makeRun({ agentSummary: { actions: [], db_hash: 'wrong' } }),
        expectedDbHash: 'hash-a',
      }),
    );
    expect(nl.is_successful).toBe('N/A');
    expect(nl.not_scored_reason).toMatch(/^nl_assertion needs the LLM judge/);
    // The deterministic verdicts are still there.
    expect(nl.success_breakdown.failed).toEqual(['db_state_match']);
  });

  it('off: nl_assertion without assertions does not need it', async () => {
    const none = makeScenario({ successSignals: ['db_state_match', 'nl_assertion', 'clean_exit'] });
    const m = await scoreScenario(scoreInput({ scenario: none, expectedDbHash: 'hash-a' }));
    expect(m.is_successful).toBe(true);
    expect(m.success_breakdown.not_applicable).toEqual(['nl_assertion']);
  });

  it('on: score and threshold give judge_passed', async () => {
    const judge = fakeJudge({ score: 0.95, reason: 'fine' });
    const m = await scoreScenario(scoreInput({ scenario: qa, judge }));
    expect(m.judge_score).toBe(0.95);
    expect(m.judge_passed).toBe(true);
    expect(m.is_successful).toBe(true);
    expect(m.judge).toEqual({ score: 0.95, reason: 'fine', model: 'fake-judge', error: null });
    expect(judge.calls[0]?.reference).toEqual({ actions: [] });
    expect(judge.calls[0]?.prediction).toEqual({ actions: [] });
    expect(judge.calls[0]?.conversation).toHaveLength(5);

    const low = await scoreScenario(
      scoreInput({
        scenario: qa,
        judge: fakeJudge({ score: 0.89 }),
      }),
    );
    expect(low.judge_passed).toBe(false);
    expect(low.is_successful).toBe(false);
  });

  it('on: NL verdicts give the pass rate; a missing verdict fails', async () => {
    const judge = fakeJudge({
      score: 0.7,
      nl_assertion_verdicts: [{ index: 1, passed: true, reason: 'refund said' }],
    });
    const m = await scoreScenario(
      scoreInput({ scenario: retail, expectedDbHash: 'hash-a', judge }),
    );
    expect(m.nl_assertion_pass_rate).toBe(0.5);
    expect(m.nl_assertion_verdicts).toEqual([
      { index: 1, assertion: 'Agent refunds $5244.', passed: true, reason: 'refund said' },
      {
        index: 2,
        assertion: 'Agent confirms first.',
        passed: false,
        reason: 'no verdict from the judge',
      },
    ]);
    expect(m.is_successful).toBe(false);
    expect(m.success_breakdown.failed).toEqual(['nl_assertion']);
    expect(m.success_breakdown.excluded).toEqual(['is_action_match', 'judge_passed']);
    expect(judge.calls[0]?.nlAssertions).toEqual(retail.nlAssertions);
  });

  it('on: a judge error leaves the scenario not scored', async () => {
    const judge = fakeJudge({ score: 0, reason: 'Error: 503', error: 'HTTP 503' });
    const m = await scoreScenario(scoreInput({ scenario: qa, judge }));
    expect(m.is_successful).toBe('N/A');
    expect(m.not_scored_reason).toBe(
      'judge_passed needs the LLM judge: the judge failed: HTTP 503',
    );
    expect(m.judge_score).toBeNull();
    const throwing: Judge = {
      threshold: 0.9,
      judge: vi.fn().mockRejectedValue(new Error('socket hang up')),
    };
    const t = await scoreScenario(scoreInput({ scenario: qa, judge: throwing }));
    expect(t.not_scored_reason).toMatch(/socket hang up/);
  });

  it('is only called when needed unless judgeAll', async () => {
    const judge = fakeJudge({ score: 1 });
    await scoreScenario(scoreInput({ expectedDbHash: 'hash-a', judge }));
    expect(judge.calls).toHaveLength(0);
    const m = await scoreScenario(scoreInput({ expectedDbHash: 'hash-a', judge, judgeAll: true }));
    expect(judge.calls).toHaveLength(1);
    expect(m.judge_passed).toBe(true);
    expect(m.success_breakdown.excluded).toContain('judge_passed');
  });
});
