/**
 * Ports of the tau2-bench airline, retail and telecom domains.
 *
 * @module
 */
export { TAU2_AIRLINE, airlineModule, airlineTools, tau2Airline } from './airline/domain.js';
export { TAU2_RETAIL, retailModule, retailTools, tau2Retail } from './retail/domain.js';
export {
  TAU2_TELECOM,
  TAU2_TELECOM_WORKFLOW,
  createTau2TelecomDomains,
  createTau2TelecomModule,
  tau2Telecom,
  tau2TelecomWorkflow,
  telecomScenarioName,
} from './telecom/domain.js';
export type { Tau2TelecomDomains, Tau2TelecomOptions } from './telecom/domain.js';
export { NEMO_REFERENCE_TODAY, TAU2_TELECOM_TODAY } from './telecom/clock.js';
export { applyTelecomSyncDelta, syncTelecomState } from './telecom/sync.js';
export { telecomUserTools } from './telecom/user-tools.js';
export {
  END_CONVERSATION_TOOL,
  TRANSFER_EXIT_REASON,
  calculateExpression,
} from './common/generic-tools.js';
export { AGENT_ADDITIONAL_NOTES } from './common/prompts.js';
export {
  TAU2_MAX_DURATION_SECONDS,
  loadVoiceBaseTasks,
  renderUserScenario,
} from './common/task-loader.js';
export type { Tau2Task } from './common/task-loader.js';
