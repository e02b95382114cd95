/**
 * Reads tau2-bench task files from a data root and turns each voice task of
 * the `base` split into a {@link Scenario}.
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { JsonObject } from '@scenaro/agent/scenario';
import { textwrapIndent } from '@scenaro/agent/python';
import type {
  DbStateAssertion,
  Scenario,
  SidedActionRecord,
  SidedInitializationAction,
  Side,
  SideSetup,
  SuccessSignal,
} from '../../scenario.js';

/** tau2's structured user instructions. */
export type Tau2StructuredInstructions = {
  domain: string;
  reason_for_call: string;
  known_info?: string | null;
  unknown_info?: string | null;
  task_instructions: string;
};

/** A call of an environment function (`initialization_actions`). */
export type Tau2EnvFunctionCall = {
  env_type: 'user' | 'assistant';
  func_name: string;
  arguments?: JsonObject | null;
};

/** One task of a tau2 `tasks.json` (the fields the port uses). */
export type Tau2Task = {
  id: string;
  description?: {
    purpose?: string | null;
    relevant_policies?: string | null;
    notes?: string | null;
  } | null;
  user_scenario: { persona?: string | null; instructions: string | Tau2StructuredInstructions };
  initial_state?: { initialization_actions?: Tau2EnvFunctionCall[] | null } | null;
  evaluation_criteria?: {
    actions?:
      | {
          action_id?: string;
          requestor?: 'user' | 'assistant';
          name: string;
          arguments?: JsonObject;
        }[]
      | null;
    env_assertions?:
      (Tau2EnvFunctionCall & { assert_value: unknown; message?: string | null })[] | null;
    nl_assertions?: string[] | null;
  } | null;
};

/** The upper bound every tau2 scenario runs under, in seconds. */
export const TAU2_MAX_DURATION_SECONDS = 900;

async function readJson<T>(file: string): Promise<T> {
  return JSON.parse(await readFile(file, 'utf8')) as T;
}

/** Read a data-root text file (a policy). */
export async function readDataText(
  dataRoot: string,
  folder: string,
  file: string,
): Promise<string> {
  return readFile(path.join(dataRoot, folder, file), 'utf8');
}

/**
 * The tasks the NeMo harness uses for a domain folder: ids that are keys of
 * `tasks_voice.json["configs"]` and in `split_tasks.json["base"]`, in
 * `tasks.json` order.
 */
export async function loadVoiceBaseTasks(dataRoot: string, folder: string): Promise<Tau2Task[]> {
  const dir = path.join(dataRoot, folder);
  const [tasks, voice, splits] = await Promise.all([
    readJson<Tau2Task[]>(path.join(dir, 'tasks.json')),
    readJson<{ configs?: Record<string, unknown> }>(path.join(dir, 'tasks_voice.json')),
    readJson<Record<string, string[]>>(path.join(dir, 'split_tasks.json')),
  ]);
  const voiceIds = new Set(Object.keys(voice.configs ?? {}));
  const base = new Set(splits['base'] ?? []);
  return tasks.filter((t) => voiceIds.has(t.id) && base.has(t.id));
}

/** tau2's `str(UserScenario)`: persona and instructions as indented text. */
export function renderUserScenario(scenario: Tau2Task['user_scenario']): string {
  const lines: string[] = [];
  if (scenario.persona !== null && scenario.persona !== undefined) {
    lines.push('Persona:', textwrapIndent(scenario.persona, '\t'));
  }
  lines.push('Instructions:', textwrapIndent(renderInstructions(scenario.instructions), '\t'));
  return lines.join('\n');
}

function renderInstructions(instructions: string | Tau2StructuredInstructions): string {
  if (typeof instructions === 'string') return instructions;
  const lines = [`Domain: ${instructions.domain}`];
  lines.push(`Reason for call:\n${textwrapIndent(instructions.reason_for_call, '\t')}`);
  if (instructions.known_info !== null && instructions.known_info !== undefined) {
    lines.push(`Known info:\n${textwrapIndent(instructions.known_info, '\t')}`);
  }
  if (instructions.unknown_info !== null && instructions.unknown_info !== undefined) {
    lines.push(`Unknown info:\n${textwrapIndent(instructions.unknown_info, '\t')}`);
  }
  lines.push(`Task instructions:\n${textwrapIndent(instructions.task_instructions, '\t')}`);
  return lines.join('\n');
}

function sideOf(envType: string | undefined): Side {
  return envType === 'user' ? 'user' : 'agent';
}

/** Everything that differs between the tau2 domains when building scenarios. */
export interface ScenarioBuildOptions {
  /** Scenario name for a task. */
  name: (task: Tau2Task) => string;
  /** Registry domain of both sides. */
  domain: string;
  /** Agent and user side setup (prompt built from the task). */
  agent: (task: Tau2Task) => SideSetup;
  user: (task: Tau2Task, userInstructions: string) => SideSetup;
  /** Success signals for a task. */
  successSignals: (task: Tau2Task) => SuccessSignal[];
  /** Where the task came from, for messages. */
  source: string;
  /**
   * Whether the task's `nl_assertions` are carried (the reference harness
   * passes them on for retail and telecom, not for airline). Default true.
   */
  includeNlAssertions?: boolean;
}

/** Convert one tau2 task into a scenario. */
export function taskToScenario(task: Tau2Task, options: ScenarioBuildOptions): Scenario {
  const criteria = task.evaluation_criteria ?? {};
  const userInstructions = renderUserScenario(task.user_scenario);
  const initializationActions: SidedInitializationAction[] = (
    task.initial_state?.initialization_actions ?? []
  ).map((a) => ({
    func_name: a.func_name,
    arguments: structuredClone(a.arguments ?? {}),
    side: sideOf(a.env_type),
  }));
  const referenceActions: SidedActionRecord[] = (criteria.actions ?? []).map((a) => ({
    action_type: a.name,
    name: a.name,
    arguments: structuredClone(a.arguments ?? {}),
    side: a.requestor === 'user' ? 'user' : 'agent',
  }));
  const dbStateAssertions: DbStateAssertion[] = (criteria.env_assertions ?? []).map((a) => {
    const assertion: DbStateAssertion = {
      side: sideOf(a.env_type),
      func_name: a.func_name,
      arguments: structuredClone(a.arguments ?? {}),
      assert_value: a.assert_value,
    };
    if (a.message !== null && a.message !== undefined) assertion.message = a.message;
    return assertion;
  });
  const scenario: Scenario = {
    name: options.name(task),
    domain: options.domain,
    source: `${options.source} task ${task.id}`,
    maxDurationSeconds: TAU2_MAX_DURATION_SECONDS,
    successSignals: options.successSignals(task),
    agent: options.agent(task),
    user: options.user(task, userInstructions),
    userInstructions,
    initializationActions,
    referenceActions,
    dbStateAssertions,
    nlAssertions: options.includeNlAssertions === false ? [] : [...(criteria.nl_assertions ?? [])],
  };
  const purpose = task.description?.purpose;
  if (purpose) scenario.description = purpose;
  return scenario;
}

/** Tool map for `update_system_prompt`: every name with empty constructor kwargs. */
export function toolMap(names: readonly string[]): Record<string, JsonObject> {
  return Object.fromEntries(names.map((n) => [n, {}]));
}
