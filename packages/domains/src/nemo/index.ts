/**
 * NeMo's evaluation suites besides tau2: eva_airline, restaurant, fastbite, customer_service,
 * qa and simple_qa, and the tools and scenario loading they share.
 *
 * @module
 */
export {
  EVA_AIRLINE,
  evaAirline,
  evaAirlineModule,
  evaAirlineTools,
} from './eva-airline/domain.js';
export {
  nemoCustomerService,
  nemoDefaultModule,
  nemoDefaultSuites,
  nemoDefaultTools,
  nemoFastbite,
  nemoQa,
  nemoRestaurant,
  nemoSimpleQa,
} from './default-suites.js';
export { nemoEndConversationTool } from './common/end-conversation.js';
export { nemoDeliveredResult } from '../common/tool-kit.js';
export { nemoScenario, nemoSuiteLoader } from './common/scenario-loader.js';
export type { NemoReplayAction, NemoScenarioEntry } from './common/suite-data.js';
