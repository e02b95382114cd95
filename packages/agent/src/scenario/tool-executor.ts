/**
 * Runs one tool call the way the bot does for a model, a scripted policy or a
 * gold replay: validate and default the arguments, run the tool, record write
 * actions, and shape the result the model sees.
 */
import { Ajv } from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { ActionRecord } from '@scenaro/sdk/protocol';
import { errorMessage, isJsonObject } from '@scenaro/sdk/util';
import type { BoundTool, JsonObject, ScenarioState, ToolDefinition } from './types.js';
import { beginDbWrite } from './db-revision.js';

/** What came of one tool call. */
export interface ToolCallOutcome {
  /** False when the arguments were invalid, the tool was unknown, or it threw. */
  ok: boolean;
  /** The tool's own return value (undefined when it failed). */
  result: unknown;
  /** What the model is given back. Always JSON-serializable. */
  modelResult: unknown;
  /** The error message, when not ok. */
  error?: string;
  /** The recorded action, for a successful write call. */
  action?: ActionRecord;
  /** For a successful call of a tool that ends the conversation: the `<exit>` reason to push once the result is delivered. */
  exitReason?: string;
  /** For a successful call of a final-response tool: the payload to push in `<final_response>`. */
  finalResponse?: unknown;
  /** The arguments after defaults were applied. */
  args: JsonObject;
  /** `server-message` payloads the tool pushed during the call, in order (see `ToolContext.pushServerMessage`). */
  serverMessages?: JsonObject[];
}

/** Hooks of one call. */
export interface ToolCallOptions {
  signal?: AbortSignal;
  /** Called with each recorded action (the server pushes `action-applied`). */
  onAction?: (action: ActionRecord, domain: string) => void;
  /** Called with each `server-message` payload the tool pushes during the call. */
  onServerMessage?: (data: JsonObject) => void;
}

const ajv = new Ajv({ useDefaults: true, allErrors: false, strict: false, coerceTypes: false });
const validators = new WeakMap<ToolDefinition, ValidateFunction>();

function validatorFor(tool: ToolDefinition): ValidateFunction {
  let validate = validators.get(tool);
  if (!validate) {
    validate = ajv.compile(tool.parameters);
    validators.set(tool, validate);
  }
  return validate;
}

function describeAjvError(error: ErrorObject | undefined): string {
  if (!error) return 'invalid arguments';
  const path = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (error.keyword === 'required') {
    return `missing required argument '${String((error.params as { missingProperty?: string }).missingProperty)}'`;
  }
  if (error.keyword === 'additionalProperties') {
    return `unexpected argument '${String((error.params as { additionalProperty?: string }).additionalProperty)}'`;
  }
  return `argument '${path || '(root)'}' ${error.message ?? 'is invalid'}`;
}

/**
 * Check `args` against the tool's JSON Schema and fill schema defaults.
 * Returns the defaulted copy or a message naming the bad argument.
 */
export function validateToolArgs(
  tool: ToolDefinition,
  args: unknown,
): { ok: true; args: JsonObject } | { ok: false; error: string } {
  if (!isJsonObject(args)) return { ok: false, error: 'arguments must be a JSON object' };
  const copy = structuredClone(args);
  const validate = validatorFor(tool);
  if (!validate(copy)) return { ok: false, error: describeAjvError(validate.errors?.[0]) };
  return { ok: true, args: copy };
}

/** The model-facing form of a successful result (the reference's wrapping of empty results). */
export function wrapToolResult(result: unknown): unknown {
  if (Array.isArray(result) && result.length === 0) {
    return { status: 'success', results: [], count: 0, message: 'No matching records found.' };
  }
  if (result === undefined || result === null || result === '' || result === false) {
    return { status: 'success' };
  }
  return result;
}

/** The catch-all answer for a tool name the session does not have. */
export function unknownToolResult(name: string, available: readonly string[]): JsonObject {
  return {
    status: 'error',
    error_type: 'unknown_tool',
    error: `Unknown tool '${name}'.`,
    available_tools: [...available],
  };
}

function snapshot(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  try {
    return structuredClone(value);
  } catch {
    return JSON.parse(JSON.stringify(value)) as unknown;
  }
}

/** Run a bound tool against the session state. Never throws for tool failures. */
export async function executeBoundTool(
  state: ScenarioState,
  bound: BoundTool,
  rawArgs: unknown,
  options: ToolCallOptions = {},
): Promise<ToolCallOutcome> {
  const { tool } = bound;
  const checked = tool.ownsArguments
    ? ownArguments(rawArgs)
    : validateToolArgs(tool, rawArgs ?? {});
  if (!checked.ok) {
    const error = `Invalid arguments for ${tool.name}: ${checked.error}`;
    return { ok: false, result: undefined, modelResult: { error }, error, args: {} };
  }
  const args = checked.args;
  const recorded: ActionRecord[] = [];
  const serverMessages: JsonObject[] = [];
  let exitReason = tool.exitReason;
  const record = (action: ActionRecord) => {
    state.actions.push(action);
    recorded.push(action);
    options.onAction?.(action, state.toolDomain);
  };
  let result: unknown;
  // Any tool may change the db (a refused call may have changed part of it), so none reuses a hash.
  const endWrite = beginDbWrite(state);
  try {
    result = await tool.execute(args, {
      state,
      domain: bound.domain,
      signal: options.signal ?? new AbortController().signal,
      options: bound.options,
      // Self-built records carry an action_type and fields of the tool's choosing.
      recordAction: (action) => record(structuredClone(action) as unknown as ActionRecord),
      pushServerMessage: (data) => {
        serverMessages.push(data);
        options.onServerMessage?.(data);
      },
      endConversation: (reason) => {
        exitReason = reason;
      },
    });
  } catch (err) {
    // An error without a message reads as its name.
    const error = errorMessage(err) || (err instanceof Error ? err.name : '');
    const failed: ToolCallOutcome = {
      ok: false,
      result: undefined,
      modelResult: { error },
      error,
      args,
    };
    if (serverMessages.length > 0) failed.serverMessages = serverMessages;
    return failed;
  } finally {
    endWrite();
  }
  // Snapshot the result now: tools may return live references into the db, which later calls change.
  result = snapshot(result);
  const modelResult = tool.modelResult ? tool.modelResult(result) : wrapToolResult(result);
  const outcome: ToolCallOutcome = { ok: true, result, modelResult, args };
  if (tool.kind === 'write' && !tool.recordsOwnActions) {
    record({
      action_type: tool.actionType ?? tool.name,
      name: tool.name,
      arguments: structuredClone(args),
      result: result === undefined ? null : result,
    });
  }
  if (recorded[0] !== undefined) outcome.action = recorded[0];
  if (serverMessages.length > 0) outcome.serverMessages = serverMessages;
  if (exitReason !== undefined) outcome.exitReason = exitReason;
  if (tool.finalResponse) outcome.finalResponse = result;
  return outcome;
}

/** The model's arguments for a tool that checks its own: a copy of any JSON object (none is `{}`). */
function ownArguments(
  rawArgs: unknown,
): { ok: true; args: JsonObject } | { ok: false; error: string } {
  if (rawArgs === undefined || rawArgs === null) return { ok: true, args: {} };
  if (!isJsonObject(rawArgs)) return { ok: false, error: 'arguments must be a JSON object' };
  return { ok: true, args: structuredClone(rawArgs) };
}

/** Run a tool by name from the session's bound tools; unknown names get the catch-all answer. */
export async function executeToolByName(
  state: ScenarioState,
  name: string,
  rawArgs: unknown,
  options: ToolCallOptions = {},
): Promise<ToolCallOutcome> {
  const bound = state.tools.get(name);
  if (!bound) {
    const modelResult = unknownToolResult(name, [...state.tools.keys()].sort());
    return {
      ok: false,
      result: undefined,
      modelResult,
      error: String(modelResult['error']),
      args: {},
    };
  }
  return executeBoundTool(state, bound, rawArgs, options);
}
