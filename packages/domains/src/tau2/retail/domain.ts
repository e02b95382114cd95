/**
 * The tau2-bench retail domain: registry module and scenario loader.
 *
 * @module
 */
import type { DomainModule, ToolDefinition } from '@scenaro/agent';
import type { EvalDomain, Scenario, SuccessSignal } from '../../scenario.js';
import {
  createCalculateTool,
  createTransferTool,
  END_CONVERSATION_TOOL,
} from '../common/generic-tools.js';
import { agentPrompt, userPrompt } from '../common/prompts.js';
import {
  loadVoiceBaseTasks,
  readDataText,
  taskToScenario,
  toolMap,
} from '../common/task-loader.js';
import {
  findUserIdByEmail,
  findUserIdByNameZip,
  getItemDetails,
  getOrderDetails,
  getProductDetails,
  getUserDetails,
  listAllProductTypes,
} from './read-tools.js';
import {
  cancelPendingOrder,
  exchangeDeliveredOrderItems,
  modifyPendingOrderAddress,
  modifyPendingOrderItems,
  modifyPendingOrderPayment,
  modifyUserAddress,
  returnDeliveredOrderItems,
} from './write-tools.js';

/** Registry namespace and scenario-name prefix. */
export const TAU2_RETAIL = 'tau2_retail';

/** Every tool of the retail agent: tau2's sixteen. */
export const retailTools: readonly ToolDefinition[] = [
  createCalculateTool(),
  cancelPendingOrder,
  exchangeDeliveredOrderItems,
  findUserIdByNameZip,
  findUserIdByEmail,
  getOrderDetails,
  getProductDetails,
  getItemDetails,
  getUserDetails,
  listAllProductTypes,
  modifyPendingOrderAddress,
  modifyPendingOrderItems,
  modifyPendingOrderPayment,
  modifyUserAddress,
  returnDeliveredOrderItems,
  createTransferTool({ message: 'Transfer successful' }),
] as readonly ToolDefinition[];

/** The retail registry module. */
export const retailModule: DomainModule = { name: TAU2_RETAIL, tools: retailTools };

async function loadRetailScenarios(dataRoot: string): Promise<Scenario[]> {
  const [tasks, policy] = await Promise.all([
    loadVoiceBaseTasks(dataRoot, TAU2_RETAIL),
    readDataText(dataRoot, TAU2_RETAIL, 'policy.md'),
  ]);
  const prompt = agentPrompt(policy);
  // The agent also gets the `end_conversation` control tool every bot registers.
  const tools = toolMap([...retailTools.map((t) => t.name), END_CONVERSATION_TOOL]);
  return tasks.map((task) =>
    taskToScenario(task, {
      name: (t) => `${TAU2_RETAIL}__${t.id}`,
      domain: TAU2_RETAIL,
      source: 'tau2-bench retail',
      successSignals: (t): SuccessSignal[] =>
        (t.evaluation_criteria?.nl_assertions ?? []).length > 0
          ? ['db_state_match', 'nl_assertion', 'clean_exit']
          : ['db_state_match', 'clean_exit'],
      agent: () => ({
        prompt,
        tools: structuredClone(tools),
        toolDomain: TAU2_RETAIL,
        sharedStateInit: { db_path: `${TAU2_RETAIL}/db.json` },
      }),
      user: (_t, instructions) => ({
        prompt: userPrompt(instructions),
        tools: {},
        toolDomain: TAU2_RETAIL,
        sharedStateInit: {},
      }),
    }),
  );
}

/** tau2-bench retail: 114 voice tasks of the base split, scored by db hash (plus NL assertions where given). */
export const tau2Retail: EvalDomain = {
  name: TAU2_RETAIL,
  module: retailModule,
  loadScenarios: loadRetailScenarios,
};
