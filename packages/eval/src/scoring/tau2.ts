/**
 * tau2-bench's own scoring (evaluation.md B2), selectable per run instead of the NeMo composite.
 *
 * - Termination gate: only an agent stop (`[EXIT]`) or a user stop (`[USER_STOP]`) is scored;
 *   `[MAX_TURNS]`, `[TIMEOUT]`, `[ERROR]` and bridge failures give reward 0.
 * - `reward` = product of the components listed in `reward_basis`:
 *   - `DB`: 1 iff the agent-db hash and (when an expected one exists) the user-db hash match;
 *   - `ACTION`: 1 iff every gold action is found among the tool calls of both sides
 *     (`compare_args` semantics, order-free, one call may satisfy several gold actions);
 *   - `COMMUNICATE`: 1 iff every `communicate_info` string, lower-cased, is a substring of some agent
 *     message lower-cased with commas removed;
 *   - `ENV_ASSERTION`: product over the db-state assertions;
 *   - `NL_ASSERTION`: 1 iff the judge finds every NL assertion met.
 *   Empty criteria give 1. The other components are still computed, as diagnostics.
 * - `is_successful` iff `|reward - 1| <= 1e-6`.
 *
 * Scenarios do not carry tau2's `reward_basis`, `communicate_info` or `compare_args`; pass them as
 * `criteria` when known. Without them: `reward_basis` follows the scenario's success signals
 * (`db_state_match` -> DB, `db_state_assertion` -> ENV_ASSERTION, `nl_assertion` -> NL_ASSERTION,
 * `is_action_match` -> ACTION; tau2's default `[DB, COMMUNICATE]` when none maps), COMMUNICATE is
 * not applicable (left out of the product), and gold actions compare with `compare_args = None`.
 * A basis component that cannot be computed (DB without an expected db, NL_ASSERTION without a
 * judge) makes the scenario not scored (`'N/A'`), never failed.
 *
 * @module
 */
import { pyEquals } from '@scenaro/agent/python';
import type { Scenario } from '@scenaro/domains';
import type { ScenarioRun } from '../bridge/types.js';
import { computeSignals } from './signals.js';
import type { ScenarioSignals } from './signals.js';
import type { ScoreInput } from './score-input.js';
import type { ScenarioMetrics, SuccessBreakdown, Tau2RewardComponent, Tau2Score } from './types.js';
import { isJsonObject } from '@scenaro/sdk/util';

/** Every reward component, in tau2's order. */
export const TAU2_COMPONENTS: readonly Tau2RewardComponent[] = [
  'DB',
  'ENV_ASSERTION',
  'ACTION',
  'COMMUNICATE',
  'NL_ASSERTION',
];

/** A gold action as tau2's task files write it. */
export interface Tau2GoldAction {
  action_id?: string;
  requestor?: 'assistant' | 'user';
  name: string;
  arguments?: Record<string, unknown>;
  /** `null`/absent: compare the predicted call's keys; `[]`: name only; else these keys. */
  compare_args?: string[] | null;
}

/** tau2 evaluation criteria the scenario format does not carry. */
export interface Tau2Criteria {
  reward_basis?: Tau2RewardComponent[];
  /** `undefined`: not known (COMMUNICATE not applicable); `null` or `[]`: nothing to communicate (1). */
  communicate_info?: string[] | null;
  /** Gold actions with `compare_args`; defaults to the scenario's reference actions. */
  actions?: Tau2GoldAction[] | null;
}

/** Input of {@link scoreScenarioTau2}. */
export interface Tau2ScoreInput extends ScoreInput {
  criteria?: Tau2Criteria;
}

/** A tool call made by either side. */
export interface ToolCallLike {
  name: string;
  arguments: Record<string, unknown>;
}

/**
 * tau2's `Action.compare_with_tool_call`: names equal; then the compared keys are `compare_args`,
 * or the predicted call's keys when it is `null` (so extra predicted keys fail and gold-only keys are
 * ignored); no keys to compare matches; otherwise both sides' values at those keys must be `==`.
 */
export function compareWithToolCall(gold: Tau2GoldAction, call: ToolCallLike): boolean {
  if (gold.name !== call.name) return false;
  const keys = gold.compare_args ?? Object.keys(call.arguments);
  if (keys.length === 0) return true;
  const pick = (args: Record<string, unknown>): Record<string, unknown> =>
    Object.fromEntries(keys.filter((k) => Object.hasOwn(args, k)).map((k) => [k, args[k]]));
  return pyEquals(pick(call.arguments), pick(gold.arguments ?? {}));
}

function contextMessages(context: unknown): unknown[] {
  if (Array.isArray(context)) return context;
  if (isJsonObject(context) && Array.isArray(context['messages'])) return context['messages'];
  return [];
}

function parseArguments(raw: unknown): Record<string, unknown> | undefined {
  if (isJsonObject(raw)) return raw;
  if (typeof raw !== 'string') return undefined;
  if (raw.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return isJsonObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Tool calls of both sides: the `tool_calls` of assistant messages in each bot's context history
 * (read tools included), plus the write actions the bots recorded. Calls whose arguments do not
 * parse are left out (they could otherwise match any gold action by name alone).
 */
export function collectToolCalls(run: ScenarioRun): ToolCallLike[] {
  const calls: ToolCallLike[] = [];
  for (const context of [run.agentContext, run.userContext]) {
    for (const message of contextMessages(context)) {
      if (
        !isJsonObject(message) ||
        message['role'] !== 'assistant' ||
        !Array.isArray(message['tool_calls'])
      )
        continue;
      for (const call of message['tool_calls']) {
        if (!isJsonObject(call)) continue;
        const fn = isJsonObject(call['function']) ? call['function'] : call;
        const name = fn['name'];
        const args = parseArguments(fn['arguments']);
        if (typeof name === 'string' && args !== undefined) calls.push({ name, arguments: args });
      }
    }
  }
  for (const action of [
    ...(run.agentSummary?.actions ?? []),
    ...(run.userSummary?.actions ?? []),
  ]) {
    calls.push({
      name: action.name,
      arguments: isJsonObject(action.arguments) ? action.arguments : {},
    });
  }
  return calls;
}

/** What the agent said: its turns, and the text of assistant messages in its context. */
export function agentMessages(run: ScenarioRun): string[] {
  const texts = run.turns.filter((t) => t.role === 'agent').map((t) => t.text);
  for (const message of contextMessages(run.agentContext)) {
    if (
      isJsonObject(message) &&
      message['role'] === 'assistant' &&
      typeof message['content'] === 'string'
    ) {
      texts.push(message['content']);
    }
  }
  return texts;
}

/** tau2's COMMUNICATE check: 1 iff every info string is in some agent message (case-insensitive, commas stripped from the message). */
export function communicateReward(info: readonly string[], messages: readonly string[]): number {
  const haystacks = messages.map((m) => m.toLowerCase().replace(/,/g, ''));
  return info.every((i) => haystacks.some((h) => h.includes(i.toLowerCase()))) ? 1 : 0;
}

/** The parts of a tau2 task JSON that {@link tau2CriteriaFromTask} reads. */
export interface Tau2TaskCriteriaSource {
  evaluation_criteria?: {
    reward_basis?: Tau2RewardComponent[] | null;
    communicate_info?: string[] | null;
    actions?: Tau2GoldAction[] | null;
  } | null;
}

/**
 * tau2 criteria from a task of a tau2 `tasks.json`, with tau2's defaults: no
 * `evaluation_criteria` -> empty basis (reward 1); no `reward_basis` -> `[DB, COMMUNICATE]`;
 * no `communicate_info` -> nothing to communicate.
 */
export function tau2CriteriaFromTask(task: Tau2TaskCriteriaSource): Tau2Criteria {
  const criteria = task.evaluation_criteria;
  if (criteria === null || criteria === undefined)
    return { reward_basis: [], communicate_info: null, actions: null };
  return {
    reward_basis: [...(criteria.reward_basis ?? ['DB', 'COMMUNICATE'])],
    communicate_info: criteria.communicate_info ? [...criteria.communicate_info] : null,
    actions: criteria.actions ? criteria.actions.map((a) => ({ ...a })) : null,
  };
}

/** `reward_basis` from the scenario's success signals (tau2's default `[DB, COMMUNICATE]` when none maps). */
export function defaultRewardBasis(scenario: Scenario): Tau2RewardComponent[] {
  const basis: Tau2RewardComponent[] = [];
  const signals = new Set<string>(scenario.successSignals);
  if (signals.has('db_state_match')) basis.push('DB');
  if (signals.has('db_state_assertion')) basis.push('ENV_ASSERTION');
  if (signals.has('is_action_match')) basis.push('ACTION');
  if (signals.has('nl_assertion')) basis.push('NL_ASSERTION');
  return basis.length > 0 ? basis : ['DB', 'COMMUNICATE'];
}

function goldActions(input: Tau2ScoreInput): Tau2GoldAction[] {
  if (input.criteria?.actions !== undefined) return input.criteria.actions ?? [];
  return input.scenario.referenceActions.map((a) => ({
    name: a.name,
    arguments: a.arguments,
    requestor: a.side === 'user' ? 'user' : 'assistant',
  }));
}

/** Combine computed signals into tau2-style metrics. */
export function composeTau2(signals: ScenarioSignals, input: Tau2ScoreInput): ScenarioMetrics {
  const { run } = input;
  const b = signals.base;
  const basis = [...(input.criteria?.reward_basis ?? defaultRewardBasis(input.scenario))];
  const breakdown: Tau2Score['reward_breakdown'] = {};
  const notes: Tau2Score['notes'] = {};
  const unscorable = new Set<Tau2RewardComponent>();

  // DB
  if (signals.dbMatch === null) {
    breakdown.DB = null;
    notes.DB = 'no expected db (or hash) for either side';
    unscorable.add('DB');
  } else breakdown.DB = signals.dbMatch ? 1 : 0;
  // ENV_ASSERTION
  const verdicts = b.db_state_assertion_verdicts;
  breakdown.ENV_ASSERTION = verdicts.every((v) => v.passed) ? 1 : 0;
  // ACTION
  const gold = goldActions(input);
  const calls = collectToolCalls(run);
  const missing = gold.filter((g) => !calls.some((c) => compareWithToolCall(g, c)));
  breakdown.ACTION = missing.length === 0 ? 1 : 0;
  if (missing.length > 0) notes.ACTION = `not found: ${missing.map((g) => g.name).join(', ')}`;
  // COMMUNICATE
  const info = input.criteria?.communicate_info;
  if (info === undefined) {
    breakdown.COMMUNICATE = null;
    notes.COMMUNICATE = 'the scenario carries no communicate_info';
  } else breakdown.COMMUNICATE = communicateReward(info ?? [], agentMessages(run));
  // NL_ASSERTION
  if (input.scenario.nlAssertions.length === 0) breakdown.NL_ASSERTION = 1;
  else if (b.nl_assertion_verdicts.length > 0) {
    breakdown.NL_ASSERTION = b.nl_assertion_verdicts.every((v) => v.passed) ? 1 : 0;
  } else {
    breakdown.NL_ASSERTION = null;
    notes.NL_ASSERTION = signals.judgeUnavailable ?? 'no judge verdicts';
    unscorable.add('NL_ASSERTION');
  }

  let gate: string | null = null;
  if (run.failure) gate = `bridge failure (${run.failure.phase}): ${run.failure.message}`;
  else if (run.stopReason !== '[EXIT]' && run.stopReason !== '[USER_STOP]')
    gate = `terminated by ${run.stopReason}`;

  const blocking = basis.filter((c) => unscorable.has(c));
  const product = blocking.length > 0 ? null : basis.reduce((p, c) => p * (breakdown[c] ?? 1), 1);
  const reward = gate !== null ? 0 : product;

  const successBreakdown: SuccessBreakdown = {
    passed: [],
    failed: [],
    not_applicable: [],
    excluded: [],
  };
  for (const c of TAU2_COMPONENTS) {
    const v = breakdown[c];
    if (!basis.includes(c)) {
      if (v !== null && v !== undefined) successBreakdown.excluded.push(c);
    } else if (v === null || v === undefined) successBreakdown.not_applicable.push(c);
    else if (Math.abs(v - 1) <= 1e-6) successBreakdown.passed.push(c);
    else successBreakdown.failed.push(c);
  }

  const metrics: ScenarioMetrics = {
    ...b,
    is_successful: 'N/A',
    success_breakdown: successBreakdown,
    is_task_successful: 'N/A',
    scorer: 'tau2',
    tau2: {
      reward,
      reward_basis: basis,
      reward_breakdown: breakdown,
      termination_gate: gate,
      notes,
    },
  };
  const success = (r: number | null): boolean => r !== null && Math.abs(r - 1) <= 1e-6;
  if (run.failure) {
    metrics.is_successful = false;
    metrics.is_task_successful = false;
    metrics.failure_reason = gate ?? 'bridge failure';
  } else if (signals.stalled) {
    metrics.is_successful = false;
    metrics.is_task_successful = false;
    metrics.failure_reason = `stalled: the agent made ${run.tokenUsage.agent.n_calls} LLM call(s), fewer than min_agent_turns=${input.minAgentTurns ?? 0}`;
  } else if (gate !== null) {
    metrics.is_successful = false;
    metrics.failure_reason = gate;
    metrics.is_task_successful = product === null ? 'N/A' : success(product);
  } else if (product === null) {
    metrics.not_scored_reason = blocking
      .map((c) => `${c}: ${notes[c] ?? 'cannot be computed'}`)
      .join('; ');
  } else {
    metrics.is_successful = success(product);
    metrics.is_task_successful = metrics.is_successful;
  }
  return metrics;
}

/** Score one scenario the tau2 way (no stall rule unless `minAgentTurns` is given). */
export async function scoreScenarioTau2(input: Tau2ScoreInput): Promise<ScenarioMetrics> {
  const signals = await computeSignals(input, { minAgentTurns: 0 });
  return composeTau2(signals, input);
}
