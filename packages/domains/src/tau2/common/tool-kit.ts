/**
 * Helpers shared by the tau2 tool ports: JSON Schema builders for tool
 * parameters and access to the session db.
 *
 * @module
 */
import { ToolError } from '@scenaro/agent';
import type { JsonObject, ToolContext, ToolDefinition, ToolParametersSchema } from '@scenaro/agent';

/** A string parameter. */
export function stringParam(description: string): JsonObject {
  return { type: 'string', description };
}

/** A string parameter restricted to `values`. */
export function enumParam(values: readonly string[], description: string): JsonObject {
  return { type: 'string', enum: [...values], description };
}

/** An integer parameter. */
export function integerParam(description: string, extra: JsonObject = {}): JsonObject {
  return { type: 'integer', description, ...extra };
}

/** A number parameter. */
export function numberParam(description: string): JsonObject {
  return { type: 'number', description };
}

/** A boolean parameter. */
export function booleanParam(description: string): JsonObject {
  return { type: 'boolean', description };
}

/** An array parameter. */
export function arrayParam(items: JsonObject, description: string): JsonObject {
  return { type: 'array', items, description };
}

/** An object schema for array items or nested arguments (extra keys tolerated, as pydantic does). */
export function itemSchema(properties: Record<string, JsonObject>, required: string[]): JsonObject {
  return { type: 'object', properties, required };
}

/**
 * A tool's top-level parameter schema. Unknown arguments are refused, as a
 * Python function refuses unexpected keyword arguments.
 */
export function toolParameters(
  properties: Record<string, JsonObject> = {},
  required: string[] = Object.keys(properties),
): ToolParametersSchema {
  return { type: 'object', properties, required, additionalProperties: false };
}

/** The message a tool gives when the session has no db (no `apply_initialization` yet). */
export const DB_NOT_LOADED =
  'Scenario database not loaded. Send apply_initialization with a db_path first.';

/** The session db viewed as `T`; throws a {@link ToolError} when none is loaded. */
export function sessionDb<T>(context: ToolContext): T {
  const db = context.state.db;
  if (db === undefined) throw new ToolError(DB_NOT_LOADED);
  return db as unknown as T;
}

/** A deep copy of a db record, so results never alias the live db. */
export function snapshot<T>(value: T): T {
  return structuredClone(value);
}

/** What {@link recordLookupTool} needs to know. */
export interface RecordLookupSpec<Db, Id extends string> {
  /** tau2's function name, e.g. `get_user_details`. */
  name: string;
  /** tau2's class-style tool name, e.g. `GetUserDetailsTool`. */
  alias: string;
  description: string;
  /** The one argument: its name and schema. */
  idName: Id;
  idParam: JsonObject;
  /** The record with that id; throws the domain's not-found error. */
  find: (db: Db, id: string) => unknown;
}

/** A read tool returning a copy of the record with the given id (`get_order_details`, ...). */
export function recordLookupTool<Db, Id extends string>(
  spec: RecordLookupSpec<Db, Id>,
): ToolDefinition<Record<Id, string>> {
  return {
    name: spec.name,
    aliases: [spec.alias],
    kind: 'read',
    description: spec.description,
    parameters: toolParameters({ [spec.idName]: spec.idParam }),
    execute: (args, context) => snapshot(spec.find(sessionDb<Db>(context), args[spec.idName])),
  };
}

/** Own-property lookup in a parsed-JSON map (never reaches `Object.prototype`). */
export function lookup<T>(map: Record<string, T> | undefined, key: string): T | undefined {
  if (map === undefined || !Object.prototype.hasOwnProperty.call(map, key)) return undefined;
  return map[key];
}

/** Python's `list.count(x)` for strings. */
export function countOf(values: readonly string[], value: string): number {
  let n = 0;
  for (const v of values) if (v === value) n++;
  return n;
}
