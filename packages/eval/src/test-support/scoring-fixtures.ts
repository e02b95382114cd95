/**
 * Builders of scenarios, runs and metrics for tests of scoring, aggregation and reports.
 *
 * @module
 */
import type { Scenario } from '@scenaro/domains';
import type { ScenarioRun, SideTokenUsage } from '../bridge/types.js';
import type { PredicateLookup } from '../scoring/score-input.js';
import type { Tau2ScoreInput } from '../scoring/tau2.js';
import type { DbDiffReport, ScenarioMetrics } from '../scoring/types.js';

/** A minimal scenario; override what the test needs. */
export function makeScenario(overrides: Partial<Scenario> = {}): Scenario {
  return {
    name: 'test_domain__s1',
    domain: 'test_domain',
    source: 'test',
    maxDurationSeconds: 60,
    successSignals: ['db_state_match', 'clean_exit'],
    agent: { prompt: 'agent', tools: {}, toolDomain: 'test_domain', sharedStateInit: {} },
    user: { prompt: 'user', tools: {}, toolDomain: 'test_domain', sharedStateInit: {} },
    userInstructions: 'be a user',
    initializationActions: [],
    referenceActions: [],
    dbStateAssertions: [],
    nlAssertions: [],
    ...overrides,
  };
}

/** Token usage of one side: `n_calls` calls of `model`. */
export function usage(nCalls: number, model = 'test-model'): SideTokenUsage {
  return {
    n_calls: nCalls,
    prompt_tokens: nCalls * 100,
    completion_tokens: nCalls * 10,
    total_tokens: nCalls * 110,
    models: nCalls > 0 ? [model] : [],
  };
}

/** A finished run that exited cleanly after three agent and two user turns. */
export function makeRun(overrides: Partial<ScenarioRun> = {}): ScenarioRun {
  return {
    scenario: 'test_domain__s1',
    domain: 'test_domain',
    turns: [
      { start: 0, end: 1, role: 'agent', text: 'Hello, how can I help?', latencyMs: 400 },
      { start: 1, end: 2, role: 'user', text: 'I want to cancel.' },
      { start: 2, end: 3, role: 'agent', text: 'Done.', latencyMs: 600 },
      { start: 3, end: 4, role: 'user', text: 'Thanks' },
      { start: 4, end: 5, role: 'agent', text: 'Bye', latencyMs: 500 },
    ],
    startedAt: '2026-01-01T00:00:00.000Z',
    durationSeconds: 12.5,
    stopReason: '[EXIT]',
    agentSummary: { actions: [], db_hash: 'hash-a' },
    userSummary: { actions: [], db_hash: null },
    finalResponses: [],
    tokenUsage: { agent: usage(4), user: usage(3) },
    latencies: [400, 600, 500],
    syncErrors: [],
    bridgeLog: [],
    ...overrides,
  };
}

/** Metrics of a scored scenario, for aggregation and report tests. */
export function makeMetrics(overrides: Partial<ScenarioMetrics> = {}): ScenarioMetrics {
  return {
    total_turns: 4,
    duration_seconds: 4,
    turns: [
      { role: 'agent', text: 'Hi', start: 0, end: 1, latency_ms: 500 },
      { role: 'user', text: 'Hello', start: 1, end: 2 },
      { role: 'agent', text: 'Done', start: 2, end: 3, latency_ms: 700 },
      { role: 'user', text: 'Bye', start: 3, end: 4 },
    ],
    latency_stats: { count: 2, mean_ms: 600, p50_ms: 700, p95_ms: 700, min_ms: 500, max_ms: 700 },
    latencies: [
      { user_transcript: '', agent_transcript: 'Hi', latency_ms: 500 },
      { user_transcript: 'Hello', agent_transcript: 'Done', latency_ms: 700 },
    ],
    scenario_name: 'dom__s1',
    scenario_directory: '',
    scenario_duration: 10,
    stop_reason: '[EXIT]',
    token_usage: { agent: usage(4), user: usage(3) },
    domain: 'dom',
    trial: 1,
    actions: { agent: [], user: [] },
    reference_action_count: 0,
    failure: null,
    sync_errors: [],
    is_action_match: true,
    db_state_match: true,
    db_state_expected_hash: 'h',
    db_state_actual_hash: 'h',
    user_db_state_match: 'N/A',
    user_db_state_expected_hash: null,
    user_db_state_actual_hash: null,
    db_state_assertion_pass_rate: 'N/A',
    db_state_assertion_verdicts: [],
    nl_assertion_pass_rate: 'N/A',
    nl_assertion_verdicts: [],
    judge_score: null,
    judge_passed: 'N/A',
    judge: null,
    clean_exit: true,
    is_successful: true,
    success_breakdown: {
      passed: ['db_state_match', 'clean_exit'],
      failed: [],
      not_applicable: [],
      excluded: ['is_action_match'],
    },
    is_task_successful: true,
    stalled: false,
    scorer: 'nemo',
    scripted: false,
    scripted_sides: { agent: false, user: false },
    scoring_warnings: [],
    ...overrides,
  };
}

/** A predicate lookup that knows no predicate. */
export const noPredicates: PredicateLookup = () => undefined;

/**
 * A scorer input: {@link makeScenario}, {@link makeRun} and no predicates, unless overridden;
 * expected states are the test's to give.
 */
export function scoreInput(overrides: Partial<Tau2ScoreInput> = {}): Tau2ScoreInput {
  return { scenario: makeScenario(), run: makeRun(), predicates: noPredicates, ...overrides };
}

/** The agent-side db diff of one changed field: `table[record].field` is `actual`, not `expected`. */
export function fieldMismatch(
  table: string,
  record: string,
  field: string,
  expected: unknown,
  actual: unknown,
): DbDiffReport {
  return {
    status: 'computed',
    side: 'agent',
    diff: {
      tables_added: [],
      tables_removed: [],
      tables_modified: {
        [table]: {
          records_added: [],
          records_removed: [],
          records_modified: {
            [record]: {
              fields_added: [],
              fields_removed: [],
              fields_modified: { [field]: { type: 'value_mismatch', expected, actual } },
            },
          },
        },
      },
    },
  };
}
