/**
 * Runs one frontend tool call from the RPC payload to the JSON answer. It never
 * throws: every outcome is an `RpcToolResponse` string.
 *
 * - the payload must be an `RpcToolRequest` and `args` must match the tool's schema;
 * - the handler gets an AbortSignal, aborted on timeout, cancel, disconnect or stop;
 * - `TIMEOUT` is answered a margin before the deadline (`timeout_ms` ?? FRONTEND_TOOL_MS,
 *   capped by the transport's `responseTimeoutMs`); later results are dropped and logged;
 * - a response over the transport's payload limit becomes an `ERROR` (the UI still
 *   receives `componentData`).
 */
import { RPC_RESPONSE_CODES, RPC_TIMEOUTS, parseRpcToolRequest } from '../protocol/index.js';
import type { RpcToolRequest, RpcToolResponse } from '../protocol/index.js';
import { onAbort } from '../rpc/abort.js';
import { logToolAnswer } from '../rpc/logger.js';
import type { Logger } from '../rpc/logger.js';
import type { Clock, Timers } from '../rpc/timers.js';
import type { RpcInvocation } from '../rpc/transport.js';
import { byteLength } from '../rpc/utf8.js';
import type { ArgsValidation, ArgsValidator } from './args-validator.js';
import type { CollectionStore } from './collections.js';
import type {
  FeatureEvent,
  ToolCallStatus,
  ToolDefinition,
  ToolHandler,
  ToolHandlerResult,
  ToolSettings,
} from './types.js';

/** A call the session can cancel. */
export interface InflightCall {
  controller: AbortController;
  callerIdentity: string;
  method: string;
}

/** What the executor needs from the session. */
export interface ToolCallEnvironment {
  getHandler(toolName: string): ToolHandler | undefined;
  getSettings(): ToolSettings;
  collections: CollectionStore;
  validator: ArgsValidator;
  timers: Timers;
  clock: Clock;
  logger: Logger;
  /** Answer `TIMEOUT` this long before the deadline. */
  timeoutMarginMs: number;
  /** Cap the deadline by the transport's handler-visible `responseTimeoutMs`. */
  capByTransportTimeout: boolean;
  maxPayloadBytes(): number;
  /** Track a running call for cancellation; false if the id is already running. */
  track(requestId: string, call: InflightCall): boolean;
  untrack(requestId: string): void;
  emit(event: FeatureEvent): void;
}

/**
 * The time, in ms after receipt, at which the session answers `TIMEOUT`: the
 * tool's budget (`timeout_ms` ?? FRONTEND_TOOL_MS), capped by the transport's
 * timeout when positive, minus the margin (but at least half the budget).
 */
export function answerDeadlineMs(
  tool: Pick<ToolDefinition, 'timeout_ms'>,
  transportTimeoutMs: number,
  marginMs: number,
): number {
  const own =
    typeof tool.timeout_ms === 'number' && tool.timeout_ms > 0
      ? tool.timeout_ms
      : RPC_TIMEOUTS.FRONTEND_TOOL_MS;
  const budget = transportTimeoutMs > 0 ? Math.min(own, transportTimeoutMs) : own;
  return Math.max(budget - marginMs, Math.floor(budget / 2));
}

function noop(): void {}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

function encode(response: RpcToolResponse): string {
  return JSON.stringify(response);
}

function messageOf(value: unknown): string {
  if (
    value instanceof Error ||
    (typeof value === 'object' && value !== null && 'message' in value)
  ) {
    return String((value as { message: unknown }).message);
  }
  return String(value);
}

function statusOf(code: string): ToolCallStatus {
  switch (code) {
    case RPC_RESPONSE_CODES.SUCCESS:
      return 'success';
    case RPC_RESPONSE_CODES.TIMEOUT:
      return 'timeout';
    case RPC_RESPONSE_CODES.CANCELLED:
      return 'cancelled';
    default:
      return 'error';
  }
}

function isHandlerResult(value: unknown): value is ToolHandlerResult {
  if (typeof value !== 'object' || value === null) return false;
  const response = (value as { response?: unknown }).response;
  return (
    typeof response === 'object' &&
    response !== null &&
    typeof (response as { code?: unknown }).code === 'string'
  );
}

/** Run one tool call and produce its JSON answer. */
export function executeToolCall(
  env: ToolCallEnvironment,
  tool: ToolDefinition,
  method: string,
  invocation: RpcInvocation,
): Promise<string> {
  const parsed = parseRpcToolRequest(invocation.payload);
  if (!parsed.ok) {
    env.logger.warn({ method, error: parsed.message }, 'malformed tool request');
    return Promise.resolve(
      encode({
        code: RPC_RESPONSE_CODES.ERROR,
        data: { message: `Invalid request: ${parsed.message}`, field: parsed.error.path },
      }),
    );
  }
  const request = parsed.value;
  const { requestId } = request;
  const feature = tool.feature ?? tool.name;
  const base = { feature, tool: tool.name, requestId };
  const fail = (message: string, extra: Record<string, unknown> = {}): Promise<string> => {
    const response: RpcToolResponse = {
      requestId,
      code: RPC_RESPONSE_CODES.ERROR,
      data: { message, ...extra },
    };
    env.emit({ ...base, status: 'error', response, error: message });
    return Promise.resolve(encode(response));
  };

  const args = request.args ?? {};
  const start = (validation: ArgsValidation): Promise<string> => {
    if (!validation.ok) {
      return fail(`Invalid arguments: ${validation.message}`, {
        field: validation.field,
        issues: validation.issues,
      });
    }
    const handler = env.getHandler(tool.name);
    if (!handler) return fail(`No handler is registered for tool ${tool.name}`);

    const controller = new AbortController();
    if (!env.track(requestId, { controller, callerIdentity: invocation.callerIdentity, method })) {
      return fail(`A call with requestId ${requestId} is already running`);
    }
    return run(env, tool, method, invocation, request, handler, controller, base, args);
  };
  // A promise only while the validator is still loading.
  const validation = env.validator.validate(tool.parameters, args);
  return validation instanceof Promise ? validation.then(start) : start(validation);
}

function run(
  env: ToolCallEnvironment,
  tool: ToolDefinition,
  method: string,
  invocation: RpcInvocation,
  request: RpcToolRequest,
  handler: ToolHandler,
  controller: AbortController,
  base: { feature: string; tool: string; requestId: string },
  args: Record<string, unknown>,
): Promise<string> {
  const { requestId } = request;
  const started = env.clock();
  const call = { requestId, tool: tool.name, method };
  const deadlineMs = answerDeadlineMs(
    tool,
    env.capByTransportTimeout ? invocation.responseTimeoutMs : 0,
    env.timeoutMarginMs,
  );
  env.emit({ ...base, status: 'running' });

  return new Promise<string>((resolve) => {
    let done = false;
    let timedOut = false;
    let detachCancel = noop;
    let detachCaller = noop;
    const finish = (response: RpcToolResponse, componentData?: unknown, error?: string): void => {
      done = true;
      env.timers.clearTimeout(timer);
      detachCancel();
      detachCaller();
      env.untrack(requestId);
      const event: FeatureEvent = { ...base, status: statusOf(response.code), response };
      if (componentData !== undefined) event.componentData = componentData;
      if (error !== undefined) event.error = error;
      env.emit(event);
      logToolAnswer(env.logger, 'tool call answered', call, response.code, env.clock() - started);
      resolve(encode(response));
    };

    const timer = env.timers.setTimeout(() => {
      if (done) return;
      timedOut = true;
      controller.abort(new DOMException(`deadline of ${deadlineMs} ms reached`, 'TimeoutError'));
      const message = `Tool ${tool.name} did not finish within ${deadlineMs} ms`;
      finish(
        { requestId, code: RPC_RESPONSE_CODES.TIMEOUT, data: { message, timeoutMs: deadlineMs } },
        undefined,
        message,
      );
    }, deadlineMs);
    detachCancel = onAbort(controller.signal, () => {
      if (done || timedOut) return;
      const reason = messageOf(controller.signal.reason ?? 'cancelled');
      finish(
        { requestId, code: RPC_RESPONSE_CODES.CANCELLED, data: { message: reason } },
        undefined,
        reason,
      );
    });
    detachCaller = onAbort(invocation.signal, () => {
      controller.abort(new DOMException('the caller disconnected', 'AbortError'));
    });
    if (done) return; // aborted synchronously (caller already gone)

    const context = {
      signal: controller.signal,
      tool,
      callerIdentity: invocation.callerIdentity,
      deadline: started + deadlineMs,
      ...(request.sentAt !== undefined ? { sentAt: request.sentAt } : {}),
    };
    const onResult = (result: unknown): void => {
      if (done) {
        env.logger.warn(
          {
            requestId,
            tool: tool.name,
            method,
            afterMs: env.clock() - started,
          },
          'late tool result dropped',
        );
        return;
      }
      if (!isHandlerResult(result)) {
        const message = `Tool ${tool.name} returned an invalid result (expected {requestId, response: {code, data}})`;
        finish(
          { requestId, code: RPC_RESPONSE_CODES.ERROR, data: { message } },
          undefined,
          message,
        );
        return;
      }
      const response: RpcToolResponse = { requestId, code: result.response.code };
      if (result.response.data !== undefined) response.data = result.response.data;
      let text: string;
      try {
        text = encode(response);
      } catch (err) {
        const message = `Tool ${tool.name} returned data that is not JSON-serializable: ${messageOf(err)}`;
        finish(
          { requestId, code: RPC_RESPONSE_CODES.ERROR, data: { message } },
          result.componentData,
          message,
        );
        return;
      }
      const bytes = byteLength(text);
      const limit = env.maxPayloadBytes();
      if (bytes > limit) {
        const message = `Tool ${tool.name} response is ${bytes} bytes, over the transport limit of ${limit} bytes; keep large data in componentData`;
        finish(
          { requestId, code: RPC_RESPONSE_CODES.ERROR, data: { message, bytes, limit } },
          result.componentData,
          message,
        );
        return;
      }
      finish(response, result.componentData);
    };
    const onError = (err: unknown): void => {
      if (done) {
        env.logger.debug(
          {
            requestId,
            tool: tool.name,
            error: messageOf(err),
          },
          'tool handler failed after its call was answered',
        );
        return;
      }
      const message = messageOf(err);
      env.logger.warn({ requestId, tool: tool.name, method, error: message }, 'tool handler threw');
      finish({ requestId, code: RPC_RESPONSE_CODES.ERROR, data: { message } }, undefined, message);
    };
    try {
      const output = handler(requestId, args, env.getSettings(), env.collections, context);
      if (isPromiseLike(output)) Promise.resolve(output).then(onResult, onError);
      else onResult(output);
    } catch (err) {
      onError(err);
    }
  });
}
