/**
 * The commerce registry module: every tool, initialization function and db-state predicate of
 * the domain, registered under {@link COMMERCE_DOMAIN}.
 *
 * @module
 */
import type { DbStatePredicate, DomainModule, ToolDefinition } from '@scenaro/agent/scenario';
import { COMMERCE_DOMAIN } from './data-root.js';
import { COMMERCE_INITIALIZATION_FUNCTIONS } from './init-functions.js';
import { readAtPath } from './scenarios/expected-state.js';
import { endConversationTool, getUserDetailsTool } from './tools/account.js';
import {
  addToCartTool,
  getCartTool,
  removeFromCartTool,
  updateCartQuantityTool,
} from './tools/cart.js';
import { compareProductsTool, getProductDetailsTool, searchProductsTool } from './tools/catalog.js';
import { showComparisonTool, showProductsTool, showProductTool } from './tools/frontend.js';
import { cancelOrderTool, getOrderDetailsTool, placeOrderTool } from './tools/orders.js';
import {
  addToSelectionTool,
  getSelectionTool,
  removeFromSelectionTool,
} from './tools/selection.js';

/** Every commerce tool, in the order they are presented to a model. */
export const COMMERCE_TOOLS: readonly ToolDefinition[] = [
  searchProductsTool,
  getProductDetailsTool,
  compareProductsTool,
  showProductsTool,
  showProductTool,
  showComparisonTool,
  addToSelectionTool,
  removeFromSelectionTool,
  getSelectionTool,
  addToCartTool,
  updateCartQuantityTool,
  removeFromCartTool,
  getCartTool,
  getUserDetailsTool,
  placeOrderTool,
  cancelOrderTool,
  getOrderDetailsTool,
  endConversationTool,
];

/** Find a commerce tool by name. */
export function commerceTool(name: string): ToolDefinition | undefined {
  return COMMERCE_TOOLS.find((t) => t.name === name);
}

/**
 * Db-state predicates. `value_at_path {path}` returns the value at an expected-state path
 * (null when it does not resolve), so expected-state entries can also be written as
 * `db_state_assertions`.
 */
export const COMMERCE_PREDICATES: Readonly<Record<string, DbStatePredicate>> = {
  value_at_path(db, args) {
    const path = args['path'];
    if (typeof path !== 'string') throw new Error("value_at_path needs a string 'path'");
    const read = readAtPath(db, path);
    return read.found ? read.value : null;
  },
};

/** The commerce domain, to register into a bot's (or a replay's) `DomainRegistry`. */
export const commerceDomain: DomainModule = {
  name: COMMERCE_DOMAIN,
  tools: COMMERCE_TOOLS,
  initializationFunctions: COMMERCE_INITIALIZATION_FUNCTIONS,
  predicates: COMMERCE_PREDICATES,
};
