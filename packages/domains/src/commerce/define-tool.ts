/**
 * Small helpers for writing the commerce tools.
 *
 * @module
 */
import type { JsonObject, ToolContext, ToolDefinition, ToolParametersSchema } from '@scenaro/agent';
import { asCommerceDb } from './db-types.js';
import type { CommerceDb, User } from './db-types.js';
import { currentUser } from './shopper.js';

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

/**
 * The commerce db of the calling session and its signed-in shopper.
 * @throws ToolError when no db is loaded or nobody is signed in.
 */
export function shopperOf(context: ToolContext): { db: CommerceDb; user: User } {
  const db = dbOf(context);
  return { db, user: currentUser(db) };
}

/**
 * A tool's parameters: an object with `properties`, of which `required` (all of them unless
 * given) must be passed, and no others.
 */
export function objectParameters(
  properties: Record<string, JsonObject> = {},
  required: readonly string[] = Object.keys(properties),
): ToolParametersSchema {
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required: [...required] } : {}),
    additionalProperties: false,
  };
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
