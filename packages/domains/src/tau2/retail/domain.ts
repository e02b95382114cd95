/**
 * The tau2-bench retail domain: registry module and scenario loader.
 *
 * @module
 */
import type { DomainModule, ToolDefinition } from '@scenaro/agent/scenario';
import type { EvalDomain } from '../../scenario.js';
import { createCalculateTool, createTransferTool } from '../common/generic-tools.js';
import { tau2EvalDomain } from '../common/scenario-loader.js';
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
];

/** The retail registry module. */
export const retailModule: DomainModule = { name: TAU2_RETAIL, tools: retailTools };

/** tau2-bench retail: 114 voice tasks of the base split, scored by db hash (plus NL assertions where given). */
export const tau2Retail: EvalDomain = tau2EvalDomain(retailModule, {
  source: 'tau2-bench retail',
  stateSignal: 'db_state_match',
  nlAssertions: true,
});
