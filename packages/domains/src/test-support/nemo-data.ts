/**
 * Running NeMo suite tools in tests the way NeMo's bot does for one scenario: tools bound in the
 * order of the scenario's tools JSON, `shared_state_init` applied, then calls with what they
 * deliver, record, push and leave behind. Reads the suites from `../shared/eval-data`; tests
 * that need them skip (and say so) when it is absent.
 *
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  applyBindHooks,
  applyInitialization,
  createScenarioState,
  DbCache,
  DomainRegistry,
  executeBoundTool,
  registerControlTools,
} from '@scenaro/agent/scenario';
import type { JsonObject, ScenarioState, ToolCallOutcome } from '@scenaro/agent/scenario';
import { registerEvalDomains } from '../register.js';
import type { EvalDomain, Scenario } from '../scenario.js';

/** The shared data root beside the repository (`../shared/eval-data`) the suites are read from. */
export const nemoDataRoot = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../../shared/eval-data',
);

/** Whether `suite` is present in the shared data root; warns once with the reason when not. */
export function hasSuiteData(suite: string): boolean {
  const file = path.join(nemoDataRoot, suite, 'scenarios.json');
  if (existsSync(file)) return true;
  console.warn(`\n!!! NeMo ${suite} tests SKIPPED: ${file} not found (no shared data root) !!!\n`);
  return false;
}

/** A suite's `tools.json`. */
export function readToolsJson(suite: string): { tools: NemoToolDoc[] } {
  return JSON.parse(readFileSync(path.join(nemoDataRoot, suite, 'tools.json'), 'utf8')) as {
    tools: NemoToolDoc[];
  };
}

/** One tool of a `tools.json`. */
export interface NemoToolDoc {
  name: string;
  description: string;
  parameters: JsonObject;
  registry_domain: string;
  examples: NemoToolExample[];
}

/** A call run through NeMo's tool, with everything it produced. */
export interface NemoToolExample {
  scenario_state: string;
  setup_calls: { name: string; arguments: JsonObject }[];
  arguments: JsonObject;
  note: string;
  result: unknown;
  action_record: JsonObject | null;
  server_messages: JsonObject[];
  db_hash_after?: string;
  state_after?: JsonObject;
}

/** A registry with `domains` and the control tools, as a bot serving them has. */
export function registryOf(domains: readonly EvalDomain[]): DomainRegistry {
  return registerControlTools(registerEvalDomains(new DomainRegistry(), domains));
}

/** The agent side of `scenario` after `update_system_prompt` and `apply_initialization`. */
export async function agentSession(
  scenario: Scenario,
  registry: DomainRegistry,
): Promise<ScenarioState> {
  const state = createScenarioState();
  state.toolDomain = scenario.agent.toolDomain;
  for (const [name, options] of Object.entries(scenario.agent.tools)) {
    const found = registry.findTool(scenario.agent.toolDomain, name);
    if (!found) throw new Error(`tool ${name} is not registered`);
    state.tools.set(found.tool.name, { tool: found.tool, domain: found.domain, options });
  }
  applyBindHooks(state.shared, state.tools.values());
  const init = await applyInitialization(
    state,
    {
      domain: scenario.domain,
      shared_state_init: JSON.stringify(scenario.agent.sharedStateInit),
      actions: [],
    },
    registry,
    { dataRoot: nemoDataRoot, cache: new DbCache() },
  );
  if (!init.success) throw new Error(init.errors.join('; '));
  return state;
}

/** A call's outcome and the `server-message` payloads it pushed, in order. */
export interface ObservedCall {
  outcome: ToolCallOutcome;
  messages: JsonObject[];
}

/** Call a bound tool; `<exit>` is added to the messages as the bot pushes it after the result. */
export async function callTool(
  state: ScenarioState,
  name: string,
  args: JsonObject,
): Promise<ObservedCall> {
  const bound = state.tools.get(name);
  if (!bound) throw new Error(`tool ${name} is not bound`);
  const messages: JsonObject[] = [];
  const outcome = await executeBoundTool(state, bound, args, {
    onAction: (action, toolDomain) =>
      messages.push({ type: 'action-applied', action, tool_domain: toolDomain }),
    onServerMessage: (data) => messages.push(data),
  });
  if (outcome.exitReason !== undefined)
    messages.push({ text: `<exit>${outcome.exitReason}</exit>` });
  return { outcome, messages };
}

/** JSON-equal form (integral floats lose their `.0`, as they do in a JSON round trip). */
export function plain(value: unknown): unknown {
  return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
}
