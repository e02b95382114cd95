/**
 * Turning the scenarios of a NeMo suite into {@link Scenario}s: NeMo's prompts and tools JSON
 * unchanged (tools are bound in its key order), NeMo's success signals and matching options, the
 * reference answer, and the derived gold calls as the scripted agent's plan.
 *
 * Matching options: `clean_text` adds nothing to NeMo's comparison beyond the lower-casing of
 * `ignore_capitalization`, so it is not carried.
 *
 * @module
 */
import type { JsonObject } from '@scenaro/agent/scenario';
import { SUCCESS_SIGNALS } from '../../scenario.js';
import type { Scenario, SidedActionRecord, SuccessSignal } from '../../scenario.js';
import { readDataJson, readSuiteScenarios } from './suite-data.js';
import type { NemoScenarioEntry, NemoSideDescription } from './suite-data.js';

function parseState(text: string | null): JsonObject {
  if (text === null || text === '') return {};
  return JSON.parse(text) as JsonObject;
}

function signals(list: readonly string[]): SuccessSignal[] {
  return list.filter((s): s is SuccessSignal => (SUCCESS_SIGNALS as readonly string[]).includes(s));
}

/** What the simulated user wants and knows, in plain lines (the scripted user's instructions). */
export function userInstructionsOf(side: NemoSideDescription): string {
  const lines = [
    side.task?.goal,
    side.task?.background,
    side.persona?.background,
    ...(side.actions?.instructions ?? []),
    ...(side.resources?.information ?? []),
  ];
  const kept = lines.filter((l): l is string => typeof l === 'string' && l.trim() !== '');
  return [...new Set(kept)].join('\n');
}

/** The derived gold calls, in order, as the scenario's reference actions. */
function referenceActions(entry: NemoScenarioEntry): SidedActionRecord[] {
  return entry.replay.actions.map((a) => ({
    action_type: a.action_type,
    name: a.name,
    arguments: structuredClone(a.arguments),
    result: structuredClone(a.result),
    side: a.side === 'user' ? 'user' : 'agent',
  }));
}

/** One NeMo scenario; `inlineDb` is the eva db sent inline, when the scenario has one. */
export function nemoScenario(
  name: string,
  entry: NemoScenarioEntry,
  options: { domain: string; inlineDb?: JsonObject },
): Scenario {
  const agentState = options.inlineDb
    ? { db: options.inlineDb }
    : parseState(entry.shared_state_init_agent);
  const scenario: Scenario = {
    name,
    domain: options.domain,
    source: `NeMo ${entry.suite} scenario ${name}`,
    maxDurationSeconds: entry.max_duration,
    successSignals: signals(entry.success_signals),
    agent: {
      prompt: entry.agent_prompt,
      tools: structuredClone(entry.agent_tools),
      toolDomain: entry.tool_domain,
      sharedStateInit: agentState,
    },
    user: {
      prompt: entry.user_prompt,
      tools: structuredClone(entry.user_tools),
      toolDomain: entry.tool_domain,
      sharedStateInit: parseState(entry.shared_state_init_user),
    },
    userInstructions: userInstructionsOf(entry.user),
    initializationActions: [],
    referenceActions: referenceActions(entry),
    dbStateAssertions: [],
    nlAssertions: [...(entry.nl_assertions ?? [])],
    expectedDbHash: entry.expected_db_hash,
    expectedUserDbHash: entry.expected_user_db_hash,
    actionMatch: {
      ignoreCapitalization: entry.scoring.ignore_capitalization,
      ignorePunctuation: entry.scoring.ignore_punctuation,
      disallowExtraItems: entry.scoring.disallow_extra_items,
    },
  };
  if (entry.description) scenario.description = entry.description;
  if (entry.reference_answer !== null && entry.reference_answer !== undefined) {
    scenario.referenceAnswer = structuredClone(entry.reference_answer);
  }
  return scenario;
}

/**
 * The `loadScenarios` of a NeMo suite: its `scenarios.json` from the data root, each eva
 * scenario with its db read from the data root (NeMo sends it inline).
 */
export function nemoSuiteLoader(
  suite: string,
  domain: string,
): (dataRoot: string) => Promise<Scenario[]> {
  return async (dataRoot) => {
    const entries = await readSuiteScenarios(dataRoot, suite);
    const scenarios: Scenario[] = [];
    for (const [name, entry] of Object.entries(entries)) {
      const inlineDb = entry.agent_inline_db_file
        ? await readDataJson(dataRoot, entry.agent_inline_db_file)
        : undefined;
      scenarios.push(nemoScenario(name, entry, { domain, ...(inlineDb ? { inlineDb } : {}) }));
    }
    return scenarios;
  };
}
