import { describe, expect, it } from 'vitest';
import type { Judge } from './judge.js';
import { needsIncludeDb, scoreScenarioWith } from './score.js';
import type { PredicateLookup } from './score-input.js';
import {
  collectToolCalls,
  communicateReward,
  compareWithToolCall,
  defaultRewardBasis,
  scoreScenarioTau2,
  tau2CriteriaFromTask,
} from './tau2.js';
import { makeRun, makeScenario, scoreInput } from '../test-support/scoring-fixtures.js';

describe('compareWithToolCall (tau2 compare_args)', () => {
  const gold = { name: 'update', arguments: { id: 'R1', cabin: 'economy', amount: 10 } };

  it('compare_args = None compares the predicted call keys', () => {
    expect(
      compareWithToolCall(gold, {
        name: 'update',
        arguments: { id: 'R1', cabin: 'economy', amount: 10.0 },
      }),
    ).toBe(true);
    // Gold-only keys are ignored.
    expect(compareWithToolCall(gold, { name: 'update', arguments: { id: 'R1' } })).toBe(true);
    // Extra predicted keys fail.
    expect(compareWithToolCall(gold, { name: 'update', arguments: { id: 'R1', note: 'x' } })).toBe(
      false,
    );
    expect(compareWithToolCall(gold, { name: 'update', arguments: { id: 'R2' } })).toBe(false);
    // No predicted arguments: nothing to compare.
    expect(compareWithToolCall(gold, { name: 'update', arguments: {} })).toBe(true);
    expect(compareWithToolCall(gold, { name: 'other', arguments: { id: 'R1' } })).toBe(false);
  });

  it('compare_args = [] matches by name; a list compares only those keys', () => {
    expect(
      compareWithToolCall(
        { ...gold, compare_args: [] },
        { name: 'update', arguments: { anything: 1 } },
      ),
    ).toBe(true);
    expect(
      compareWithToolCall(
        { ...gold, compare_args: ['id'] },
        { name: 'update', arguments: { id: 'R1', cabin: 'first' } },
      ),
    ).toBe(true);
    expect(
      compareWithToolCall(
        { ...gold, compare_args: ['id', 'cabin'] },
        { name: 'update', arguments: { id: 'R1', cabin: 'first' } },
      ),
    ).toBe(false);
    // Lists compare in order (Python ==).
    const flights = { name: 'book', arguments: { flights: ['A', 'B'] }, compare_args: ['flights'] };
    expect(compareWithToolCall(flights, { name: 'book', arguments: { flights: ['B', 'A'] } })).toBe(
      false,
    );
  });
});

describe('tool calls and messages from a run', () => {
  it('collects tool calls from both contexts and the recorded actions', () => {
    const run = makeRun({
      agentContext: [
        { role: 'system', content: 'policy' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'c1',
              type: 'function',
              function: { name: 'get_user', arguments: '{"user_id":"u1"}' },
            },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'c2', type: 'function', function: { name: 'bad', arguments: '{oops' } },
          ],
        },
      ],
      userContext: [
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'c3', type: 'function', function: { name: 'toggle_roaming', arguments: '' } },
          ],
        },
      ],
      agentSummary: {
        actions: [{ action_type: 'cancel', name: 'cancel', arguments: { id: 'R1' } }],
        db_hash: 'h',
      },
    });
    expect(collectToolCalls(run)).toEqual([
      { name: 'get_user', arguments: { user_id: 'u1' } },
      { name: 'toggle_roaming', arguments: {} },
      { name: 'cancel', arguments: { id: 'R1' } },
    ]);
  });

  it('COMMUNICATE is a case-insensitive substring check with commas stripped from the agent text', () => {
    expect(communicateReward(['5244'], ['You will get $5,244 back.'])).toBe(1);
    expect(communicateReward(['Refund'], ['the REFUND is on its way'])).toBe(1);
    expect(communicateReward(['5244', 'gift card'], ['5244 to your card'])).toBe(0);
    expect(communicateReward([], [])).toBe(1);
  });

  it('derives the reward basis from the success signals', () => {
    expect(
      defaultRewardBasis(makeScenario({ successSignals: ['db_state_match', 'clean_exit'] })),
    ).toEqual(['DB']);
    expect(
      defaultRewardBasis(
        makeScenario({ successSignals: ['db_state_match', 'nl_assertion', 'clean_exit'] }),
      ),
    ).toEqual(['DB', 'NL_ASSERTION']);
    expect(
      defaultRewardBasis(makeScenario({ successSignals: ['db_state_assertion', 'clean_exit'] })),
    ).toEqual(['ENV_ASSERTION']);
    expect(defaultRewardBasis(makeScenario({ successSignals: ['clean_exit'] }))).toEqual([
      'DB',
      'COMMUNICATE',
    ]);
  });
});

describe('scoreScenarioTau2', () => {
  it('rewards the product of the basis components and records the breakdown', async () => {
    const run = makeRun({
      stopReason: '[USER_STOP]',
      turns: [{ start: 0, end: 1, role: 'agent', text: 'Refunded $5,244.' }],
    });
    const m = await scoreScenarioTau2(
      scoreInput({
        run,
        expectedDbHash: 'hash-a',
        criteria: { reward_basis: ['DB', 'COMMUNICATE'], communicate_info: ['5244'] },
      }),
    );
    expect(m.scorer).toBe('tau2');
    expect(m.tau2?.reward).toBe(1);
    expect(m.tau2?.reward_breakdown).toEqual({
      DB: 1,
      ENV_ASSERTION: 1,
      ACTION: 1,
      COMMUNICATE: 1,
      NL_ASSERTION: 1,
    });
    expect(m.is_successful).toBe(true);
    expect(m.success_breakdown).toEqual({
      passed: ['DB', 'COMMUNICATE'],
      failed: [],
      not_applicable: [],
      excluded: ['ENV_ASSERTION', 'ACTION', 'NL_ASSERTION'],
    });
    // NeMo's signals are still there as diagnostics (clean_exit false under USER_STOP).
    expect(m.clean_exit).toBe(false);

    const wrongInfo = await scoreScenarioTau2(
      scoreInput({
        run,
        expectedDbHash: 'hash-a',
        criteria: { reward_basis: ['DB', 'COMMUNICATE'], communicate_info: ['4000'] },
      }),
    );
    expect(wrongInfo.tau2?.reward).toBe(0);
    expect(wrongInfo.is_successful).toBe(false);
    expect(wrongInfo.success_breakdown.failed).toEqual(['COMMUNICATE']);
  });

  it('DB needs both agent and user hashes to match', async () => {
    const run = makeRun({ userSummary: { actions: [], db_hash: 'u-actual' } });
    const m = await scoreScenarioTau2(
      scoreInput({ run, expectedDbHash: 'hash-a', expectedUserDbHash: 'u-expected' }),
    );
    expect(m.tau2?.reward_basis).toEqual(['DB']);
    expect(m.tau2?.reward_breakdown.DB).toBe(0);
    expect(m.tau2?.reward).toBe(0);
  });

  it('applies the termination gate', async () => {
    const m = await scoreScenarioTau2(
      scoreInput({
        run: makeRun({ stopReason: '[MAX_TURNS]' }),
        expectedDbHash: 'hash-a',
      }),
    );
    expect(m.tau2?.reward).toBe(0);
    expect(m.tau2?.termination_gate).toBe('terminated by [MAX_TURNS]');
    expect(m.is_successful).toBe(false);
    expect(m.is_task_successful).toBe(true);
    expect(m.failure_reason).toBe('terminated by [MAX_TURNS]');
  });

  it('ACTION: every gold action must be found, non-consuming, from either side', async () => {
    const scenario = makeScenario({
      successSignals: ['db_state_assertion'],
      referenceActions: [
        {
          action_type: 'transfer_to_human_agents',
          name: 'transfer_to_human_agents',
          arguments: { summary: 'x' },
          side: 'agent',
        },
        { action_type: 'toggle_roaming', name: 'toggle_roaming', arguments: {}, side: 'user' },
      ],
    });
    const run = makeRun({
      agentContext: [
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: '1',
              type: 'function',
              function: {
                name: 'transfer_to_human_agents',
                arguments: '{"summary":"something else"}',
              },
            },
          ],
        },
      ],
      userSummary: {
        actions: [{ action_type: 'toggle_roaming', name: 'toggle_roaming', arguments: {} }],
        db_hash: 'u',
      },
    });
    const byName = await scoreScenarioTau2(
      scoreInput({
        scenario,
        run,
        criteria: {
          reward_basis: ['ENV_ASSERTION', 'ACTION'],
          actions: [
            { name: 'transfer_to_human_agents', arguments: { summary: 'x' }, compare_args: [] },
            { name: 'toggle_roaming', arguments: {}, requestor: 'user' },
            { name: 'toggle_roaming', arguments: {}, requestor: 'user' },
          ],
        },
      }),
    );
    expect(byName.tau2?.reward_breakdown.ACTION).toBe(1);
    expect(byName.tau2?.reward).toBe(1);

    const allArgs = await scoreScenarioTau2(
      scoreInput({
        scenario,
        run,
        criteria: { reward_basis: ['ACTION'] },
      }),
    );
    expect(allArgs.tau2?.reward_breakdown.ACTION).toBe(0);
    expect(allArgs.tau2?.notes.ACTION).toBe('not found: transfer_to_human_agents');
  });

  it('ENV_ASSERTION is the product over the assertions', async () => {
    const scenario = makeScenario({
      successSignals: ['db_state_assertion', 'clean_exit'],
      dbStateAssertions: [
        { side: 'user', func_name: 'on', arguments: {}, assert_value: true },
        { side: 'user', func_name: 'off', arguments: {}, assert_value: true },
      ],
    });
    const lookup: PredicateLookup = (_s, name) => () => name === 'on';
    const run = makeRun({ userSummary: { actions: [], db_hash: 'u', db: { device: {} } } });
    const m = await scoreScenarioTau2({ scenario, run, predicates: lookup });
    expect(m.tau2?.reward_basis).toEqual(['ENV_ASSERTION']);
    expect(m.tau2?.reward_breakdown.ENV_ASSERTION).toBe(0);
    expect(m.is_successful).toBe(false);
  });

  it('NL_ASSERTION needs the judge: off -> not scored; on -> all verdicts must hold', async () => {
    const scenario = makeScenario({
      successSignals: ['db_state_match', 'nl_assertion'],
      nlAssertions: ['a', 'b'],
    });
    const off = await scoreScenarioTau2(scoreInput({ scenario, expectedDbHash: 'hash-a' }));
    expect(off.is_successful).toBe('N/A');
    expect(off.tau2?.reward).toBeNull();
    expect(off.not_scored_reason).toBe('NL_ASSERTION: no LLM judge is configured');

    const judge: Judge = {
      threshold: 0.9,
      judge: () =>
        Promise.resolve({
          score: 1,
          reason: '',
          nl_assertion_verdicts: [
            { index: 1, passed: true, reason: '' },
            { index: 2, passed: true, reason: '' },
          ],
        }),
    };
    const on = await scoreScenarioTau2(scoreInput({ scenario, expectedDbHash: 'hash-a', judge }));
    expect(on.tau2?.reward).toBe(1);
    expect(on.is_successful).toBe(true);
  });

  it('DB without an expected db is not scored; COMMUNICATE without data is not applicable', async () => {
    const m = await scoreScenarioTau2(
      scoreInput({
        scenario: makeScenario({ successSignals: ['clean_exit'] }),
      }),
    );
    expect(m.tau2?.reward_basis).toEqual(['DB', 'COMMUNICATE']);
    expect(m.tau2?.reward_breakdown.COMMUNICATE).toBeNull();
    expect(m.is_successful).toBe('N/A');
    expect(m.not_scored_reason).toMatch(/^DB: no expected db/);
    const communicateOnly = await scoreScenarioTau2(
      scoreInput({
        criteria: { reward_basis: ['COMMUNICATE'] },
      }),
    );
    expect(communicateOnly.tau2?.reward).toBe(1);
    expect(communicateOnly.success_breakdown.not_applicable).toEqual(['COMMUNICATE']);
    const empty = await scoreScenarioTau2(
      scoreInput({
        criteria: { reward_basis: [] },
      }),
    );
    expect(empty.tau2?.reward).toBe(1);
  });

  it('has no stall rule by default but honours minAgentTurns', async () => {
    const run = makeRun({
      tokenUsage: {
        agent: { n_calls: 1, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, models: [] },
        user: { n_calls: 1, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, models: [] },
      },
    });
    const m = await scoreScenarioTau2(scoreInput({ run, expectedDbHash: 'hash-a' }));
    expect(m.stalled).toBe(false);
    expect(m.is_successful).toBe(true);
    const stalled = await scoreScenarioTau2(
      scoreInput({ run, expectedDbHash: 'hash-a', minAgentTurns: 3 }),
    );
    expect(stalled.stalled).toBe(true);
    expect(stalled.is_successful).toBe(false);
  });
});

describe('tau2 criteria from task files and scorer selection', () => {
  it('applies tau2 defaults', () => {
    expect(tau2CriteriaFromTask({ evaluation_criteria: null })).toEqual({
      reward_basis: [],
      communicate_info: null,
      actions: null,
    });
    expect(tau2CriteriaFromTask({ evaluation_criteria: { communicate_info: ['5244'] } })).toEqual({
      reward_basis: ['DB', 'COMMUNICATE'],
      communicate_info: ['5244'],
      actions: null,
    });
    const withActions = tau2CriteriaFromTask({
      evaluation_criteria: {
        reward_basis: ['ACTION'],
        actions: [{ name: 'transfer_to_human_agents', arguments: {}, compare_args: [] }],
      },
    });
    expect(withActions.actions?.[0]?.compare_args).toEqual([]);
  });

  it('scores with the selected scorer and says when a diff needs include_db', async () => {
    const input = scoreInput({
      run: makeRun({ agentSummary: { actions: [], db_hash: 'x' } }),
      expectedDb: { t: {} },
    });
    const nemo = await scoreScenarioWith('nemo', input);
    const tau2 = await scoreScenarioWith('tau2', input);
    expect(nemo.scorer).toBe('nemo');
    expect(tau2.scorer).toBe('tau2');
    expect(needsIncludeDb(nemo)).toEqual({ agent: true, user: false });
    expect(
      needsIncludeDb(await scoreScenarioWith('nemo', { ...input, actualDb: { t: { a: 1 } } })),
    ).toEqual({ agent: false, user: false });
  });
});
