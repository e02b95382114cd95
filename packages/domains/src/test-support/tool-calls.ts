/**
 * Calling a domain's tools in tests the way the bot does: arguments validated, write actions
 * recorded in the scenario state.
 *
 * @module
 */
import { createScenarioState, executeBoundTool } from '@scenaro/agent/scenario';
import type { Db, ScenarioState, ToolCallOutcome, ToolDefinition } from '@scenaro/agent/scenario';

/** A fresh scenario state holding `db`. */
export function stateWith(db: Db): ScenarioState {
  const state = createScenarioState();
  state.db = db;
  return state;
}

/** `call(state, name, args)` over `tools`, bound to `domain`. */
export function toolCaller(
  tools: readonly ToolDefinition[],
  domain: string,
): (state: ScenarioState, name: string, args: object) => Promise<ToolCallOutcome> {
  return (state, name, args) => {
    const tool = tools.find((t) => t.name === name);
    if (!tool) throw new Error(`no tool ${name}`);
    return executeBoundTool(state, { tool, domain, options: {} }, args);
  };
}

/** The session db, untyped, for reading nested fields in assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const rawDb = (state: ScenarioState): any => state.db;

/**
 * What a domain's tool tests use: `session()`, a fresh state holding `fixture()`; `call`, see
 * {@link toolCaller}; `db`, see {@link rawDb}.
 */
export function toolTests(tools: readonly ToolDefinition[], domain: string, fixture: () => Db) {
  return { session: () => stateWith(fixture()), call: toolCaller(tools, domain), db: rawDb };
}
