/**
 * NeMo's suites whose tools live in its `default` registry: restaurant (ten food orders and a
 * waitlist), fastbite, customer_service (scored by matching the `<final_response>` payloads
 * against the reference answer), and qa and simple_qa (scored by the LLM judge). The five share
 * one registry module.
 *
 * @module
 */
import type { DomainModule, ToolDefinition } from '@scenaro/agent/scenario';
import { DEFAULT_DOMAIN } from '@scenaro/sdk/protocol';
import type { EvalDomain } from '../scenario.js';
import { nemoEndConversationTool } from './common/end-conversation.js';
import { nemoSuiteLoader } from './common/scenario-loader.js';
import {
  cancelSubscriptionTool,
  changePlanTool,
  lookupAccountTool,
  processRefundTool,
  unlockAccountTool,
} from './customer-service/account-tools.js';
import {
  checkOrderStatusTool,
  resolveTicketTool,
  startItemReturnTool,
} from './customer-service/order-tools.js';
import { getCityWeatherTool, saveQuestionAnswerTool } from './qa/qa-tools.js';
import { placeOrderTool } from './restaurant/place-order-tool.js';
import {
  dropWaitListTool,
  getMenuTool,
  getWaitlistTool,
  joinWaitListTool,
} from './restaurant/restaurant-tools.js';

/** The tools of NeMo's `default` registry these suites use. */
export const nemoDefaultTools: readonly ToolDefinition[] = [
  nemoEndConversationTool,
  getMenuTool,
  placeOrderTool,
  joinWaitListTool,
  dropWaitListTool,
  getWaitlistTool,
  lookupAccountTool,
  unlockAccountTool,
  processRefundTool,
  checkOrderStatusTool,
  startItemReturnTool,
  changePlanTool,
  cancelSubscriptionTool,
  resolveTicketTool,
  saveQuestionAnswerTool,
  getCityWeatherTool,
];

/** The registry module of the `default`-registry suites. */
export const nemoDefaultModule: DomainModule = { name: DEFAULT_DOMAIN, tools: nemoDefaultTools };

/**
 * A suite of the `default` registry: its scenarios carry the suite's name as their domain (NeMo
 * says `default`; a bot only uses the domain for initialization functions, and there are none).
 */
function defaultRegistrySuite(name: string): EvalDomain {
  return { name, module: nemoDefaultModule, loadScenarios: nemoSuiteLoader(name, name) };
}

/** restaurant: 10 orders through `PlaceOrderTool` and a waitlist join and drop. */
export const nemoRestaurant = defaultRegistrySuite('restaurant');
/** fastbite: one order through `PlaceOrderTool`. */
export const nemoFastbite = defaultRegistrySuite('fastbite');
/** customer_service: 10 support tickets closed with `ResolveTicketTool`. */
export const nemoCustomerService = defaultRegistrySuite('customer_service');
/** qa: 10 questions, the answers saved with `SaveQuestionAnswerTool` and judged. */
export const nemoQa = defaultRegistrySuite('qa');
/** simple_qa: 3 questions, as qa. */
export const nemoSimpleQa = defaultRegistrySuite('simple_qa');

/** The five suites, by name. */
export const nemoDefaultSuites: readonly EvalDomain[] = [
  nemoRestaurant,
  nemoFastbite,
  nemoCustomerService,
  nemoQa,
  nemoSimpleQa,
];
