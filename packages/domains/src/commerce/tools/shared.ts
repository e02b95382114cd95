/**
 * What the commerce tools share: the session's commerce db and signed-in shopper, and the JSON
 * Schemas of their product id and SKU arguments.
 *
 * @module
 */
import type { ToolContext } from '@scenaro/agent/scenario';
import { asCommerceDb } from '../model/db-types.js';
import type { CommerceDb, User } from '../model/db-types.js';
import { currentUser } from '../model/shopper.js';

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
