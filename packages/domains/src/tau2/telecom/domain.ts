/**
 * The tau2-bench telecom domain (dual control): registry module, scenario
 * loaders for the manual-policy and workflow-policy variants, and the sync
 * producer.
 *
 * @module
 */
import type { DomainModule, ToolDefinition } from '@scenaro/agent/scenario';
import type { EvalDomain, Scenario } from '../../scenario.js';
import { tau2ScenarioLoader } from '../common/scenario-loader.js';
import { readDataText } from '../common/task-loader.js';
import { createTelecomAgentTools } from './agent-tools.js';
import { fixedClock, TAU2_TELECOM_TODAY } from './clock.js';
import type { TelecomClock } from './clock.js';
import {
  createTelecomAgentInitializationFunctions,
  telecomUserInitializationFunctions,
} from './init-functions.js';
import { telecomPredicates } from './predicates.js';
import { applyTelecomSyncDelta, syncTelecomState } from './sync.js';
import { telecomUserTools } from './user-tools.js';

/** Registry namespace of both telecom variants, and the manual variant's scenario-name prefix. */
export const TAU2_TELECOM = 'tau2_telecom';
/** Scenario-name prefix of the workflow-policy variant (same registry domain). */
export const TAU2_TELECOM_WORKFLOW = 'tau2_telecom_workflow';

/** Options of the telecom domain. */
export interface Tau2TelecomOptions {
  /**
   * The date tools and initialization functions treat as today (`YYYY-MM-DD`).
   * Defaults to tau2's fixed clock, {@link TAU2_TELECOM_TODAY}.
   */
  today?: string;
  /** The clock to run on instead (e.g. `systemClock()` for the real date); wins over `today`. */
  clock?: TelecomClock;
}

/**
 * The telecom registry module: the agent's CRM tools, the phone's user
 * tools, initialization functions of both sides, predicates and the sync
 * applier, all under `tau2_telecom`.
 */
export function createTau2TelecomModule(options: Tau2TelecomOptions = {}): DomainModule {
  const clock = options.clock ?? fixedClock(options.today ?? TAU2_TELECOM_TODAY);
  return {
    name: TAU2_TELECOM,
    tools: [...createTelecomAgentTools(clock), ...telecomUserTools],
    initializationFunctions: {
      ...telecomUserInitializationFunctions,
      ...createTelecomAgentInitializationFunctions(clock),
    },
    predicates: telecomPredicates,
    syncApplier: applyTelecomSyncDelta,
  };
}

/** Extra agent notes: the policy talks about phone tools the agent does not have. */
const TELECOM_AGENT_NOTES = [
  'The tools the policy mentions for the phone (checking the status bar, toggling airplane mode, data, ' +
    "roaming, rebooting, running a speed test, and so on) are on the customer's phone, not yours: ask the " +
    'customer to do each step and to tell you what they see. Call only your own tools.',
  'The company is based in the United States. Ask where the customer is right now when they report a ' +
    'connectivity problem, since being abroad matters for roaming.',
];

/** Extra user-simulator guidelines: the phone tools. */
const TELECOM_USER_GUIDELINES = [
  'You can operate your phone with your tools. Use one only when the agent asks you to do that step, one ' +
    'tool call per instruction, and tell the agent what it showed. Base everything you say about your phone ' +
    'on what your tools returned.',
];

/**
 * Scenario name of a telecom task id `[category]issue1|issue2[PERSONA:X]`:
 * `<prefix>__category__issue1__issue2`, plus `__x` unless the persona is `None`.
 */
export function telecomScenarioName(prefix: string, taskId: string): string {
  const match = /^\[([^\]]+)\](.*)\[PERSONA:([^\]]+)\]$/.exec(taskId);
  if (!match) throw new Error(`unexpected tau2 telecom task id: ${JSON.stringify(taskId)}`);
  const [, category = '', issues = '', persona = ''] = match;
  const name = `${prefix}__${category}__${issues.split('|').join('__')}`;
  return persona === 'None' ? name : `${name}__${persona.toLowerCase()}`;
}

function telecomLoader(
  prefix: string,
  techSupportFile: string,
  agentTools: readonly string[],
  userTools: readonly string[],
): (dataRoot: string) => Promise<Scenario[]> {
  return tau2ScenarioLoader({
    prefix,
    domain: TAU2_TELECOM,
    source: `tau2-bench telecom (${techSupportFile})`,
    policy: async (dataRoot) => {
      const [mainPolicy, techPolicy] = await Promise.all([
        readDataText(dataRoot, TAU2_TELECOM, 'main_policy.md'),
        readDataText(dataRoot, TAU2_TELECOM, techSupportFile),
      ]);
      return (
        `<main_policy>\n${mainPolicy}\n</main_policy>\n` +
        `<tech_support_policy>\n${techPolicy}\n</tech_support_policy>`
      );
    },
    agentNotes: TELECOM_AGENT_NOTES,
    agentTools,
    userTools,
    userGuidelines: TELECOM_USER_GUIDELINES,
    scenarioName: telecomScenarioName,
    stateSignal: 'db_state_assertion',
    nlAssertions: true,
  });
}

/** The two telecom eval domains (manual and workflow policy), sharing one module. */
export interface Tau2TelecomDomains {
  telecom: EvalDomain;
  workflow: EvalDomain;
}

/** Build both telecom eval domains around one module created with `options`. */
export function createTau2TelecomDomains(options: Tau2TelecomOptions = {}): Tau2TelecomDomains {
  const module = createTau2TelecomModule(options);
  const tools = module.tools ?? [];
  const userNames = new Set(telecomUserTools.map((t) => t.name));
  const agentNames = tools.filter((t: ToolDefinition) => !userNames.has(t.name)).map((t) => t.name);
  const userToolNames = [...userNames];
  const variant = (name: string, techSupportFile: string): EvalDomain => ({
    name,
    module,
    loadScenarios: telecomLoader(name, techSupportFile, agentNames, userToolNames),
    syncState: syncTelecomState,
  });
  return {
    telecom: variant(TAU2_TELECOM, 'tech_support_manual.md'),
    workflow: variant(TAU2_TELECOM_WORKFLOW, 'tech_support_workflow.md'),
  };
}

const defaultTelecom = createTau2TelecomDomains();

/** tau2-bench telecom with the manual tech-support policy: 114 dual-control tasks scored by db-state assertions. */
export const tau2Telecom: EvalDomain = defaultTelecom.telecom;

/**
 * The same 114 telecom tasks with the workflow tech-support policy, named
 * `tau2_telecom_workflow__...`. It shares `tau2Telecom`'s module object:
 * register that module once (see `registerEvalDomains`).
 */
export const tau2TelecomWorkflow: EvalDomain = defaultTelecom.workflow;
