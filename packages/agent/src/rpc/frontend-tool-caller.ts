/**
 * The agent side of frontend tools, over any `RpcTransport` (LiveKit, RTVI,
 * loopback): call a tool in the user's browser and always get an
 * `RpcToolResponse` back, so the LLM receives a result whatever happens.
 *
 * Transport failures become results: no ack / no answer (1501, 1502, or the
 * caller's own deadline) -> `TIMEOUT`; the browser left (1503) or the call was
 * aborted or cancelled -> `CANCELLED`; anything else -> `ERROR`. The original
 * RPC code travels as `data.lkCode`.
 */
import { randomUUID } from 'node:crypto';
import { RpcError, defaultTimers, logToolAnswer, silentLogger } from '@scenaro/sdk';
import type { Logger, RpcInvocation, RpcTransport, Timers } from '@scenaro/sdk';
import {
  RPC_METHODS,
  RPC_RESPONSE_CODES,
  RPC_TIMEOUTS,
  SCENARO_RPC_METHODS,
  parseCancelToolCallResponse,
  parseComposerDictationRequest,
  parseRpcToolResponse,
  parseUiActivitySnapshot,
  resolveRpcMethodName,
} from '@scenaro/sdk/protocol';
import type {
  CancelToolCallRequest,
  ComposerDictationRequest,
  ComposerDictationResponse,
  ComposerDictationStatus,
  RpcMethodSpec,
  RpcToolRequest,
  RpcToolResponse,
  UiActivitySnapshot,
} from '@scenaro/sdk/protocol';
import { errorMessage } from '@scenaro/sdk/util';

/** A tool to call: its name, or the config entry (for `frontend_method` and `timeout_ms`). */
export type FrontendTool =
  string | { name: string; frontend_method?: string | null; timeout_ms?: number };

/** Options of one call. */
export interface FrontendToolCallOptions {
  /** Aborting answers `CANCELLED` at once and asks the browser to cancel. */
  signal?: AbortSignal;
  /** Overrides the tool's `timeout_ms` (default `RPC_TIMEOUTS.FRONTEND_TOOL_MS`). */
  timeoutMs?: number;
  /** Use this id instead of a fresh uuid (e.g. the LLM's tool call id). */
  requestId?: string;
}

/** Outcome of {@link FrontendToolCaller.checkUiActivity}. */
export type UiActivityResult =
  | { ok: true; activity: UiActivitySnapshot }
  | { ok: false; code: 'TIMEOUT' | 'ERROR'; message: string; lkCode?: number };

/** Context of a composer handler call. */
export interface ComposerHandlerContext {
  callerIdentity: string;
  /** Transport-level request id. */
  requestId: string;
  /** Aborted when the browser disconnects. */
  signal: AbortSignal | undefined;
}

/** What a composer handler may add to the answer (the status is filled in). */
export type ComposerHandlerResult = Omit<ComposerDictationResponse, 'dictationId' | 'status'>;

/** Handles one composer method; may return extra fields (a `transcript` on end). */
export type ComposerHandler = (
  request: ComposerDictationRequest,
  context: ComposerHandlerContext,
) => ComposerHandlerResult | void | Promise<ComposerHandlerResult | void>;

/** The three composer handlers. */
export interface ComposerHandlers {
  start: ComposerHandler;
  end: ComposerHandler;
  cancel: ComposerHandler;
}

/** Options of a {@link FrontendToolCaller}. */
export interface FrontendToolCallerOptions {
  transport: RpcTransport;
  /** The browser participant, or a function resolving it at call time. */
  destinationIdentity: string | (() => string | undefined);
  /** Extra wait after the tool's deadline before answering `TIMEOUT` ourselves. @default 1000 */
  graceMs?: number;
  timers?: Timers;
  logger?: Logger;
  /** Clock for `sentAt`. @default Date.now */
  now?: () => number;
  /** Request id factory. @default crypto.randomUUID */
  newRequestId?: () => string;
}

interface PendingCall {
  finish: (response: RpcToolResponse) => void;
}

const COMPOSER: Record<keyof ComposerHandlers, [RpcMethodSpec, ComposerDictationStatus]> = {
  start: [RPC_METHODS.COMPOSER_START_DICTATION, 'started'],
  end: [RPC_METHODS.COMPOSER_END_DICTATION, 'ended'],
  cancel: [RPC_METHODS.COMPOSER_CANCEL_DICTATION, 'cancelled'],
};

/** Map any transport failure to the response the LLM gets. */
export function responseFromRpcFailure(requestId: string, err: unknown): RpcToolResponse {
  if (RpcError.isInstance(err)) {
    const data: Record<string, unknown> = { message: err.message, lkCode: err.code };
    if (err.data !== undefined) data['detail'] = err.data;
    switch (err.code) {
      case RpcError.ErrorCode.CONNECTION_TIMEOUT:
      case RpcError.ErrorCode.RESPONSE_TIMEOUT:
        return { requestId, code: RPC_RESPONSE_CODES.TIMEOUT, data };
      case RpcError.ErrorCode.RECIPIENT_DISCONNECTED:
        return { requestId, code: RPC_RESPONSE_CODES.CANCELLED, data };
      default:
        return { requestId, code: RPC_RESPONSE_CODES.ERROR, data };
    }
  }
  if ((err as { name?: unknown } | null)?.name === 'AbortError') {
    return { requestId, code: RPC_RESPONSE_CODES.CANCELLED, data: { message: errorMessage(err) } };
  }
  return { requestId, code: RPC_RESPONSE_CODES.ERROR, data: { message: errorMessage(err) } };
}

/** Calls frontend tools and the browser's built-in methods. */
export class FrontendToolCaller {
  private readonly transport: RpcTransport;
  private readonly destination: () => string | undefined;
  private readonly graceMs: number;
  private readonly timers: Timers;
  private readonly logger: Logger;
  private readonly now: () => number;
  private readonly newRequestId: () => string;
  private readonly pending = new Map<string, PendingCall>();

  constructor(options: FrontendToolCallerOptions) {
    this.transport = options.transport;
    const { destinationIdentity } = options;
    this.destination =
      typeof destinationIdentity === 'string' ? () => destinationIdentity : destinationIdentity;
    this.graceMs = options.graceMs ?? 1000;
    this.timers = options.timers ?? defaultTimers;
    this.logger = options.logger ?? silentLogger;
    this.now = options.now ?? Date.now;
    this.newRequestId = options.newRequestId ?? randomUUID;
  }

  /** Calls waiting for an answer. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /**
   * Run `tool` in the browser. Never rejects (an invalid tool name throws
   * synchronously, as a programmer error): every outcome is an `RpcToolResponse`.
   */
  call(
    tool: FrontendTool,
    args: Record<string, unknown> = {},
    options: FrontendToolCallOptions = {},
  ): Promise<RpcToolResponse> {
    const definition = typeof tool === 'string' ? { name: tool } : tool;
    const method = resolveRpcMethodName(definition);
    const timeoutMs = options.timeoutMs ?? definition.timeout_ms ?? RPC_TIMEOUTS.FRONTEND_TOOL_MS;
    const requestId = options.requestId ?? this.newRequestId();
    const request: RpcToolRequest = { requestId, tool: definition.name, args, sentAt: this.now() };
    const waitMs = timeoutMs + this.graceMs;
    const { signal } = options;
    const started = this.now();
    const call = { requestId, tool: definition.name, method };

    return new Promise<RpcToolResponse>((resolve) => {
      if (this.pending.has(requestId)) {
        resolve({
          requestId,
          code: RPC_RESPONSE_CODES.ERROR,
          data: { message: `requestId ${requestId} is already pending` },
        });
        return;
      }
      const controller = new AbortController();
      let done = false;
      let transportSettled = false;
      let detach = (): void => {};
      const finish = (response: RpcToolResponse): void => {
        if (done) return;
        done = true;
        this.timers.clearTimeout(timer);
        detach();
        this.pending.delete(requestId);
        // Stop waiting on the transport when we answered first (timeout, cancel, abort).
        if (!transportSettled) controller.abort();
        logToolAnswer(
          this.logger,
          'frontend tool answered',
          call,
          response.code,
          this.now() - started,
        );
        resolve(response);
      };
      this.pending.set(requestId, { finish });
      const timer = this.timers.setTimeout(() => {
        finish({
          requestId,
          code: RPC_RESPONSE_CODES.TIMEOUT,
          data: { message: `the frontend did not answer within ${waitMs} ms` },
        });
      }, waitMs);
      if (signal) {
        const onAbort = (): void => {
          const reason = signal.reason instanceof Error ? signal.reason.message : 'aborted';
          finish({ requestId, code: RPC_RESPONSE_CODES.CANCELLED, data: { message: reason } });
          void this.sendCancel(requestId, reason);
        };
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        detach = () => signal.removeEventListener('abort', onAbort);
      }
      const destinationIdentity = this.destination();
      if (!destinationIdentity) {
        finish(
          responseFromRpcFailure(
            requestId,
            RpcError.builtIn('RECIPIENT_NOT_FOUND', 'no frontend participant is known'),
          ),
        );
        return;
      }
      this.transport
        .performRpc({
          destinationIdentity,
          method,
          payload: JSON.stringify(request),
          responseTimeoutMs: waitMs,
          signal: controller.signal,
        })
        .then(
          (payload) => {
            transportSettled = true;
            const parsed = parseRpcToolResponse(payload);
            if (!parsed.ok) {
              finish({
                requestId,
                code: RPC_RESPONSE_CODES.ERROR,
                data: { message: `invalid response from the frontend: ${parsed.message}` },
              });
              return;
            }
            finish({ ...parsed.value, requestId: parsed.value.requestId ?? requestId });
          },
          (err: unknown) => {
            transportSettled = true;
            finish(responseFromRpcFailure(requestId, err));
          },
        );
    });
  }

  /**
   * Cancel a call: a pending `call` resolves `CANCELLED` at once, and the browser
   * is asked to abort the handler. Resolves with whether the browser found it running.
   */
  cancel(requestId: string, reason = 'cancelled by the agent'): Promise<boolean> {
    this.pending
      .get(requestId)
      ?.finish({ requestId, code: RPC_RESPONSE_CODES.CANCELLED, data: { message: reason } });
    return this.sendCancel(requestId, reason);
  }

  /** Ask the browser whether the user is active (`scenaro__ui_activity_check`, 3 s). */
  async checkUiActivity(options: { signal?: AbortSignal } = {}): Promise<UiActivityResult> {
    const spec = RPC_METHODS.UI_ACTIVITY_CHECK;
    try {
      const payload = await this.rpcWithin(
        spec,
        JSON.stringify({ sentAt: this.now() }),
        options.signal,
      );
      const parsed = parseUiActivitySnapshot(payload);
      if (parsed.ok) return { ok: true, activity: parsed.value };
      return { ok: false, code: 'ERROR', message: `invalid activity answer: ${parsed.message}` };
    } catch (err) {
      const response = responseFromRpcFailure('', err);
      const lkCode = RpcError.isInstance(err) ? err.code : undefined;
      return {
        ok: false,
        code: response.code === RPC_RESPONSE_CODES.TIMEOUT ? 'TIMEOUT' : 'ERROR',
        message: errorMessage(err),
        ...(lkCode !== undefined ? { lkCode } : {}),
      };
    }
  }

  /**
   * Register the three `composer_*_dictation` methods the browser calls. Returns a
   * function unregistering them. Throws (registering nothing) if one is taken.
   */
  registerComposerMethods(handlers: ComposerHandlers): () => void {
    const registered: string[] = [];
    try {
      for (const action of Object.keys(COMPOSER) as (keyof ComposerHandlers)[]) {
        const [spec, status] = COMPOSER[action];
        const handler = handlers[action];
        this.transport.registerMethod(spec.method, (invocation) =>
          this.runComposer(handler, status, invocation),
        );
        registered.push(spec.method);
      }
    } catch (err) {
      for (const method of registered) this.transport.unregisterMethod(method);
      throw err;
    }
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      for (const method of registered) this.transport.unregisterMethod(method);
    };
  }

  private async runComposer(
    handler: ComposerHandler,
    status: ComposerDictationStatus,
    invocation: RpcInvocation,
  ): Promise<string> {
    const request = validDictationRequest(invocation.payload);
    const extra = await handler(request, {
      callerIdentity: invocation.callerIdentity,
      requestId: invocation.requestId,
      signal: invocation.signal,
    });
    const response: ComposerDictationResponse = {
      ...(extra ?? {}),
      dictationId: request.dictationId,
      status,
    };
    return JSON.stringify(response);
  }

  private async sendCancel(requestId: string, reason: string): Promise<boolean> {
    const request: CancelToolCallRequest = { requestId, reason };
    try {
      const payload = await this.rpcWithin(
        SCENARO_RPC_METHODS.CANCEL_TOOL_CALL,
        JSON.stringify(request),
      );
      const parsed = parseCancelToolCallResponse(payload);
      return parsed.ok && parsed.value.cancelled;
    } catch (err) {
      this.logger.warn({ requestId, error: errorMessage(err) }, 'cancel request failed');
      return false;
    }
  }

  /** One RPC with the method's timeout, enforced here as well as by the transport. */
  private rpcWithin(spec: RpcMethodSpec, payload: string, signal?: AbortSignal): Promise<string> {
    const destinationIdentity = this.destination();
    if (!destinationIdentity) {
      return Promise.reject(
        RpcError.builtIn('RECIPIENT_NOT_FOUND', 'no frontend participant is known'),
      );
    }
    const controller = new AbortController();
    const onAbort = (): void => controller.abort(signal?.reason);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    const timer = this.timers.setTimeout(
      () => controller.abort(RpcError.builtIn('RESPONSE_TIMEOUT')),
      spec.timeoutMs,
    );
    return this.transport
      .performRpc({
        destinationIdentity,
        method: spec.method,
        payload,
        responseTimeoutMs: spec.timeoutMs,
        signal: controller.signal,
      })
      .finally(() => {
        this.timers.clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      });
  }
}

/** The dictation request in `payload`; an APPLICATION_ERROR naming what is wrong otherwise. */
function validDictationRequest(payload: string) {
  const parsed = parseComposerDictationRequest(payload);
  if (parsed.ok) return parsed.value;
  throw RpcError.builtIn('APPLICATION_ERROR', `invalid dictation request: ${parsed.message}`);
}
