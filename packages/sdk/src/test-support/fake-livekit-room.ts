/**
 * A stand-in for livekit-client's `Room`, backed by a loopback participant: the
 * RPC subset the LiveKit adapter uses (`registerRpcMethod`, `unregisterRpcMethod`,
 * `localParticipant.performRpc`, `on`/`off` for disconnect events), with
 * livekit-client's own `RpcError` class on the wire and its handler rules
 * (duplicate registration throws; a non-`RpcError` throw becomes 1500
 * "Uncaught error: ..."). Test-only: it imports livekit-client at run time.
 */
import { RpcError as LiveKitRpcError } from 'livekit-client';
import type { PerformRpcParams, RpcInvocationData } from 'livekit-client';
import { RpcError } from '../rpc/errors.js';
import type { LoopbackTransport } from '../rpc/loopback.js';

type RoomListener = (...args: never[]) => void;

/** A fake `Room` whose RPC runs over a {@link LoopbackTransport}. */
export class FakeLiveKitRoom {
  readonly localParticipant: {
    readonly identity: string;
    performRpc(params: PerformRpcParams): Promise<string>;
  };
  private readonly transport: LoopbackTransport;
  private readonly handlers = new Set<string>();
  private readonly listeners = new Map<string, Set<RoomListener>>();
  private readonly unsubscribe: () => void;

  constructor(transport: LoopbackTransport) {
    this.transport = transport;
    this.localParticipant = {
      get identity() {
        return transport.localIdentity;
      },
      performRpc: async ({ destinationIdentity, method, payload, responseTimeout = 15000 }) => {
        try {
          return await transport.performRpc({
            destinationIdentity,
            method,
            payload,
            responseTimeoutMs: responseTimeout,
          });
        } catch (err) {
          if (RpcError.isInstance(err)) throw new LiveKitRpcError(err.code, err.message, err.data);
          throw err;
        }
      },
    };
    this.unsubscribe = transport.onDisconnect((event) => {
      if (event.kind === 'peer') this.emit('participantDisconnected', { identity: event.identity });
      else this.emit('disconnected', event.reason);
    });
  }

  registerRpcMethod(method: string, handler: (data: RpcInvocationData) => Promise<string>): void {
    if (this.handlers.has(method)) {
      throw Error(
        `RPC handler already registered for method ${method}, unregisterRpcMethod before trying to register again`,
      );
    }
    this.handlers.add(method);
    this.transport.registerMethod(method, async (inv) => {
      try {
        const { requestId, callerIdentity, payload, responseTimeoutMs: responseTimeout } = inv;
        return await handler({ requestId, callerIdentity, payload, responseTimeout });
      } catch (err) {
        if (err instanceof LiveKitRpcError) throw new RpcError(err.code, err.message, err.data);
        const text = err instanceof Error ? err.message : String(err);
        throw RpcError.builtIn('APPLICATION_ERROR', `Uncaught error: ${text}`);
      }
    });
  }

  unregisterRpcMethod(method: string): void {
    this.handlers.delete(method);
    this.transport.unregisterMethod(method);
  }

  on(event: 'participantDisconnected', listener: (participant: { identity: string }) => void): this;
  on(event: 'disconnected', listener: (reason?: unknown) => void): this;
  on(event: string, listener: RoomListener): this {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
    return this;
  }

  off(
    event: 'participantDisconnected',
    listener: (participant: { identity: string }) => void,
  ): this;
  off(event: 'disconnected', listener: (reason?: unknown) => void): this;
  off(event: string, listener: RoomListener): this {
    this.listeners.get(event)?.delete(listener);
    return this;
  }

  /** Listeners attached to `event`. */
  listenerCount(event: string): number {
    return this.listeners.get(event)?.size ?? 0;
  }

  /** Stop relaying the loopback participant's disconnect events. */
  dispose(): void {
    this.unsubscribe();
  }

  private emit(event: string, ...args: unknown[]): void {
    for (const listener of [...(this.listeners.get(event) ?? [])]) {
      (listener as (...values: unknown[]) => void)(...args);
    }
  }
}
