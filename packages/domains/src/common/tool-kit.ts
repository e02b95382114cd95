/**
 * What every domain family (commerce, the tau2 ports, the NeMo suites and eva airline) writes its
 * tools with: typed tool definitions, NeMo's call wrapper for tools that take their arguments as
 * they come, JSON Schema builders for parameters, and access to the session db.
 *
 * @module
 */
import { ToolError } from '@scenaro/agent/scenario';
import type {
  Db,
  JsonObject,
  ToolContext,
  ToolDefinition,
  ToolParametersSchema,
} from '@scenaro/agent/scenario';
import { pythonJsonDumps, pyTruthy, PythonError } from '@scenaro/agent/python';
import { isJsonObject } from '@scenaro/sdk/util';

// ---------------------------------------------------------------------------------------------
// Defining tools

/**
 * Declare a tool with typed arguments. The executor validates arguments against `parameters`
 * (and applies its defaults) before `execute` runs, so `Args` describes validated input.
 */
export function defineTool<Args extends JsonObject>(tool: ToolDefinition<Args>): ToolDefinition {
  return tool;
}

/**
 * What NeMo's call wrapper delivers for a result: truthy results as they are; `[]`, `{}` and
 * `None`/`""`/`0`/`False` in a success envelope (an empty answer must not read as nothing).
 */
export function nemoDeliveredResult(result: unknown): unknown {
  if (pyTruthy(result)) return result;
  if (Array.isArray(result)) {
    return { status: 'success', results: [], count: 0, message: 'No matching records found.' };
  }
  if (isJsonObject(result)) {
    return { status: 'success', results: {}, message: 'No matching records found.' };
  }
  return {
    status: 'success',
    result: result === undefined ? null : result,
    message: 'Completed with no data returned.',
  };
}

/** What {@link nemoTool} takes: a tool definition, and whether its signature is fixed. */
export type NemoToolSpec<Args extends JsonObject> = Omit<
  ToolDefinition<Args>,
  'ownsArguments' | 'modelResult'
> & {
  /**
   * The Python signature takes exactly the schema's properties: a call with another argument
   * raises Python's `TypeError` (see {@link rejectUnexpectedArguments}) before the tool runs.
   */
  fixedSignature?: boolean;
};

/**
 * A NeMo tool: it takes the model's arguments as they come (an exception reaches the model as
 * `{"error": str(e)}`) and delivers results NeMo's way. A non-empty `description` constructor
 * kwarg replaces the description the model sees, as NeMo's tools allow.
 */
export function nemoTool<Args extends JsonObject = JsonObject>({
  fixedSignature = false,
  ...tool
}: NemoToolSpec<Args>): ToolDefinition {
  const accepted = Object.keys(tool.parameters.properties);
  const execute = fixedSignature
    ? (args: Args, context: ToolContext) => {
        rejectUnexpectedArguments(tool.name, args, accepted);
        return tool.execute(args, context);
      }
    : tool.execute;
  const describe =
    tool.describe ??
    ((options: JsonObject) => ({
      description:
        typeof options['description'] === 'string' && options['description'] !== ''
          ? options['description']
          : tool.description,
      parameters: tool.parameters,
    }));
  return defineTool<Args>({
    ...tool,
    execute,
    describe,
    ownsArguments: true,
    modelResult: nemoDeliveredResult,
  });
}

/**
 * Python's `TypeError` for a keyword argument a fixed signature does not take:
 * `<Class>._execute() got an unexpected keyword argument '<name>'` (the first one, in order).
 */
export function rejectUnexpectedArguments(
  className: string,
  args: JsonObject,
  accepted: readonly string[],
): void {
  const unexpected = Object.keys(args).find((key) => !accepted.includes(key));
  if (unexpected !== undefined) {
    throw new PythonError(
      'TypeError',
      `${className}._execute() got an unexpected keyword argument '${unexpected}'`,
    );
  }
}

/** `json.dumps(payload)`: Python's separators and escaping, keys in the payload's own order. */
export function pyJsonDumps(payload: unknown): string {
  return pythonJsonDumps(payload, { sortKeys: false });
}

/** Push `<final_response>json.dumps(payload)</final_response>`; returns the JSON text. */
export function pushFinalResponse(context: ToolContext, payload: JsonObject): string {
  const text = pyJsonDumps(payload);
  context.pushServerMessage?.({ text: `<final_response>${text}</final_response>` });
  return text;
}

// ---------------------------------------------------------------------------------------------
// Parameters

/** How {@link toolParameters} writes a schema. */
export interface ToolParametersOptions {
  /**
   * Refuse arguments the schema does not name (`additionalProperties: false`), as a Python
   * function refuses unexpected keyword arguments. NeMo's tools check their own. @default true
   */
  closed?: boolean;
  /** Write `required: []` when nothing is required (instead of no `required`). @default true */
  listEmptyRequired?: boolean;
}

/** A tool's parameters: an object with `properties`, of which `required` (all unless given). */
export function toolParameters(
  properties: Record<string, JsonObject> = {},
  required: readonly string[] = Object.keys(properties),
  options: ToolParametersOptions = {},
): ToolParametersSchema {
  const { closed = true, listEmptyRequired = true } = options;
  return {
    type: 'object',
    properties,
    ...(required.length > 0 || listEmptyRequired ? { required: [...required] } : {}),
    ...(closed ? { additionalProperties: false } : {}),
  };
}

/**
 * A NeMo tool's parameters: `properties`, of which `required` (all unless given), and nothing
 * about other arguments (NeMo's tools check their own, or take anything).
 */
export function nemoParameters(
  properties: Record<string, JsonObject> = {},
  required: readonly string[] = Object.keys(properties),
): ToolParametersSchema {
  return toolParameters(properties, required, { closed: false });
}

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

// ---------------------------------------------------------------------------------------------
// The session db

/** The message a tool gives when the session has no db (no `apply_initialization` yet). */
export const DB_NOT_LOADED =
  'Scenario database not loaded. Send apply_initialization with a db_path first.';

/**
 * A db viewed as the family's db type `T`: the scenario loaded it from that family's data, so it
 * has that shape (the one place the domains take a loaded db's shape on trust).
 */
export function dbAs<T>(db: Db): T {
  return db as T;
}

/** The session db viewed as the family's db type `T`; throws a {@link ToolError} when none is loaded. */
export function sessionDb<T>(context: ToolContext): T {
  const db = context.state.db;
  if (db === undefined) throw new ToolError(DB_NOT_LOADED);
  return dbAs<T>(db);
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
