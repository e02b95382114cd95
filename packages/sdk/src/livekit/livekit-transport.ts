/**
 * `RpcTransport` over a livekit-client `Room`. livekit-client is an optional peer
 * dependency: only its types are imported, the caller passes the `Room`.
 *
 * - handlers are registered on the Room (`room.registerRpcMethod`, livekit-client
 *   >= 2.9), so they can be registered before `connect()` and survive reconnects;
 * - calls go through `room.localParticipant.performRpc`; their `RpcError`s keep
 *   their codes; an outer guard rejects a call that never settles (a known
 *   livekit-client hang on degraded networks);
 * - `ParticipantDisconnected` / `Disconnected` become `onDisconnect` events and
 *   abort the handlers of the callers concerned.
 */
import type {
  PerformRpcParams as LiveKitPerformRpcParams,
  RpcInvocationData,
} from 'livekit-client';
import { abortError, abortReason, onAbort } from '../rpc/abort.js';
import { RpcError } from '../rpc/errors.js';
import { DisconnectListeners } from '../rpc/disconnect-listeners.js';
import { silentLogger } from '../rpc/logger.js';
import type { Logger } from '../rpc/logger.js';
import { MAX_V1_PAYLOAD_BYTES, RPC_ACK_TIMEOUT_MS } from '../rpc/loopback.js';
import { defaultTimers } from '../rpc/timers.js';
import type { Timers } from '../rpc/timers.js';
import type {
  PerformRpcParams,
  RpcDisconnectListener,
  RpcMethodHandler,
  RpcTransport,
} from '../rpc/transport.js';

/** A participant as the disconnect event carries it. */
export interface LiveKitParticipantLike {
  readonly identity: string;
}

/** The subset of livekit-client's `Room` the adapter uses (a real `Room` fits). */
export interface LiveKitRoomLike {
  registerRpcMethod(method: string, handler: (data: RpcInvocationData) => Promise<string>): void;
  unregisterRpcMethod(method: string): void;
  readonly localParticipant: {
    readonly identity: string;
    performRpc(params: LiveKitPerformRpcParams): Promise<string>;
  };
  on(
    event: 'participantDisconnected',
    listener: (participant: LiveKitParticipantLike) => void,
  ): unknown;
  on(event: 'disconnected', listener: (reason?: unknown) => void): unknown;
  off(
    event: 'participantDisconnected',
    listener: (participant: LiveKitParticipantLike) => void,
  ): unknown;
  off(event: 'disconnected', listener: (reason?: unknown) => void): unknown;
}

/** livekit-client's `RpcError` constructor (to keep handler error codes on the wire). */
export type LiveKitRpcErrorConstructor = new (
  code: number,
  message: string,
  data?: string,
) => Error;

/** Options of {@link createLiveKitTransport}. */
export interface LiveKitTransportOptions {
  /**
   * Payload limit the session enforces on responses. @default 15360 (RPC v1; a
   * Python agent or older peer may only speak v1)
   */
  maxPayloadBytes?: number;
  /**
   * Pass `RpcError` from livekit-client so an `RpcError` thrown by a handler
   * reaches the caller with its code; without it livekit-client sends 1500.
   */
  RpcError?: LiveKitRpcErrorConstructor;
  /** Extra time after `max(responseTimeoutMs, 7000)` before a call that never settled is failed. @default 1000 */
  settleGuardMs?: number;
  timers?: Timers;
  logger?: Logger;
}

/** An {@link RpcTransport} backed by a LiveKit `Room`. */
export class LiveKitTransport implements RpcTransport {
  readonly maxPayloadBytes: number;
  private readonly room: LiveKitRoomLike;
  private readonly options: LiveKitTransportOptions;
  private readonly timers: Timers;
  private readonly logger: Logger;
  private readonly methods = new Set<string>();
  private readonly running = new Set<{ callerIdentity: string; controller: AbortController }>();
  private readonly listeners = new DisconnectListeners(() => this.logger);
  private attached = false;

  constructor(room: LiveKitRoomLike, options: LiveKitTransportOptions = {}) {
    this.room = room;
    this.options = options;
    this.maxPayloadBytes = options.maxPayloadBytes ?? MAX_V1_PAYLOAD_BYTES;
    this.timers = options.timers ?? defaultTimers;
    this.logger = options.logger ?? silentLogger;
    this.room.on('participantDisconnected', this.onParticipantDisconnected);
    this.room.on('disconnected', this.onRoomDisconnected);
    this.attached = true;
  }

  /** The underlying Room. */
  get raw(): LiveKitRoomLike {
    return this.room;
  }

  get localIdentity(): string {
    return this.room.localParticipant.identity;
  }

  /** Methods this transport registered on the Room. */
  get registeredMethods(): string[] {
    return [...this.methods];
  }

  registerMethod(method: string, handler: RpcMethodHandler): void {
    if (this.methods.has(method)) {
      throw new Error(
        `RPC handler already registered for method ${method}, unregisterMethod before trying to register again`,
      );
    }
    this.room.registerRpcMethod(method, (data) => this.invoke(handler, data));
    this.methods.add(method);
  }

  unregisterMethod(method: string): void {
    if (!this.methods.delete(method)) return;
    this.room.unregisterRpcMethod(method);
  }

  onDisconnect(listener: RpcDisconnectListener): () => void {
    return this.listeners.add(listener);
  }

  performRpc(params: PerformRpcParams): Promise<string> {
    const { destinationIdentity, method, payload, responseTimeoutMs, signal } = params;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return new Promise<string>((resolve, reject) => {
      let settled = false;
      const settle = (fn: () => void): void => {
        if (settled) return;
        settled = true;
        this.timers.clearTimeout(guard);
        detach();
        fn();
      };
      const guardMs =
        Math.max(responseTimeoutMs, RPC_ACK_TIMEOUT_MS) + (this.options.settleGuardMs ?? 1000);
      const guard = this.timers.setTimeout(() => {
        this.logger.warn({ method, destinationIdentity }, 'performRpc did not settle; failing it');
        settle(() => reject(RpcError.builtIn('RESPONSE_TIMEOUT', 'performRpc never settled')));
      }, guardMs);
      const detach = onAbort(signal, () => {
        if (signal) settle(() => reject(abortReason(signal)));
      });
      let call: Promise<string>;
      try {
        call = this.room.localParticipant.performRpc({
          destinationIdentity,
          method,
          payload,
          responseTimeout: responseTimeoutMs,
        });
      } catch (err) {
        settle(() => reject(RpcError.from(err)));
        return;
      }
      call.then(
        (result) => settle(() => resolve(result)),
        (err: unknown) => settle(() => reject(RpcError.from(err))),
      );
    });
  }

  /** Stop listening to the Room and unregister every method this transport registered. */
  dispose(): void {
    for (const method of this.methods) this.room.unregisterRpcMethod(method);
    this.methods.clear();
    if (this.attached) {
      this.room.off('participantDisconnected', this.onParticipantDisconnected);
      this.room.off('disconnected', this.onRoomDisconnected);
      this.attached = false;
    }
    for (const run of this.running) run.controller.abort(abortError('transport disposed'));
    this.listeners.clear();
  }

  private async invoke(handler: RpcMethodHandler, data: RpcInvocationData): Promise<string> {
    const run = { callerIdentity: data.callerIdentity, controller: new AbortController() };
    this.running.add(run);
    try {
      return await handler({
        requestId: data.requestId,
        callerIdentity: data.callerIdentity,
        payload: data.payload,
        responseTimeoutMs: data.responseTimeout,
        signal: run.controller.signal,
      });
    } catch (err) {
      const Native = this.options.RpcError;
      if (Native && RpcError.isInstance(err)) throw new Native(err.code, err.message, err.data);
      throw err;
    } finally {
      this.running.delete(run);
    }
  }

  private readonly onParticipantDisconnected = (participant: LiveKitParticipantLike): void => {
    for (const run of this.running) {
      if (run.callerIdentity === participant.identity) {
        run.controller.abort(abortError('caller disconnected'));
      }
    }
    this.listeners.emit({ kind: 'peer', identity: participant.identity });
  };

  private readonly onRoomDisconnected = (reason?: unknown): void => {
    for (const run of this.running) run.controller.abort(abortError('room disconnected'));
    this.listeners.emit(
      reason === undefined ? { kind: 'local' } : { kind: 'local', reason: String(reason) },
    );
  };
}

/** Wrap a livekit-client `Room` as an {@link RpcTransport}. */
export function createLiveKitTransport(
  room: LiveKitRoomLike,
  options: LiveKitTransportOptions = {},
): LiveKitTransport {
  return new LiveKitTransport(room, options);
}
