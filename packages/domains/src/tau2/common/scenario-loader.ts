/**
 * The scenario loader every tau2 domain uses: read the voice tasks of the base split and the
 * agent policy from the data root, and build each side's setup (prompt, tools, db) around them.
 *
 * @module
 */
import type { DomainModule } from '@scenaro/agent/scenario';
import type { EvalDomain, Scenario, SuccessSignal } from '../../scenario.js';
import { END_CONVERSATION_TOOL } from './generic-tools.js';
import { agentPrompt, userPrompt } from './prompts.js';
import { loadVoiceBaseTasks, readDataText, taskToScenario, toolMap } from './task-loader.js';
import type { Tau2Task } from './task-loader.js';

/** What differs between the tau2 domains' scenarios. */
export interface Tau2LoaderOptions {
  /** Scenario-name prefix (`tau2_airline`, `tau2_telecom_workflow`, ...). */
  prefix: string;
  /** Registry domain of both sides, and the data-root folder of the tasks and dbs. @default prefix */
  domain?: string;
  /** Where the tasks come from, for messages (`tau2-bench airline`). */
  source: string;
  /** The agent policy, read from the data root. @default `<domain>/policy.md` */
  policy?: (dataRoot: string) => Promise<string>;
  /** Extra notes after the policy (see `agentPrompt`). */
  agentNotes?: readonly string[];
  /**
   * Tools bound on the agent side; the `end_conversation` control tool every bot registers is
   * added after them.
   */
  agentTools: readonly string[];
  /** Tools bound on the user side, which then loads `<domain>/user_db.json`. @default none */
  userTools?: readonly string[];
  /** Extra user-simulator guidelines (see `userPrompt`). */
  userGuidelines?: readonly string[];
  /** Scenario name of a task. @default `<prefix>__<task id>` */
  scenarioName?: (prefix: string, taskId: string) => string;
  /** The signal the end state is judged by. */
  stateSignal: 'db_state_match' | 'db_state_assertion';
  /**
   * Whether the tasks' `nl_assertions` are carried and judged (the reference harness does so for
   * retail and telecom, not for airline).
   */
  nlAssertions: boolean;
}

/** Success signals: the end-state signal, `nl_assertion` when the task has some, `clean_exit`. */
function successSignals(options: Tau2LoaderOptions): (task: Tau2Task) => SuccessSignal[] {
  return (task) =>
    options.nlAssertions && (task.evaluation_criteria?.nl_assertions ?? []).length > 0
      ? [options.stateSignal, 'nl_assertion', 'clean_exit']
      : [options.stateSignal, 'clean_exit'];
}

/** The `loadScenarios` of a tau2 eval domain. */
export function tau2ScenarioLoader(
  options: Tau2LoaderOptions,
): (dataRoot: string) => Promise<Scenario[]> {
  const { prefix } = options;
  const domain = options.domain ?? prefix;
  const name = options.scenarioName ?? ((p: string, id: string) => `${p}__${id}`);
  const readPolicy =
    options.policy ?? ((dataRoot: string) => readDataText(dataRoot, domain, 'policy.md'));
  const agentTools = toolMap([...options.agentTools, END_CONVERSATION_TOOL]);
  const userTools = toolMap(options.userTools ?? []);
  const userDb = options.userTools ? { db_path: `${domain}/user_db.json` } : {};
  return async (dataRoot) => {
    const [tasks, policy] = await Promise.all([
      loadVoiceBaseTasks(dataRoot, domain),
      readPolicy(dataRoot),
    ]);
    const prompt = agentPrompt(policy, options.agentNotes);
    return tasks.map((task) =>
      taskToScenario(task, {
        name: (t) => name(prefix, t.id),
        domain,
        source: options.source,
        includeNlAssertions: options.nlAssertions,
        successSignals: successSignals(options),
        agent: () => ({
          prompt,
          tools: structuredClone(agentTools),
          toolDomain: domain,
          sharedStateInit: { db_path: `${domain}/db.json` },
        }),
        user: (_t, instructions) => ({
          prompt: userPrompt(instructions, options.userGuidelines),
          tools: structuredClone(userTools),
          toolDomain: domain,
          sharedStateInit: structuredClone(userDb),
        }),
      }),
    );
  };
}

/**
 * A tau2 eval domain whose agent gets every tool of `module` and whose user has none (airline,
 * retail): named and loaded under the module's name.
 */
export function tau2EvalDomain(
  module: DomainModule,
  options: Omit<Tau2LoaderOptions, 'prefix' | 'agentTools'>,
): EvalDomain {
  return {
    name: module.name,
    module,
    loadScenarios: tau2ScenarioLoader({
      prefix: module.name,
      agentTools: (module.tools ?? []).map((t) => t.name),
      ...options,
    }),
  };
}
