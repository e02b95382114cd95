/**
 * Small helpers for writing the commerce tools.
 *
 * @module
 */
import type { JsonObject, ToolContext, ToolDefinition } from '@scenaro/agent';
import { asCommerceDb } from './db-types.js';
import type { CommerceDb } from './db-types.js';

/** Name of the commerce registry namespace (tool domain and scenario-name prefix). */
export const COMMERCE_DOMAIN = 'commerce';

/**
 * Declare a tool with typed arguments. The executor validates arguments against `parameters`
 * (and applies its defaults) before `execute` runs, so `Args` describes validated input.
 */
export function defineTool<Args extends JsonObject>(tool: ToolDefinition<Args>): ToolDefinition {
  return tool as unknown as ToolDefinition;
}

/** The commerce db of the calling session. @throws ToolError when none is loaded. */
export function dbOf(context: ToolContext): CommerceDb {
  return asCommerceDb(context.state.db);
}

/** JSON Schema of a product id argument. */
export const PRODUCT_ID_SCHEMA = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  description: "A product id from search results, e.g. 'p_0042'.",
} as const;

/** JSON Schema of a SKU argument. */
export const SKU_SCHEMA = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  description: "A SKU, e.g. 'SHO-0171-BLK-10' for one variant of a product.",
} as const;
