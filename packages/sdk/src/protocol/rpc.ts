/**
 * The frontend tool RPC contract: built-in method names, timeouts, method-name
 * resolution, and the request / response shapes exchanged between the agent and
 * the browser.
 *
 * This module holds data and pure functions only; it performs no I/O.
 */
import { isJsonObject } from '../util/index.js';

/** Every timeout of the RPC contract, in milliseconds. */
export const RPC_TIMEOUTS = {
  AGENT_DEFAULT_MS: 8000,
  FRONTEND_TOOL_MS: 10000,
  UI_ACTIVITY_MS: 3000,
  COMPOSER_START_MS: 10000,
  COMPOSER_END_MS: 15000,
  COMPOSER_CANCEL_MS: 8000,
} as const;

/** A built-in RPC method: its wire name and the time the caller waits for an answer. */
export interface RpcMethodSpec {
  readonly method: string;
  readonly timeoutMs: number;
}

/** The four built-in RPC methods, keyed by constant name. */
export const RPC_METHODS = {
  UI_ACTIVITY_CHECK: {
    method: 'scenaro__ui_activity_check',
    timeoutMs: RPC_TIMEOUTS.UI_ACTIVITY_MS,
  },
  COMPOSER_START_DICTATION: {
    method: 'composer_start_dictation',
    timeoutMs: RPC_TIMEOUTS.COMPOSER_START_MS,
  },
  COMPOSER_END_DICTATION: {
    method: 'composer_end_dictation',
    timeoutMs: RPC_TIMEOUTS.COMPOSER_END_MS,
  },
  COMPOSER_CANCEL_DICTATION: {
    method: 'composer_cancel_dictation',
    timeoutMs: RPC_TIMEOUTS.COMPOSER_CANCEL_MS,
  },
} as const satisfies Record<string, RpcMethodSpec>;

/** Constant name of a built-in RPC method. */
export type RpcMethodKey = keyof typeof RPC_METHODS;
/** Wire name of a built-in RPC method. */
export type RpcMethodName = (typeof RPC_METHODS)[RpcMethodKey]['method'];

/** The part of a tool definition that decides its RPC method name. */
export interface RpcMethodTarget {
  name: string;
  frontend_method?: string | null | undefined;
}

/** Thrown by {@link resolveRpcMethodName} for a tool without a usable name. */
export class InvalidToolNameError extends Error {
  override readonly name = 'InvalidToolNameError';
}

/**
 * The RPC method a tool is registered and called under: its non-empty string
 * `frontend_method` override, otherwise its `name`.
 *
 * @throws InvalidToolNameError when `name` is empty or not a string.
 */
export function resolveRpcMethodName(tool: RpcMethodTarget): string {
  const override = tool.frontend_method;
  if (typeof override === 'string' && override.length > 0) return override;
  if (typeof tool.name !== 'string' || tool.name.length === 0) {
    throw new InvalidToolNameError('tool name must be a non-empty string');
  }
  return tool.name;
}

/** Response codes of the contract. Other strings are allowed on the wire. */
export const RPC_RESPONSE_CODES = {
  SUCCESS: 'SUCCESS',
  ERROR: 'ERROR',
  TIMEOUT: 'TIMEOUT',
  CANCELLED: 'CANCELLED',
} as const;

/** A known response code. */
export type KnownRpcResponseCode = (typeof RPC_RESPONSE_CODES)[keyof typeof RPC_RESPONSE_CODES];
/** A response code: one of the known ones, or any other string. */
export type RpcResponseCode = KnownRpcResponseCode | (string & {});

/** What the agent sends to run a frontend tool. */
export interface RpcToolRequest {
  requestId: string;
  tool?: string;
  args?: Record<string, unknown>;
  sentAt?: number;
}

/** What the browser answers. `data` goes back to the agent (and its LLM). */
export interface RpcToolResponse {
  requestId?: string;
  code: RpcResponseCode;
  data?: unknown;
}

/** A failure to read an inbound value: which field, and what is wrong with it. */
export interface ValidationIssue {
  /** Dotted path of the offending field; empty for the value itself. */
  path: string;
  message: string;
}

/** Outcome of a validating parse: the typed value, or the precise reason it was refused. */
export type ParseResult<T> =
  { ok: true; value: T } | { ok: false; error: ValidationIssue; message: string };

function fail<T>(path: string, message: string): ParseResult<T> {
  return { ok: false, error: { path, message }, message: path ? `${path}: ${message}` : message };
}

/** A JSON object that is also a plain one (no class instances): what a wire payload parses to. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isJsonObject(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A JSON string is decoded; anything else is taken as already decoded. */
function decodeJsonPayload(
  input: unknown,
): { ok: true; value: unknown } | { ok: false; message: string } {
  if (typeof input !== 'string') return { ok: true, value: input };
  try {
    return { ok: true, value: JSON.parse(input) as unknown };
  } catch (err) {
    return { ok: false, message: `payload is not valid JSON (${(err as Error).message})` };
  }
}

/**
 * Validate an inbound RPC payload (already JSON-decoded, or a JSON string) as an
 * {@link RpcToolRequest}. Unknown fields are dropped.
 */
export function parseRpcToolRequest(input: unknown): ParseResult<RpcToolRequest> {
  const decoded = decodeJsonPayload(input);
  if (!decoded.ok) return fail('', decoded.message);
  const value = decoded.value;
  if (!isPlainObject(value)) return fail('', `request must be an object, got ${describe(value)}`);
  const { requestId, tool, args, sentAt } = value;
  if (requestId === undefined) return fail('requestId', 'is required');
  if (typeof requestId !== 'string' || requestId.length === 0) {
    return fail('requestId', `must be a non-empty string, got ${describe(requestId)}`);
  }
  const request: RpcToolRequest = { requestId };
  if (tool !== undefined) {
    if (typeof tool !== 'string') return fail('tool', `must be a string, got ${describe(tool)}`);
    request.tool = tool;
  }
  if (args !== undefined && args !== null) {
    if (!isPlainObject(args)) return fail('args', `must be an object, got ${describe(args)}`);
    request.args = args;
  }
  if (sentAt !== undefined && sentAt !== null) {
    if (typeof sentAt !== 'number' || !Number.isFinite(sentAt)) {
      return fail('sentAt', `must be a finite number, got ${describe(sentAt)}`);
    }
    request.sentAt = sentAt;
  }
  return { ok: true, value: request };
}

/**
 * Validate an RPC answer as an {@link RpcToolResponse}. A JSON string is decoded first.
 */
export function parseRpcToolResponse(input: unknown): ParseResult<RpcToolResponse> {
  const decoded = decodeJsonPayload(input);
  if (!decoded.ok) return fail('', decoded.message);
  const value = decoded.value;
  if (!isPlainObject(value)) return fail('', `response must be an object, got ${describe(value)}`);
  const { requestId, code, data } = value;
  if (typeof code !== 'string' || code.length === 0) {
    return fail('code', `must be a non-empty string, got ${describe(code)}`);
  }
  const response: RpcToolResponse = { code };
  if (requestId !== undefined && requestId !== null) {
    if (typeof requestId !== 'string') {
      return fail('requestId', `must be a string, got ${describe(requestId)}`);
    }
    response.requestId = requestId;
  }
  if (data !== undefined) response.data = data;
  return { ok: true, value: response };
}

/** A short human description of a value's type, for error messages. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `a string`;
  return typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`;
}
