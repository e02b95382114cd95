/**
 * A stand-in for livekit-client's `Room`, backed by a loopback participant: the
 * RPC subset the LiveKit adapter uses (`registerRpcMethod`, `unregisterRpcMethod`,
 * `localParticipant.performRpc`, `on`/`off` for disconnect events), with
 * livekit-client's own `RpcError` class on the wire and its handler rules
 * (duplicate registration throws; a non-`RpcError` throw becomes 1500
 * "Uncaught error: ..."); and the voice subset (`state`, `connect`, `disconnect`,
 * the local microphone and its track's mute), whose room events the test plays
 * with `emit`. Test-only: it imports livekit-client at run time.
 */
import { errorMessage } from '../util/index.js';
import { RpcError as LiveKitRpcError } from 'livekit-client';
import type { PerformRpcParams, RpcInvocationData } from 'livekit-client';
import { RpcError } from '../rpc/errors.js';
import type { LoopbackTransport } from '../rpc/loopback.js';
import { ScriptedEmitter } from './scripted-emitter.js';

type RoomListener = (...args: never[]) => void;

/** A fake `Room` whose RPC runs over a {@link LoopbackTransport}. */
export class FakeLiveKitRoom extends ScriptedEmitter {
  readonly localParticipant: {
    readonly identity: string;
    readonly isLocal: true;
    performRpc(params: PerformRpcParams): Promise<string>;
    setMicrophoneEnabled(enabled: boolean): Promise<undefined>;
    getTrackPublication(
      source: string,
    ): { mute(): Promise<undefined>; unmute(): Promise<undefined> } | undefined;
  };
  /** The room's `ConnectionState`. */
  state = 'disconnected';
  /** What the voice surface asked of the room, in order (`connect url token`, `mic on`, `mute`...). */
  readonly voiceCalls: string[] = [];
  /** Thrown by `setMicrophoneEnabled(true)` (e.g. a `NotAllowedError`). */
  micFailure: unknown;
  #micEnabled = false;
  private readonly transport: LoopbackTransport;
  private readonly handlers = new Set<string>();
  private readonly unsubscribe: () => void;

  constructor(transport: LoopbackTransport) {
    super();
    this.transport = transport;
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the participant reports to its room
    const room = this;
    const micPublication = {
      mute: async () => {
        room.voiceCalls.push('mute');
        room.emit('trackMuted', { source: 'microphone' }, room.localParticipant);
        return undefined;
      },
      unmute: async () => {
        room.voiceCalls.push('unmute');
        room.emit('trackUnmuted', { source: 'microphone' }, room.localParticipant);
        return undefined;
      },
    };
    this.localParticipant = {
      get identity() {
        return transport.localIdentity;
      },
      isLocal: true,
      setMicrophoneEnabled: async (enabled) => {
        room.voiceCalls.push(`mic ${enabled ? 'on' : 'off'}`);
        if (enabled && room.micFailure !== undefined) throw room.micFailure;
        room.#micEnabled = enabled;
        return undefined;
      },
      getTrackPublication: (source) =>
        source === 'microphone' && room.#micEnabled ? micPublication : undefined,
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
        const text = errorMessage(err);
        throw RpcError.builtIn('APPLICATION_ERROR', `Uncaught error: ${text}`);
      }
    });
  }

  unregisterRpcMethod(method: string): void {
    this.handlers.delete(method);
    this.transport.unregisterMethod(method);
  }

  override on(
    event: 'participantDisconnected',
    listener: (participant: { identity: string }) => void,
  ): this;
  override on(event: 'disconnected', listener: (reason?: unknown) => void): this;
  override on(event: string, listener: RoomListener): this;
  override on(event: string, listener: RoomListener): this {
    return super.on(event, listener);
  }

  override off(
    event: 'participantDisconnected',
    listener: (participant: { identity: string }) => void,
  ): this;
  override off(event: 'disconnected', listener: (reason?: unknown) => void): this;
  override off(event: string, listener: RoomListener): this;
  override off(event: string, listener: RoomListener): this {
    return super.off(event, listener);
  }

  /** Listeners attached to `event`. */
  listenerCount(event: string): number {
    return this.listeners.get(event)?.size ?? 0;
  }

  /** `Room.connect`: the state goes to connected (with its `connectionStateChanged` events). */
  async connect(url: string, token: string): Promise<void> {
    this.voiceCalls.push(`connect ${url} ${token}`);
    this.#setState('connecting');
    this.#setState('connected');
  }

  /** `Room.disconnect`. */
  async disconnect(): Promise<void> {
    this.voiceCalls.push('disconnect');
    this.#micEnabled = false;
    this.#setState('disconnected');
    this.emit('disconnected');
  }

  #setState(state: string): void {
    this.state = state;
    this.emit('connectionStateChanged', state);
  }

  /** Stop relaying the loopback participant's disconnect events. */
  dispose(): void {
    this.unsubscribe();
  }
}
