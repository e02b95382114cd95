/**
 * `RpcTransport` over an RTVI connection made with `@pipecat-ai/client-js`
 * (`PipecatClient`). Only types are imported from client-js; the caller passes
 * the client. Wire messages: `RTVI_RPC_MESSAGES` in `@scenaro/sdk/protocol`.
 *
 * - agent -> browser: a `server-message` `{type: "rpc-request", requestId, method,
 *   payload, responseTimeoutMs, callerIdentity?}` is acknowledged at once with a
 *   `client-message` `t: "rpc-ack"`, then answered with `t: "rpc-response"`
 *   `{requestId, payload}` or `{requestId, error: {code, message, data?}}`;
 * - browser -> agent: `client.sendClientRequest("rpc-call", {method, payload,
 *   responseTimeoutMs})`, answered by `server-response` `{payload}` or
 *   `error-response` `{error, code?, data?}`. client-js only sweeps request
 *   timeouts every 2 s, so the transport enforces `responseTimeoutMs` itself.
 *
 * There is one peer, the agent: calls go to `remoteIdentity` (or to any identity
 * an inbound request named as its caller).
 */
import { errorMessage } from '../util/index.js';
import {
  RTVI_RPC_MESSAGES,
  isRtviRpcRequest,
  parseRtviRpcCallError,
  parseRtviRpcCallResult,
  parseRtviRpcRequest,
} from '../protocol/index.js';
import type {
  RtviRpcAckData,
  RtviRpcCallData,
  RtviRpcRequest,
  RtviRpcResponseData,
} from '../protocol/index.js';
import { abortError, abortReason, onAbort } from '../rpc/abort.js';
import { RpcError } from '../rpc/errors.js';
import { DisconnectListeners } from '../rpc/disconnect-listeners.js';
import { silentLogger } from '../rpc/logger.js';
import type { Logger } from '../rpc/logger.js';
import { defaultTimers } from '../rpc/timers.js';
import type { Timers } from '../rpc/timers.js';
import type {
  PerformRpcParams,
  RpcDisconnectListener,
  RpcMethodHandler,
  RpcTransport,
} from '../rpc/transport.js';
import { byteLength } from '../rpc/utf8.js';

/** The subset of `PipecatClient` the transport uses (a real client fits). */
export interface RtviClientLike {
  on(event: 'serverMessage', listener: (data: unknown) => void): unknown;
  on(event: 'disconnected', listener: () => void): unknown;
  on(event: 'botDisconnected', listener: (participant: unknown) => void): unknown;
  on(event: 'botReady', listener: (data: unknown) => void): unknown;
  off(event: 'serverMessage', listener: (data: unknown) => void): unknown;
  off(event: 'disconnected', listener: () => void): unknown;
  off(event: 'botDisconnected', listener: (participant: unknown) => void): unknown;
  off(event: 'botReady', listener: (data: unknown) => void): unknown;
  sendClientMessage(msgType: string, data?: unknown): void;
  sendClientRequest(msgType: string, data: unknown, timeout?: number): Promise<unknown>;
  readonly transport?: { readonly maxMessageSize?: number } | undefined;
}

/** Options of {@link createRtviTransport}. */
export interface RtviTransportOptions {
  /** This side's identity. @default 'user' */
  localIdentity?: string;
  /** The agent's identity (the only peer). @default 'agent' */
  remoteIdentity?: string;
  /**
   * Payload limit. @default 524288 (half of the 1 MiB RTVI message cap, leaving
   * room for JSON escaping and the envelope; the encoded message is checked too)
   */
  maxPayloadBytes?: number;
  timers?: Timers;
  logger?: Logger;
}

/** Default RTVI payload limit. */
export const RTVI_DEFAULT_MAX_PAYLOAD_BYTES = 512 * 1024;
/** Bytes an RTVI envelope adds around a response's JSON (label, type, id, t). */
const ENVELOPE_OVERHEAD_BYTES = 128;

interface PendingCall {
  reject: (error: unknown) => void;
}

/** An {@link RpcTransport} over a `PipecatClient`. */
export class RtviTransport implements RpcTransport {
  readonly localIdentity: string;
  readonly remoteIdentity: string;
  readonly maxPayloadBytes: number;
  private readonly client: RtviClientLike;
  private readonly timers: Timers;
  private readonly logger: Logger;
  private readonly handlers = new Map<string, RpcMethodHandler>();
  private readonly running = new Set<AbortController>();
  private readonly pending = new Set<PendingCall>();
  private readonly listeners = new DisconnectListeners(() => this.logger);
  private readonly knownCallers = new Set<string>();
  private attached = false;

  constructor(client: RtviClientLike, options: RtviTransportOptions = {}) {
    this.client = client;
    this.localIdentity = options.localIdentity ?? 'user';
    this.remoteIdentity = options.remoteIdentity ?? 'agent';
    this.maxPayloadBytes = options.maxPayloadBytes ?? RTVI_DEFAULT_MAX_PAYLOAD_BYTES;
    this.timers = options.timers ?? defaultTimers;
    this.logger = options.logger ?? silentLogger;
    client.on('serverMessage', this.onServerMessage);
    client.on('botReady', this.onBotReady);
    client.on('disconnected', this.onDisconnected);
    client.on('botDisconnected', this.onBotDisconnected);
    this.attached = true;
  }

  /** The underlying client. */
  get raw(): RtviClientLike {
    return this.client;
  }

  /** Methods with a registered handler. */
  get registeredMethods(): string[] {
    return [...this.handlers.keys()];
  }

  /** Outbound calls waiting for an answer. */
  get pendingCallCount(): number {
    return this.pending.size;
  }

  registerMethod(method: string, handler: RpcMethodHandler): void {
    if (this.handlers.has(method)) {
      throw new Error(
        `RPC handler already registered for method ${method}, unregisterMethod before trying to register again`,
      );
    }
    this.handlers.set(method, handler);
    this.announceMethods();
  }

  unregisterMethod(method: string): void {
    if (this.handlers.delete(method)) this.announceMethods();
  }

  private announceScheduled = false;

  /**
   * Tell the agent which methods this side answers (`rpc-methods`), once per
   * burst of changes, and again whenever the bot becomes ready. An agent runs a
   * frontend tool in the browser only when the browser announced its method.
   */
  private announceMethods(): void {
    if (this.announceScheduled) return;
    this.announceScheduled = true;
    queueMicrotask(() => {
      this.announceScheduled = false;
      if (!this.attached) return;
      this.send(RTVI_RPC_MESSAGES.METHODS, { methods: [...this.handlers.keys()] });
    });
  }

  private readonly onBotReady = (): void => {
    this.announceMethods();
  };

  onDisconnect(listener: RpcDisconnectListener): () => void {
    return this.listeners.add(listener);
  }

  performRpc(params: PerformRpcParams): Promise<string> {
    const { destinationIdentity, method, payload, responseTimeoutMs, signal } = params;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (
      destinationIdentity !== this.remoteIdentity &&
      !this.knownCallers.has(destinationIdentity)
    ) {
      return Promise.reject(
        RpcError.builtIn(
          'RECIPIENT_NOT_FOUND',
          `only ${this.remoteIdentity} is reachable over RTVI`,
        ),
      );
    }
    if (byteLength(payload) > this.maxPayloadBytes) {
      return Promise.reject(RpcError.builtIn('REQUEST_PAYLOAD_TOO_LARGE'));
    }
    return new Promise<string>((resolve, reject) => {
      let settled = false;
      const entry: PendingCall = { reject: (error) => settle(() => reject(error)) };
      const settle = (fn: () => void): void => {
        if (settled) return;
        settled = true;
        this.timers.clearTimeout(timer);
        detach();
        this.pending.delete(entry);
        fn();
      };
      // Our own exact deadline; client-js's 2 s sweep would fire up to 2 s late.
      const timer = this.timers.setTimeout(
        () => settle(() => reject(RpcError.builtIn('RESPONSE_TIMEOUT'))),
        responseTimeoutMs,
      );
      const detach = onAbort(signal, () => {
        if (signal) settle(() => reject(abortReason(signal)));
      });
      this.pending.add(entry);
      const data: RtviRpcCallData = { method, payload, responseTimeoutMs };
      let request: Promise<unknown>;
      try {
        request = this.client.sendClientRequest(
          RTVI_RPC_MESSAGES.CALL,
          data,
          responseTimeoutMs + 2500,
        );
      } catch (err) {
        settle(() => reject(toSendError(err)));
        return;
      }
      request.then(
        (d) => {
          const parsed = parseRtviRpcCallResult(d);
          settle(() =>
            parsed.ok
              ? resolve(parsed.value.payload)
              : reject(
                  RpcError.builtIn(
                    'APPLICATION_ERROR',
                    `invalid rpc-call answer: ${parsed.message}`,
                  ),
                ),
          );
        },
        (err: unknown) => settle(() => reject(fromCallError(err))),
      );
    });
  }

  /** Stop listening to the client; running handlers are aborted, pending calls fail with 1503. */
  dispose(): void {
    if (this.attached) {
      this.client.off('serverMessage', this.onServerMessage);
      this.client.off('botReady', this.onBotReady);
      this.client.off('disconnected', this.onDisconnected);
      this.client.off('botDisconnected', this.onBotDisconnected);
      this.attached = false;
    }
    this.failAll('transport disposed');
    this.listeners.clear();
  }

  private readonly onServerMessage = (data: unknown): void => {
    if (!isRtviRpcRequest(data)) return;
    const parsed = parseRtviRpcRequest(data);
    if (!parsed.ok) {
      const requestId = (data as { requestId?: unknown }).requestId;
      this.logger.warn({ error: parsed.message }, 'malformed rpc-request');
      if (typeof requestId === 'string' && requestId.length > 0) {
        this.send(RTVI_RPC_MESSAGES.RESPONSE, {
          requestId,
          error: RpcError.builtIn(
            'APPLICATION_ERROR',
            `RPC request malformed: ${parsed.message}`,
          ).toWire(),
        } satisfies RtviRpcResponseData);
      }
      return;
    }
    void this.handleRequest(parsed.value);
  };

  private async handleRequest(request: RtviRpcRequest): Promise<void> {
    const { requestId, method } = request;
    if (request.callerIdentity !== undefined) this.knownCallers.add(request.callerIdentity);
    this.send(RTVI_RPC_MESSAGES.ACK, { requestId } satisfies RtviRpcAckData);
    const handler = this.handlers.get(method);
    if (!handler) {
      this.respond({ requestId, error: RpcError.builtIn('UNSUPPORTED_METHOD').toWire() });
      return;
    }
    const controller = new AbortController();
    this.running.add(controller);
    let answer: RtviRpcResponseData;
    try {
      const result = await handler({
        requestId,
        callerIdentity: request.callerIdentity ?? this.remoteIdentity,
        payload: request.payload,
        responseTimeoutMs: request.responseTimeoutMs,
        signal: controller.signal,
      });
      const payload = typeof result === 'string' ? result : String(result ?? '');
      answer =
        byteLength(payload) > this.maxPayloadBytes
          ? { requestId, error: RpcError.builtIn('RESPONSE_PAYLOAD_TOO_LARGE').toWire() }
          : { requestId, payload };
    } catch (err) {
      if (!RpcError.isInstance(err)) {
        this.logger.warn({ method, requestId }, 'Uncaught error returned by RPC handler');
      }
      answer = { requestId, error: RpcError.from(err).toWire() };
    } finally {
      this.running.delete(controller);
    }
    if (controller.signal.aborted) return; // disconnected meanwhile: nobody to answer
    this.respond(answer);
  }

  private respond(answer: RtviRpcResponseData): void {
    const limit = this.client.transport?.maxMessageSize;
    if (
      'payload' in answer &&
      limit !== undefined &&
      byteLength(JSON.stringify(answer)) + ENVELOPE_OVERHEAD_BYTES > limit
    ) {
      answer = {
        requestId: answer.requestId,
        error: RpcError.builtIn('RESPONSE_PAYLOAD_TOO_LARGE').toWire(),
      };
    }
    this.send(RTVI_RPC_MESSAGES.RESPONSE, answer);
  }

  private send(t: string, d: unknown): void {
    try {
      this.client.sendClientMessage(t, d);
    } catch (err) {
      this.logger.warn({ t, error: String(err) }, 'could not send RTVI RPC message');
    }
  }

  private failAll(reason: string): void {
    for (const controller of this.running) controller.abort(abortError(reason));
    for (const call of [...this.pending]) call.reject(RpcError.builtIn('RECIPIENT_DISCONNECTED'));
  }

  private readonly onDisconnected = (): void => {
    this.failAll('disconnected');
    this.listeners.emit({ kind: 'local', reason: 'disconnected' });
  };

  private readonly onBotDisconnected = (): void => {
    this.failAll('bot disconnected');
    this.listeners.emit({ kind: 'peer', identity: this.remoteIdentity });
  };
}

function errorName(err: unknown): string | undefined {
  const name = (err as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : undefined;
}

/** A failure thrown while sending (client not ready, message too large). */
function toSendError(err: unknown): RpcError {
  const message = errorMessage(err);
  if (errorName(err) === 'MessageTooLargeError') {
    return RpcError.builtIn('REQUEST_PAYLOAD_TOO_LARGE', message, { cause: err });
  }
  return RpcError.builtIn('SEND_FAILED', message, { cause: err });
}

/** Map a `sendClientRequest` rejection (an `error-response` RTVIMessage, or an error) to `RpcError`. */
function fromCallError(err: unknown): RpcError {
  const message = err as { type?: unknown; data?: unknown } | null;
  if (message && message.type === 'error-response') {
    const parsed = parseRtviRpcCallError(message.data);
    if (parsed.ok) {
      const { error, code, data } = parsed.value;
      return new RpcError(code ?? RpcError.ErrorCode.APPLICATION_ERROR, error, data, {
        cause: err,
      });
    }
  }
  if (err instanceof Error) return toSendError(err);
  return RpcError.from(err);
}

/** Wrap a `PipecatClient` (after or before `connect()`) as an {@link RpcTransport}. */
export function createRtviTransport(
  client: RtviClientLike,
  options: RtviTransportOptions = {},
): RtviTransport {
  return new RtviTransport(client, options);
}
