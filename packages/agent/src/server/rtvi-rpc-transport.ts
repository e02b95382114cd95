/**
 * The agent side of RPC over an RTVI connection: an `RpcTransport` per bot
 * session, the counterpart of `@scenaro/sdk/rtvi` in the browser.
 *
 * - agent -> browser: a `server-message {type: "rpc-request", ...}`, acknowledged by the
 *   browser's `client-message rpc-ack` and answered by `client-message rpc-response`;
 * - browser -> agent: `client-message rpc-call`, answered with `server-response {payload}`
 *   or `error-response {error, code}`.
 *
 * LiveKit RPC semantics: no ack within the ack window -> 1501, no answer within the
 * response timeout -> 1502, unknown method -> 1400, payload over the limit -> 1402 / 1504,
 * session closed or browser disconnected -> 1503.
 */
import { randomUUID } from 'node:crypto';
import { RpcError } from '@scenaro/sdk';
import type {
  PerformRpcParams,
  RpcDisconnectListener,
  RpcMethodHandler,
  RpcTransport,
} from '@scenaro/sdk';
import {
  parseRtviRpcAck,
  parseRtviRpcCall,
  parseRtviRpcMethods,
  parseRtviRpcResponse,
  rtviRpcRequestMessage,
} from '@scenaro/sdk/protocol';
import type { RTVIMessage } from '@scenaro/sdk/protocol';

/** LiveKit v1's payload limit. */
export const RTVI_RPC_MAX_PAYLOAD_BYTES = 15360;
/** How long the browser has to acknowledge a request. */
export const RTVI_RPC_ACK_TIMEOUT_MS = 7000;

interface Pending {
  resolve: (payload: string) => void;
  reject: (err: unknown) => void;
  ackTimer: ReturnType<typeof setTimeout> | undefined;
  responseTimer: ReturnType<typeof setTimeout>;
  cleanup: () => void;
}

const encoder = new TextEncoder();
const byteLength = (s: string) => encoder.encode(s).byteLength;

/** What the transport needs from its session. */
export interface RtviRpcHost {
  /** Send a message to the browser. */
  send(message: RTVIMessage): void;
  /** Aborted when the session ends. */
  readonly signal: AbortSignal;
  /** False while no browser is connected (a session waiting for its client to come back). */
  connected?(): boolean;
}

/** One session's RPC transport to its browser. */
export class RtviRpcServerTransport implements RpcTransport {
  readonly localIdentity = 'agent';
  readonly remoteIdentity = 'browser';
  readonly maxPayloadBytes = RTVI_RPC_MAX_PAYLOAD_BYTES;
  readonly #host: RtviRpcHost;
  readonly #handlers = new Map<string, RpcMethodHandler>();
  readonly #pending = new Map<string, Pending>();
  readonly #listeners = new Set<RpcDisconnectListener>();
  readonly #ackTimeoutMs: number;
  #remoteMethods: ReadonlySet<string> = new Set();

  constructor(host: RtviRpcHost, options: { ackTimeoutMs?: number } = {}) {
    this.#host = host;
    this.#ackTimeoutMs = options.ackTimeoutMs ?? RTVI_RPC_ACK_TIMEOUT_MS;
    // A session that already lost its browser has told everyone.
    const onEnd = () => host.connected?.() !== false && this.disconnected();
    host.signal.addEventListener('abort', onEnd, { once: true });
  }

  /** Number of calls waiting for an answer. */
  get pendingCount(): number {
    return this.#pending.size;
  }

  registerMethod(method: string, handler: RpcMethodHandler): void {
    if (this.#handlers.has(method)) throw new Error(`RPC method '${method}' is already registered`);
    this.#handlers.set(method, handler);
  }

  unregisterMethod(method: string): void {
    this.#handlers.delete(method);
  }

  onDisconnect(listener: RpcDisconnectListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  performRpc(params: PerformRpcParams): Promise<string> {
    if (this.#host.signal.aborted || this.#host.connected?.() === false)
      return Promise.reject(RpcError.builtIn('RECIPIENT_DISCONNECTED'));
    if (byteLength(params.payload) > this.maxPayloadBytes) {
      return Promise.reject(RpcError.builtIn('REQUEST_PAYLOAD_TOO_LARGE'));
    }
    if (params.signal?.aborted) return Promise.reject(params.signal.reason);
    const requestId = randomUUID();
    return new Promise<string>((resolve, reject) => {
      const onAbort = () => settle(() => reject(params.signal?.reason));
      const cleanup = () => {
        const pending = this.#pending.get(requestId);
        if (pending?.ackTimer) clearTimeout(pending.ackTimer);
        if (pending) clearTimeout(pending.responseTimer);
        params.signal?.removeEventListener('abort', onAbort);
        this.#pending.delete(requestId);
      };
      const settle = (fn: () => void) => {
        if (!this.#pending.has(requestId)) return;
        cleanup();
        fn();
      };
      const ackTimer = setTimeout(
        () => settle(() => reject(RpcError.builtIn('CONNECTION_TIMEOUT'))),
        this.#ackTimeoutMs,
      );
      const responseTimer = setTimeout(
        () => settle(() => reject(RpcError.builtIn('RESPONSE_TIMEOUT'))),
        params.responseTimeoutMs,
      );
      this.#pending.set(requestId, {
        resolve: (payload) => settle(() => resolve(payload)),
        reject: (err) => settle(() => reject(err)),
        ackTimer,
        responseTimer,
        cleanup,
      });
      params.signal?.addEventListener('abort', onAbort, { once: true });
      this.#host.send(
        rtviRpcRequestMessage({
          requestId,
          method: params.method,
          payload: params.payload,
          responseTimeoutMs: params.responseTimeoutMs,
          callerIdentity: this.localIdentity,
        }),
      );
    });
  }

  /** Methods the browser announced it answers (`rpc-methods`). */
  get remoteMethods(): ReadonlySet<string> {
    return this.#remoteMethods;
  }

  /** Does the browser answer `method`? Only then is a frontend tool run over RPC. */
  hasRemoteMethod(method: string): boolean {
    return this.#remoteMethods.has(method);
  }

  /** `client-message rpc-methods`: the browser's current method list. */
  handleMethods(d: unknown): void {
    const parsed = parseRtviRpcMethods(d);
    if (!parsed.ok) throw new RangeError(`rpc-methods: ${parsed.message}`);
    this.#remoteMethods = new Set(parsed.value.methods);
  }

  /** `client-message rpc-ack`. */
  handleAck(d: unknown): void {
    const parsed = parseRtviRpcAck(d);
    if (!parsed.ok) throw new RangeError(`rpc-ack: ${parsed.message}`);
    const pending = this.#pending.get(parsed.value.requestId);
    if (pending?.ackTimer) {
      clearTimeout(pending.ackTimer);
      pending.ackTimer = undefined;
    }
  }

  /** `client-message rpc-response`. */
  handleResponse(d: unknown): void {
    const parsed = parseRtviRpcResponse(d);
    if (!parsed.ok) throw new RangeError(`rpc-response: ${parsed.message}`);
    const pending = this.#pending.get(parsed.value.requestId);
    if (!pending) return; // late answer after a timeout: dropped
    const value = parsed.value;
    if ('error' in value) {
      pending.reject(RpcError.fromWire(value.error));
      return;
    }
    if (byteLength(value.payload) > this.maxPayloadBytes) {
      pending.reject(RpcError.builtIn('RESPONSE_PAYLOAD_TOO_LARGE'));
      return;
    }
    pending.resolve(value.payload);
  }

  /** `client-message rpc-call`: run a registered method for the browser. */
  async handleCall(d: unknown): Promise<{ payload: string }> {
    const parsed = parseRtviRpcCall(d);
    if (!parsed.ok) throw new RangeError(`rpc-call: ${parsed.message}`);
    const { method, payload, responseTimeoutMs } = parsed.value;
    const handler = this.#handlers.get(method);
    if (!handler) throw RpcError.builtIn('UNSUPPORTED_METHOD');
    if (byteLength(payload) > this.maxPayloadBytes)
      throw RpcError.builtIn('REQUEST_PAYLOAD_TOO_LARGE');
    let result: string;
    try {
      result = await handler({
        requestId: randomUUID(),
        callerIdentity: this.remoteIdentity,
        payload,
        responseTimeoutMs,
        signal: this.#host.signal,
      });
    } catch (err) {
      throw RpcError.isInstance(err)
        ? err
        : RpcError.builtIn('APPLICATION_ERROR', undefined, { cause: err });
    }
    if (byteLength(result) > this.maxPayloadBytes)
      throw RpcError.builtIn('RESPONSE_PAYLOAD_TOO_LARGE');
    return { payload: result };
  }

  /**
   * The browser went away (its connection closed, or the session ended): every call waiting for
   * it fails with 1503, its method list is dropped (a browser that connects again announces its
   * own), and the disconnect listeners are told.
   */
  disconnected(): void {
    this.#remoteMethods = new Set();
    for (const pending of [...this.#pending.values()])
      pending.reject(RpcError.builtIn('RECIPIENT_DISCONNECTED'));
    for (const listener of this.#listeners)
      listener({ kind: 'peer', identity: this.remoteIdentity });
  }
}
