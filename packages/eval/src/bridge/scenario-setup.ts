/**
 * Loading a scenario into both bots over the control plane, every request awaited and
 * id-matched: `reset`, `update_system_prompt` (user first), then `apply_initialization` with the
 * side's shared state (and, for scripted policies, the gold plan) and initialization actions.
 */
import { SCRIPTED_PLAN_KEY } from '@scenaro/agent';
import type { ScriptedFault } from '@scenaro/agent';
import type { JsonObject } from '@scenaro/agent/scenario';
import type { Scenario, Side } from '@scenaro/domains';
import type { ApplyInitializationResult } from '@scenaro/sdk/protocol';
import type { BotConnection } from './bot-connection.js';
import type { BotRole } from './types.js';

export interface ScenarioSetupOptions {
  /** Most turns of each side (given to scripted policies with the plan). */
  maxTurns: number;
  /** Give the bots the gold plan under `scripted_plan` (for scripted policies). */
  includePlan: boolean;
  /** Faults to inject into the scripted reference agent. */
  faults?: ScriptedFault[];
}

/** The scripted user's first words: the start of its instructions, on one line. */
function openingOf(instructions: string): string {
  const flat = instructions.replace(/\s+/g, ' ').trim();
  if (!flat) return 'Hello, I need some help.';
  return flat.length > 600 ? `${flat.slice(0, 597)}...` : flat;
}

/** A side's `shared_state_init`, with the gold plan when asked for. */
function sharedStateInit(
  scenario: Scenario,
  side: Side,
  options: ScenarioSetupOptions,
): JsonObject {
  const setup = side === 'agent' ? scenario.agent : scenario.user;
  const state: JsonObject = { ...setup.sharedStateInit };
  if (options.includePlan) {
    state[SCRIPTED_PLAN_KEY] = {
      actions: scenario.referenceActions.map((a) => ({
        name: a.name,
        arguments: a.arguments,
        side: a.side,
      })),
      max_turns: options.maxTurns,
      ...(side === 'agent' && options.faults?.length ? { faults: options.faults } : {}),
      ...(side === 'user' ? { opening: openingOf(scenario.userInstructions) } : {}),
    };
  }
  return state;
}

/** Load `scenario` into both bots; throws with the reason when a bot refuses. */
export async function setUpScenario(
  bot: (role: BotRole) => BotConnection,
  scenario: Scenario,
  options: ScenarioSetupOptions,
): Promise<void> {
  const [agentReset, userReset] = await Promise.all([
    bot('agent').request('reset', {}),
    bot('user').request('reset', {}),
  ]);
  if (agentReset !== true || userReset !== true) throw new Error('reset returned false');
  for (const [role, setup] of [
    ['user', scenario.user],
    ['agent', scenario.agent],
  ] as const) {
    const ok = await bot(role).request('update_system_prompt', {
      prompt: setup.prompt,
      tools: JSON.stringify(setup.tools),
      add_suffix: false,
      tool_domain: setup.toolDomain,
    });
    if (ok !== true) {
      throw new Error(
        `update_system_prompt returned false on the ${role} bot (unknown tool or empty prompt?)`,
      );
    }
  }
  for (const side of ['agent', 'user'] as const) {
    const result = await bot(side).request<ApplyInitializationResult>('apply_initialization', {
      domain: scenario.domain,
      shared_state_init: JSON.stringify(sharedStateInit(scenario, side, options)),
      actions: scenario.initializationActions
        .filter((a) => a.side === side)
        .map((a) => ({ func_name: a.func_name, arguments: a.arguments ?? {}, side })),
    });
    if (!result.success) {
      throw new Error(
        `apply_initialization failed on the ${side} bot: ${result.errors.join('; ')}`,
      );
    }
  }
}
