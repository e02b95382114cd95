/**
 * Scenaro extensions to the RPC contract: the built-in cancel method, the
 * payloads of the built-in methods (UI activity, composer dictation, cancel),
 * and the messages that carry RPC over an RTVI connection.
 *
 * Data and pure functions only; no I/O.
 */
import { z } from 'zod';
import { RPC_METHODS, RPC_TIMEOUTS } from './rpc.js';
import type { ParseResult, RpcMethodSpec } from './rpc.js';
import { RTVI_MESSAGE_LABEL } from './rtvi.js';
import { serverMessage } from './rtvi-builders.js';
import type { RTVIMessage } from './rtvi.js';

// ---------------------------------------------------------------------------
// Built-in methods added by Scenaro

/**
 * Methods this project adds to {@link RPC_METHODS}. `CANCEL_TOOL_CALL` is called by
 * the agent, answered by the browser: it aborts the frontend tool call with the
 * given `requestId`, which then answers `{code: "CANCELLED"}`.
 */
export const SCENARO_RPC_METHODS = {
  CANCEL_TOOL_CALL: {
    method: 'scenaro__cancel_tool_call',
    timeoutMs: RPC_TIMEOUTS.UI_ACTIVITY_MS,
  },
} as const satisfies Record<string, RpcMethodSpec>;

/** Every method name the SDK registers or calls itself; tools may not use them. */
export const RESERVED_RPC_METHOD_NAMES: readonly string[] = [
  RPC_METHODS.UI_ACTIVITY_CHECK.method,
  RPC_METHODS.COMPOSER_START_DICTATION.method,
  RPC_METHODS.COMPOSER_END_DICTATION.method,
  RPC_METHODS.COMPOSER_CANCEL_DICTATION.method,
  SCENARO_RPC_METHODS.CANCEL_TOOL_CALL.method,
];

function fail<T>(path: string, message: string): ParseResult<T> {
  return { ok: false, error: { path, message }, message: path ? `${path}: ${message}` : message };
}

function decodeJson(input: unknown): { ok: true; value: unknown } | { ok: false; message: string } {
  if (typeof input !== 'string') return { ok: true, value: input };
  try {
    return { ok: true, value: JSON.parse(input) as unknown };
  } catch (err) {
    return { ok: false, message: `payload is not valid JSON (${(err as Error).message})` };
  }
}

function parseWith<T>(schema: z.ZodType<T>, input: unknown, prefix = ''): ParseResult<T> {
  const decoded = decodeJson(input);
  if (!decoded.ok) return fail(prefix, decoded.message);
  const result = schema.safeParse(decoded.value);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0];
  const path = [prefix, ...(issue?.path ?? []).map(String)].filter(Boolean).join('.');
  return fail(path, issue?.message ?? 'invalid value');
}

// ---------------------------------------------------------------------------
// scenaro__cancel_tool_call

/** Payload of `scenaro__cancel_tool_call`. */
export interface CancelToolCallRequest {
  /** The `requestId` of the {@link RpcToolRequest} to cancel. */
  requestId: string;
  reason?: string;
}
/** Answer of `scenaro__cancel_tool_call`: whether a running call was found and aborted. */
export interface CancelToolCallResponse {
  requestId: string;
  cancelled: boolean;
}

const cancelRequestSchema = z
  .object({ requestId: z.string().min(1), reason: z.string().optional() })
  .loose()
  .transform(({ requestId, reason }) =>
    reason === undefined ? { requestId } : { requestId, reason },
  );
const cancelResponseSchema = z
  .object({ requestId: z.string(), cancelled: z.boolean() })
  .loose()
  .transform(({ requestId, cancelled }) => ({ requestId, cancelled }));

/** Validate a cancel request (JSON text or decoded value). */
export function parseCancelToolCallRequest(input: unknown): ParseResult<CancelToolCallRequest> {
  return parseWith(cancelRequestSchema, input);
}
/** Validate a cancel answer (JSON text or decoded value). */
export function parseCancelToolCallResponse(input: unknown): ParseResult<CancelToolCallResponse> {
  return parseWith(cancelResponseSchema, input);
}

// ---------------------------------------------------------------------------
// scenaro__ui_activity_check

/** Answer of `scenaro__ui_activity_check`. Times are milliseconds (epoch for `lastActivityAt`). */
export interface UiActivitySnapshot {
  /** The page is visible and the user interacted within the idle threshold. */
  active: boolean;
  /** Time since the last pointer, key, scroll, touch or focus event. */
  idleMs: number;
  /** Epoch milliseconds of the last interaction (the tracker's start time if none yet). */
  lastActivityAt: number;
  /** `document.visibilityState` is not `hidden`. */
  visible: boolean;
  /** The document has focus. */
  focused: boolean;
}

const uiActivitySchema = z
  .object({
    active: z.boolean(),
    idleMs: z.number().nonnegative(),
    lastActivityAt: z.number(),
    visible: z.boolean(),
    focused: z.boolean(),
  })
  .loose()
  .transform(({ active, idleMs, lastActivityAt, visible, focused }) => ({
    active,
    idleMs,
    lastActivityAt,
    visible,
    focused,
  }));

/** Validate a UI activity answer (JSON text or decoded value). */
export function parseUiActivitySnapshot(input: unknown): ParseResult<UiActivitySnapshot> {
  return parseWith(uiActivitySchema, input);
}

// ---------------------------------------------------------------------------
// composer_*_dictation (browser -> agent)

/** What the browser sends with each `composer_*_dictation` call. */
export interface ComposerDictationRequest {
  /** Correlates start, end and cancel of one dictation. */
  dictationId: string;
  /** Sender's epoch milliseconds (informative; clocks are skewed). */
  sentAt: number;
}
/** Dictation phase an agent reports. */
export type ComposerDictationStatus = 'started' | 'ended' | 'cancelled';
/**
 * What the agent answers. Every field is optional so an agent that answers an
 * empty payload (LiveKit's push-to-talk pattern) is understood.
 */
export interface ComposerDictationResponse {
  dictationId?: string;
  status?: ComposerDictationStatus;
  /** The dictated text, usually on `end`. */
  transcript?: string;
  /** Anything else the agent wants to hand back. */
  data?: unknown;
}

const dictationRequestSchema = z
  .object({ dictationId: z.string().min(1), sentAt: z.number() })
  .loose()
  .transform(({ dictationId, sentAt }) => ({ dictationId, sentAt }));
const dictationResponseSchema = z
  .object({
    dictationId: z.string().optional(),
    status: z.enum(['started', 'ended', 'cancelled']).optional(),
    transcript: z.string().optional(),
    data: z.unknown().optional(),
  })
  .loose()
  .transform((value) => {
    const out: ComposerDictationResponse = {};
    if (value.dictationId !== undefined) out.dictationId = value.dictationId;
    if (value.status !== undefined) out.status = value.status;
    if (value.transcript !== undefined) out.transcript = value.transcript;
    if (value.data !== undefined) out.data = value.data;
    return out;
  });

/** Validate a dictation request (JSON text or decoded value). */
export function parseComposerDictationRequest(
  input: unknown,
): ParseResult<ComposerDictationRequest> {
  return parseWith(dictationRequestSchema, input);
}
/** Validate a dictation answer. An empty string reads as `{}`. */
export function parseComposerDictationResponse(
  input: unknown,
): ParseResult<ComposerDictationResponse> {
  if (input === '' || input === undefined) return { ok: true, value: {} };
  return parseWith(dictationResponseSchema, input);
}

// ---------------------------------------------------------------------------
// RPC over RTVI

/**
 * Message kinds of RPC over an RTVI connection.
 *
 * - agent -> browser: `server-message` whose `data` is {@link RtviRpcRequest}
 *   (`type: "rpc-request"`); the browser answers with `client-message`s
 *   `t: "rpc-ack"` (on receipt) and `t: "rpc-response"` (the result).
 * - browser -> agent: `client-message` `t: "rpc-call"` `d: {method, payload,
 *   responseTimeoutMs}`, a request answered by `server-response`
 *   `d: {payload}` or by `error-response` `{error, code, data?}`.
 */
export const RTVI_RPC_MESSAGES = {
  REQUEST: 'rpc-request',
  ACK: 'rpc-ack',
  RESPONSE: 'rpc-response',
  CALL: 'rpc-call',
  /** browser -> agent `client-message`: the methods the browser answers (sent whenever they change). */
  METHODS: 'rpc-methods',
} as const;

/** browser -> agent `client-message` `t: "rpc-methods"`: every method the browser has a handler for. */
export interface RtviRpcMethodsData {
  methods: string[];
}

const methodsSchema = z
  .object({ methods: z.array(z.string().min(1)).max(10_000) })
  .loose()
  .transform(({ methods }) => ({ methods }));

/** Validate `client-message` `d` of `t: "rpc-methods"`. */
export function parseRtviRpcMethods(d: unknown): ParseResult<RtviRpcMethodsData> {
  return parseWith(methodsSchema, d, 'd');
}

/** agent -> browser: `server-message` data asking the browser to run `method`. */
export interface RtviRpcRequest {
  type: typeof RTVI_RPC_MESSAGES.REQUEST;
  requestId: string;
  method: string;
  payload: string;
  /** How long the agent waits for the answer, as the handler should see it. */
  responseTimeoutMs: number;
  /** Identity of the calling agent; the transport's remote identity when absent. */
  callerIdentity?: string;
}
/** A failure as carried on the wire (LiveKit-compatible numeric codes). */
export interface RtviRpcErrorBody {
  code: number;
  message: string;
  data?: string;
}
/** browser -> agent `client-message` `t: "rpc-ack"`. */
export interface RtviRpcAckData {
  requestId: string;
}
/** browser -> agent `client-message` `t: "rpc-response"`: a payload or an error, never both. */
export type RtviRpcResponseData =
  { requestId: string; payload: string } | { requestId: string; error: RtviRpcErrorBody };
/** browser -> agent `client-message` `t: "rpc-call"` (a request with an RTVI id). */
export interface RtviRpcCallData {
  method: string;
  payload: string;
  responseTimeoutMs: number;
}
/** `server-response` `d` answering `rpc-call`. */
export interface RtviRpcCallResult {
  payload: string;
}
/** `error-response` `data` answering `rpc-call`: RTVI's `error` text plus the RPC code. */
export interface RtviRpcCallErrorData {
  error: string;
  code?: number;
  data?: string;
}

const errorBodySchema = z
  .object({ code: z.number().int(), message: z.string(), data: z.string().optional() })
  .loose()
  .transform(({ code, message, data }) =>
    data === undefined ? { code, message } : { code, message, data },
  );
const rpcRequestSchema = z
  .object({
    type: z.literal(RTVI_RPC_MESSAGES.REQUEST),
    requestId: z.string().min(1),
    method: z.string().min(1),
    payload: z.string(),
    responseTimeoutMs: z.number().nonnegative(),
    callerIdentity: z.string().optional(),
  })
  .loose()
  .transform((v) => {
    const out: RtviRpcRequest = {
      type: v.type,
      requestId: v.requestId,
      method: v.method,
      payload: v.payload,
      responseTimeoutMs: v.responseTimeoutMs,
    };
    if (v.callerIdentity !== undefined) out.callerIdentity = v.callerIdentity;
    return out;
  });

/** Whether a `server-message` `data` is meant as an RPC request (it may still be malformed). */
export function isRtviRpcRequest(data: unknown): boolean {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as { type?: unknown }).type === RTVI_RPC_MESSAGES.REQUEST
  );
}
/** Validate `server-message` data as an {@link RtviRpcRequest}. */
export function parseRtviRpcRequest(data: unknown): ParseResult<RtviRpcRequest> {
  return parseWith(rpcRequestSchema, data, 'data');
}

const ackSchema = z
  .object({ requestId: z.string().min(1) })
  .loose()
  .transform(({ requestId }) => ({ requestId }));
/** Validate `client-message` `d` of `t: "rpc-ack"`. */
export function parseRtviRpcAck(d: unknown): ParseResult<RtviRpcAckData> {
  return parseWith(ackSchema, d, 'd');
}

const responseSchema = z.union([
  z
    .object({ requestId: z.string().min(1), error: errorBodySchema })
    .loose()
    .transform(({ requestId, error }): RtviRpcResponseData => ({ requestId, error })),
  z
    .object({ requestId: z.string().min(1), payload: z.string() })
    .loose()
    .transform(({ requestId, payload }): RtviRpcResponseData => ({ requestId, payload })),
]);
/** Validate `client-message` `d` of `t: "rpc-response"`. */
export function parseRtviRpcResponse(d: unknown): ParseResult<RtviRpcResponseData> {
  return parseWith(responseSchema, d, 'd');
}

const callSchema = z
  .object({
    method: z.string().min(1),
    payload: z.string(),
    responseTimeoutMs: z.number().positive(),
  })
  .loose()
  .transform(({ method, payload, responseTimeoutMs }) => ({ method, payload, responseTimeoutMs }));
/** Validate `client-message` `d` of `t: "rpc-call"`. */
export function parseRtviRpcCall(d: unknown): ParseResult<RtviRpcCallData> {
  return parseWith(callSchema, d, 'd');
}

const callResultSchema = z
  .object({ payload: z.string() })
  .loose()
  .transform(({ payload }) => ({ payload }));
/** Validate the `server-response` `d` answering `rpc-call`. */
export function parseRtviRpcCallResult(d: unknown): ParseResult<RtviRpcCallResult> {
  return parseWith(callResultSchema, d, 'd');
}

const callErrorSchema = z
  .object({ error: z.string(), code: z.number().int().optional(), data: z.string().optional() })
  .loose()
  .transform(({ error, code, data }) => {
    const out: RtviRpcCallErrorData = { error };
    if (code !== undefined) out.code = code;
    if (data !== undefined) out.data = data;
    return out;
  });
/** Validate the `error-response` `data` answering `rpc-call`. */
export function parseRtviRpcCallError(data: unknown): ParseResult<RtviRpcCallErrorData> {
  return parseWith(callErrorSchema, data, 'data');
}

/** agent side: the `server-message` carrying an RPC request to the browser. */
export function rtviRpcRequestMessage(
  request: Omit<RtviRpcRequest, 'type'>,
): RTVIMessage<'server-message', RtviRpcRequest> {
  return serverMessage<RtviRpcRequest>({ type: RTVI_RPC_MESSAGES.REQUEST, ...request });
}
/** agent side: the `error-response` answering `rpc-call` with an RPC error. */
export function rtviRpcCallErrorMessage(
  id: string,
  error: RtviRpcErrorBody,
): RTVIMessage<'error-response', RtviRpcCallErrorData> {
  const data: RtviRpcCallErrorData = { error: error.message, code: error.code };
  if (error.data) data.data = error.data;
  return { label: RTVI_MESSAGE_LABEL, type: 'error-response', id, data };
}
