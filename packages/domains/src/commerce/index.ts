/**
 * The commerce domain: a voice-shopping store (catalogue search, comparison, selection, cart,
 * orders) with its tools, initialization functions, scenario files and gold replay.
 *
 * @module
 */
export { commerceDomain, commerceTool, COMMERCE_PREDICATES, COMMERCE_TOOLS } from './domain.js';
export {
  commerceEvalDomain,
  loadCommerceScenarios,
  resolveCommerceDataRoot,
} from './eval-domain.js';
export { COMMERCE_DATA_ROOT, COMMERCE_DB_PATH } from './data-root.js';
export { COMMERCE_DOMAIN } from './define-tool.js';
export { COMMERCE_FEATURES } from './frontend-tools.js';
export { END_CONVERSATION_REASON } from './account-tools.js';
export {
  COMMERCE_INIT_ARGUMENT_SCHEMAS,
  COMMERCE_INITIALIZATION_FUNCTIONS,
} from './init-functions.js';
export type { CommerceInitName } from './init-functions.js';
export { MAX_CART_LINES, MAX_LINE_QUANTITY, MAX_SELECTION_SIZE } from './cart.js';
export type { CartLineView, CartView } from './cart.js';
export type { ProductSummary } from './catalog.js';
export type { Comparison, ComparisonRow } from './comparison.js';
export { CANCEL_REASONS, CANCELLABLE_STATUSES, nextOrderId } from './orders.js';
export type { CancelReason } from './orders.js';
export { computeTotals, TAX_RATE, TAX_RATE_BASIS_POINTS, taxCents } from './money.js';
export { asCommerceDb } from './db-types.js';
export type {
  Address,
  CartItem,
  CommerceDb,
  Order,
  OrderItem,
  OrderStatus,
  PaymentMethod,
  Product,
  User,
  Variant,
  VariantOptionKey,
} from './db-types.js';
export { checkExpectedState, formatMismatches, readAtPath } from './expected-state.js';
export type {
  ExpectedStateMismatch,
  ExpectedStateReport,
  PathReadResult,
} from './expected-state.js';
export {
  loadCommercePolicy,
  loadScenarioDir,
  loadScenarioFile,
  parseScenarioText,
} from './scenario-loader.js';
export type { ScenarioLoadOptions } from './scenario-loader.js';
export { ScenarioDirError, ScenarioFileError } from './scenario-file-error.js';
export type { ScenarioFileIssue } from './scenario-file-error.js';
export { commerceScenarioName } from './scenario-from-file.js';
export { DEFAULT_SUCCESS_SIGNALS, scenarioFileSchema } from './scenario-schema.js';
export type { CommerceScenarioFile } from './scenario-schema.js';
export { formatJsonPath, lineColumnAt, locateJsonPath } from './json-position.js';
export { findJsonSyntaxError } from './json-syntax.js';
export { buildAgentPrompt, buildUserPrompt, USER_STOP_TOKEN } from './prompts.js';
export { initializeCommerceState, replayCommerceScenario } from './replay.js';
export type { CommerceReplayOptions, CommerceReplayResult, ReplayedAction } from './replay.js';
export { createCommerceSession } from './session.js';
export type { CommerceSession, CommerceSessionOptions } from './session.js';
export {
  createShopAssistantModel,
  SHOP_ASSISTANT_CAPABILITIES,
  SHOP_ASSISTANT_GREETING,
  shopAssistantStep,
  type ShopAssistantOptions,
  type ShopAssistantStep,
} from './shop-assistant.js';
