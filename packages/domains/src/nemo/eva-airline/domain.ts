/**
 * NeMo's eva_airline suite (ServiceNow eva 0.1.3 as NeMo ships it): 50 scenarios over one
 * small db each, sixteen agent tools, scored by the end-state db hash and a clean exit.
 *
 * @module
 */
import type { DomainModule, ToolDefinition } from '@scenaro/agent/scenario';
import type { EvalDomain } from '../../scenario.js';
import { nemoEndConversationTool } from '../common/end-conversation.js';
import { nemoSuiteLoader } from '../common/scenario-loader.js';
import {
  addBaggageAllowanceTool,
  addMealRequestTool,
  addToStandbyTool,
  assignSeatTool,
  cancelReservationTool,
} from './booking-tools.js';
import {
  issueHotelVoucherTool,
  issueMealVoucherTool,
  issueTravelCreditTool,
  processRefundTool,
  transferToAgentTool,
} from './compensation-tools.js';
import {
  getDisruptionInfoTool,
  getFlightStatusTool,
  getReservationTool,
  searchRebookingOptionsTool,
} from './read-tools.js';
import { rebookFlightTool } from './rebook-tool.js';

/** Registry namespace, scenario-name prefix and data-root folder. */
export const EVA_AIRLINE = 'eva_airline';

/**
 * The agent's tools in NeMo's order. `EndConversationTool` lives in NeMo's `default` registry;
 * it is registered here too so the domain stands alone.
 */
export const evaAirlineTools: readonly ToolDefinition[] = [
  getReservationTool,
  getFlightStatusTool,
  getDisruptionInfoTool,
  searchRebookingOptionsTool,
  rebookFlightTool,
  cancelReservationTool,
  processRefundTool,
  assignSeatTool,
  addBaggageAllowanceTool,
  addMealRequestTool,
  addToStandbyTool,
  issueTravelCreditTool,
  issueHotelVoucherTool,
  issueMealVoucherTool,
  transferToAgentTool,
  nemoEndConversationTool,
];

/** The eva airline registry module. */
export const evaAirlineModule: DomainModule = { name: EVA_AIRLINE, tools: evaAirlineTools };

/** eva_airline: the db is sent inline, dates come from its `_current_date`. */
export const evaAirline: EvalDomain = {
  name: EVA_AIRLINE,
  module: evaAirlineModule,
  loadScenarios: nemoSuiteLoader(EVA_AIRLINE, EVA_AIRLINE),
};
