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
export { COMMERCE_DATA_ROOT, COMMERCE_DB_PATH, COMMERCE_DOMAIN } from './data-root.js';
export { COMMERCE_FEATURES } from './tools/frontend.js';
export { END_CONVERSATION_REASON } from './tools/account.js';
export {
  COMMERCE_INIT_ARGUMENT_SCHEMAS,
  COMMERCE_INITIALIZATION_FUNCTIONS,
} from './init-functions.js';
export type { CommerceInitName } from './init-functions.js';
export { MAX_CART_LINES, MAX_LINE_QUANTITY, MAX_SELECTION_SIZE } from './model/cart.js';
export type { CartLineView, CartView } from './model/cart.js';
export type { ProductSummary } from './model/catalog.js';
export type { Comparison, ComparisonRow } from './model/comparison.js';
export { CANCEL_REASONS, CANCELLABLE_STATUSES, nextOrderId } from './model/orders.js';
export type { CancelReason } from './model/orders.js';
export { computeTotals, TAX_RATE, TAX_RATE_BASIS_POINTS, taxCents } from './model/money.js';
export { asCommerceDb } from './model/db-types.js';
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
} from './model/db-types.js';
export { checkExpectedState, formatMismatches, readAtPath } from './scenarios/expected-state.js';
export type {
  ExpectedStateMismatch,
  ExpectedStateReport,
  PathReadResult,
} from './scenarios/expected-state.js';
export {
  loadCommercePolicy,
  loadScenarioDir,
  loadScenarioFile,
  parseScenarioText,
} from './scenarios/loader.js';
export type { ScenarioLoadOptions } from './scenarios/loader.js';
export { ScenarioDirError, ScenarioFileError } from './scenarios/file-error.js';
export type { ScenarioFileIssue } from './scenarios/file-error.js';
export { commerceScenarioName } from './scenarios/from-file.js';
export { DEFAULT_SUCCESS_SIGNALS, scenarioFileSchema } from './scenarios/schema.js';
export type { CommerceScenarioFile } from './scenarios/schema.js';
export { formatJsonPath, lineColumnAt, locateJsonPath } from './scenarios/json-position.js';
export { findJsonSyntaxError } from './scenarios/json-syntax.js';
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
} from './shop-assistant/index.js';
