/**
 * The {@link Scenario} a checked commerce scenario file describes.
 *
 * @module
 */
import type { JsonObject } from '@scenaro/agent/scenario';
import type { Scenario, SidedActionRecord, SidedInitializationAction } from '../../scenario.js';
import { COMMERCE_DB_PATH, COMMERCE_DOMAIN } from '../data-root.js';
import { COMMERCE_TOOLS } from '../domain.js';
import { buildAgentPrompt, buildUserInstructions, buildUserPrompt } from '../prompts.js';
import type { CommerceScenarioFile } from './schema.js';

/** The scenario name a file gets: `commerce__<name>`. */
export function commerceScenarioName(fileName: string): string {
  return `${COMMERCE_DOMAIN}__${fileName}`;
}

/** Build the {@link Scenario} of a checked file. */
export function scenarioFromFile(
  file: CommerceScenarioFile,
  source: string,
  policy: string,
): Scenario {
  const toolKwargs: Record<string, JsonObject> = {};
  for (const tool of COMMERCE_TOOLS) toolKwargs[tool.name] = {};
  const initializationActions: SidedInitializationAction[] = file.initialization.agent.map((a) => ({
    func_name: a.func_name,
    arguments: structuredClone(a.arguments),
    side: 'agent',
  }));
  const referenceActions: SidedActionRecord[] = file.gold_actions.map((a) => ({
    action_type: a.name,
    name: a.name,
    arguments: structuredClone(a.arguments),
    side: a.side,
  }));
  const scenario: Scenario = {
    name: commerceScenarioName(file.name),
    domain: COMMERCE_DOMAIN,
    source,
    description: file.description,
    maxDurationSeconds: file.max_duration,
    successSignals: [...file.success_signals],
    agent: {
      prompt: buildAgentPrompt(policy, file.agent.notes),
      tools: toolKwargs,
      toolDomain: COMMERCE_DOMAIN,
      sharedStateInit: { db_path: COMMERCE_DB_PATH },
    },
    user: {
      prompt: buildUserPrompt(file.user),
      tools: {},
      toolDomain: COMMERCE_DOMAIN,
      sharedStateInit: {},
    },
    userInstructions: buildUserInstructions(file.user),
    initializationActions,
    referenceActions,
    dbStateAssertions: [],
    nlAssertions: [...file.nl_assertions],
  };
  if (file.expected_db_hash !== undefined) scenario.expectedDbHash = file.expected_db_hash;
  if (file.expected_state !== undefined)
    scenario.expectedState = { agent: structuredClone(file.expected_state) };
  return scenario;
}
