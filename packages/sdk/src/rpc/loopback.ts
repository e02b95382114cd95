/**
 * An in-memory network of participants with LiveKit RPC semantics, for tests and
 * local use (no server):
 *
 * - the callee acknowledges every request on receipt (before running the handler);
 *   no ack within 7,000 ms rejects with `CONNECTION_TIMEOUT` (1501);
 * - no response within `responseTimeoutMs` rejects with `RESPONSE_TIMEOUT` (1502);
 *   a JS caller runs that timer in parallel with the ack timer, a Rust caller
 *   (rtc-node, Python agents) starts it once the ack arrives;
 * - the handler sees the timeout as the caller's runtime reports it: JS
 *   `max(t, 8000)`, Rust `max(t - 7000, 1000)`;
 * - unknown method: `UNSUPPORTED_METHOD` (1400); payloads over `maxPayloadBytes`
 *   (UTF-8): `REQUEST_PAYLOAD_TOO_LARGE` (1402) / `RESPONSE_PAYLOAD_TOO_LARGE` (1504);
 * - a peer that leaves rejects calls pending to it with `RECIPIENT_DISCONNECTED` (1503);
 * - a handler throwing anything but an `RpcError` answers `APPLICATION_ERROR` (1500);
 * - registering a method twice throws; late responses are dropped (and logged).
 *
 * Each message takes the configured one-way latency (0: the microtask queue).
 */
import { abortError, abortReason, onAbort } from './abort.js';
import { RpcError } from './errors.js';
import { DisconnectListeners } from './disconnect-listeners.js';
import type { Logger } from './logger.js';
import { silentLogger } from './logger.js';
import { defaultTimers } from './timers.js';
import type { TimerHandle, Timers } from './timers.js';
import type {
  PerformRpcParams,
  RpcDisconnectListener,
  RpcMethodHandler,
  RpcTransport,
} from './transport.js';
import { byteLength } from './utf8.js';

/** LiveKit's v1 payload limit, in UTF-8 bytes. */
export const MAX_V1_PAYLOAD_BYTES = 15360;
/** How long a LiveKit caller waits for the ack. */
export const RPC_ACK_TIMEOUT_MS = 7000;

/** Whose timer semantics a caller follows (see the module comment). */
export type RpcCallerRuntime = 'js' | 'rust';

/** One-way latency in ms, fixed or per direction. */
export type LoopbackLatency = number | ((from: string, to: string) => number);

/** Options of a {@link LoopbackNetwork}. */
export interface LoopbackNetworkOptions {
  /** One-way latency of every message. @default 0 */
  latencyMs?: LoopbackLatency;
  /** Request and response payload limit. @default 15360 (LiveKit v1) */
  maxPayloadBytes?: number;
  /** Default caller runtime of participants. @default 'js' */
  callerRuntime?: RpcCallerRuntime;
  /** Ack window. @default 7000 */
  ackTimeoutMs?: number;
  timers?: Timers;
  /** Receives "response for unknown request" and similar notices. */
  logger?: Logger;
}

/** Options of one participant. */
export interface LoopbackJoinOptions {
  callerRuntime?: RpcCallerRuntime;
}

interface PendingCall {
  destination: string;
  method: string;
  responseTimeoutMs: number;
  resolve: (payload: string) => void;
  reject: (error: unknown) => void;
  ackTimer: TimerHandle | undefined;
  responseTimer: TimerHandle | undefined;
  detachAbort: () => void;
}

interface RunningHandler {
  callerIdentity: string;
  controller: AbortController;
}

/** What crosses the wire back to the caller. */
type WireOutcome = { payload: string } | { error: RpcError };
/** How a pending call ends locally (aborts reject with the signal's reason). */
type Outcome = { payload: string } | { error: unknown };

/** The handler-visible timeout a caller of `runtime` sends for a `timeoutMs` call. */
export function handlerVisibleTimeout(runtime: RpcCallerRuntime, timeoutMs: number): number {
  return runtime === 'js'
    ? Math.max(timeoutMs, RPC_ACK_TIMEOUT_MS + 1000)
    : Math.max(timeoutMs - RPC_ACK_TIMEOUT_MS, 1000);
}

/** A set of participants that can call each other's methods. */
export class LoopbackNetwork {
  readonly maxPayloadBytes: number;
  readonly ackTimeoutMs: number;
  readonly callerRuntime: RpcCallerRuntime;
  /** @internal */
  readonly timers: Timers;
  /** @internal */
  readonly logger: Logger;
  private latency: LoopbackLatency;
  private readonly participants = new Map<string, LoopbackTransport>();
  private readonly deliveries = new Set<TimerHandle>();

  constructor(options: LoopbackNetworkOptions = {}) {
    this.latency = options.latencyMs ?? 0;
    this.maxPayloadBytes = options.maxPayloadBytes ?? MAX_V1_PAYLOAD_BYTES;
    this.callerRuntime = options.callerRuntime ?? 'js';
    this.ackTimeoutMs = options.ackTimeoutMs ?? RPC_ACK_TIMEOUT_MS;
    this.timers = options.timers ?? defaultTimers;
    this.logger = options.logger ?? silentLogger;
  }

  /** Add a participant. Throws if the identity is connected already. */
  join(identity: string, options: LoopbackJoinOptions = {}): LoopbackTransport {
    const transport = new LoopbackTransport(
      this,
      identity,
      options.callerRuntime ?? this.callerRuntime,
    );
    transport.reconnect();
    return transport;
  }

  /** The connected participant with this identity. */
  get(identity: string): LoopbackTransport | undefined {
    return this.participants.get(identity);
  }

  /** Identities of the connected participants. */
  get identities(): string[] {
    return [...this.participants.keys()];
  }

  /** Change the simulated latency; messages already in flight keep theirs. */
  setLatency(latencyMs: LoopbackLatency): void {
    this.latency = latencyMs;
  }

  /** Timers held right now by the network and its participants (0 when idle). */
  get activeTimerCount(): number {
    let count = this.deliveries.size;
    for (const participant of this.participants.values()) count += participant.timerCount;
    return count;
  }

  /** Disconnect everyone and cancel messages in flight. */
  dispose(): void {
    for (const participant of [...this.participants.values()]) participant.disconnect('disposed');
    for (const handle of this.deliveries) this.timers.clearTimeout(handle);
    this.deliveries.clear();
  }

  /** @internal */
  attach(transport: LoopbackTransport): void {
    const current = this.participants.get(transport.localIdentity);
    if (current && current !== transport) {
      throw new Error(`identity ${transport.localIdentity} is already connected`);
    }
    this.participants.set(transport.localIdentity, transport);
  }

  /** @internal */
  detach(transport: LoopbackTransport): void {
    if (this.participants.get(transport.localIdentity) !== transport) return;
    this.participants.delete(transport.localIdentity);
    for (const other of [...this.participants.values()]) other.peerLeft(transport.localIdentity);
  }

  /** @internal Deliver `fn` to `to` after the latency; dropped if `to` is gone or unresponsive. */
  send(from: string, to: string, fn: (target: LoopbackTransport) => void): void {
    const latency = typeof this.latency === 'function' ? this.latency(from, to) : this.latency;
    const deliver = (): void => {
      const target = this.participants.get(to);
      if (target && target.responsive) fn(target);
    };
    if (latency <= 0) {
      queueMicrotask(deliver);
      return;
    }
    const handle = this.timers.setTimeout(() => {
      this.deliveries.delete(handle);
      deliver();
    }, latency);
    this.deliveries.add(handle);
  }
}

/** One participant of a {@link LoopbackNetwork}; an {@link RpcTransport}. */
export class LoopbackTransport implements RpcTransport {
  readonly localIdentity: string;
  readonly callerRuntime: RpcCallerRuntime;
  /** @internal */
  responsive = true;
  private readonly network: LoopbackNetwork;
  private readonly handlers = new Map<string, RpcMethodHandler>();
  private readonly pending = new Map<string, PendingCall>();
  private readonly running = new Map<string, RunningHandler>();
  private readonly listeners = new DisconnectListeners(() => this.network.logger);
  private isConnected = false;
  private sequence = 0;

  /** @internal Use {@link LoopbackNetwork.join}. */
  constructor(network: LoopbackNetwork, identity: string, callerRuntime: RpcCallerRuntime) {
    this.network = network;
    this.localIdentity = identity;
    this.callerRuntime = callerRuntime;
  }

  get maxPayloadBytes(): number {
    return this.network.maxPayloadBytes;
  }

  /** Whether this participant is on the network. */
  get connected(): boolean {
    return this.isConnected;
  }

  /** Methods with a registered handler. */
  get registeredMethods(): string[] {
    return [...this.handlers.keys()];
  }

  /** Outbound calls waiting for an answer. */
  get pendingCallCount(): number {
    return this.pending.size;
  }

  /** Inbound calls whose handler is running. */
  get runningHandlerCount(): number {
    return this.running.size;
  }

  /** Subscribers of {@link onDisconnect}. */
  get disconnectListenerCount(): number {
    return this.listeners.size;
  }

  /** @internal Ack and response timers held by this participant. */
  get timerCount(): number {
    let count = 0;
    for (const call of this.pending.values()) {
      if (call.ackTimer !== undefined) count++;
      if (call.responseTimer !== undefined) count++;
    }
    return count;
  }

  registerMethod(method: string, handler: RpcMethodHandler): void {
    if (this.handlers.has(method)) {
      throw new Error(
        `RPC handler already registered for method ${method}, unregisterMethod before trying to register again`,
      );
    }
    this.handlers.set(method, handler);
  }

  unregisterMethod(method: string): void {
    this.handlers.delete(method);
  }

  onDisconnect(listener: RpcDisconnectListener): () => void {
    return this.listeners.add(listener);
  }

  /**
   * Simulate a frozen peer: while unresponsive, everything sent to this
   * participant is lost (no ack, no response), so callers see 1501.
   */
  setResponsive(responsive: boolean): void {
    this.responsive = responsive;
  }

  /** Leave the network: pending calls to this participant reject with 1503. */
  disconnect(reason?: string): void {
    if (!this.isConnected) return;
    this.isConnected = false;
    this.network.detach(this);
    for (const id of [...this.pending.keys()]) {
      this.settle(id, {
        error: RpcError.builtIn('RECIPIENT_DISCONNECTED', 'local participant disconnected'),
      });
    }
    for (const run of this.running.values()) run.controller.abort(abortError('disconnected'));
    this.listeners.emit(reason === undefined ? { kind: 'local' } : { kind: 'local', reason });
  }

  /** Join the network again under the same identity, keeping the registered handlers. */
  reconnect(): void {
    if (this.isConnected) return;
    this.network.attach(this);
    this.isConnected = true;
  }

  performRpc(params: PerformRpcParams): Promise<string> {
    const { destinationIdentity, method, payload, responseTimeoutMs, signal } = params;
    return new Promise<string>((resolve, reject) => {
      if (signal?.aborted) return reject(abortReason(signal));
      if (!this.isConnected) {
        return reject(RpcError.builtIn('SEND_FAILED', 'local participant is not connected'));
      }
      if (byteLength(payload) > this.maxPayloadBytes) {
        return reject(RpcError.builtIn('REQUEST_PAYLOAD_TOO_LARGE'));
      }
      const id = `${this.localIdentity}#${++this.sequence}`;
      const { timers, ackTimeoutMs } = this.network;
      const call: PendingCall = {
        destination: destinationIdentity,
        method,
        responseTimeoutMs,
        resolve,
        reject,
        ackTimer: undefined,
        responseTimer: undefined,
        detachAbort: noop,
      };
      this.pending.set(id, call);
      call.ackTimer = timers.setTimeout(() => {
        call.ackTimer = undefined;
        this.settle(id, { error: RpcError.builtIn('CONNECTION_TIMEOUT') });
      }, ackTimeoutMs);
      if (this.callerRuntime === 'js') this.startResponseTimer(id, call);
      call.detachAbort = onAbort(signal, () => {
        if (signal) this.settle(id, { error: abortReason(signal) });
      });
      const caller = this.localIdentity;
      const visibleTimeout = handlerVisibleTimeout(this.callerRuntime, responseTimeoutMs);
      this.network.send(caller, destinationIdentity, (target) => {
        void target.receiveRequest(caller, id, method, payload, visibleTimeout);
      });
    });
  }

  /** @internal A peer left: fail calls to it, abort handlers it called. */
  peerLeft(identity: string): void {
    for (const [id, call] of [...this.pending]) {
      if (call.destination === identity) {
        this.settle(id, { error: RpcError.builtIn('RECIPIENT_DISCONNECTED') });
      }
    }
    for (const run of this.running.values()) {
      if (run.callerIdentity === identity) run.controller.abort(abortError('caller disconnected'));
    }
    this.listeners.emit({ kind: 'peer', identity });
  }

  /** @internal */
  receiveAck(id: string): void {
    const call = this.pending.get(id);
    if (!call || call.ackTimer === undefined) return;
    this.network.timers.clearTimeout(call.ackTimer);
    call.ackTimer = undefined;
    if (this.callerRuntime === 'rust') this.startResponseTimer(id, call);
  }

  /** @internal */
  receiveResponse(id: string, outcome: WireOutcome): void {
    if (!this.pending.has(id)) {
      this.network.logger.warn(
        {
          requestId: id,
          identity: this.localIdentity,
        },
        'Response received for unexpected RPC request',
      );
      return;
    }
    this.settle(id, outcome);
  }

  /** @internal */
  async receiveRequest(
    callerIdentity: string,
    id: string,
    method: string,
    payload: string,
    responseTimeoutMs: number,
  ): Promise<void> {
    const me = this.localIdentity;
    this.network.send(me, callerIdentity, (caller) => caller.receiveAck(id));
    const respond = (outcome: WireOutcome): void => {
      if (!this.isConnected) return;
      this.network.send(me, callerIdentity, (caller) => caller.receiveResponse(id, outcome));
    };
    const handler = this.handlers.get(method);
    if (!handler) return respond({ error: RpcError.builtIn('UNSUPPORTED_METHOD') });
    const controller = new AbortController();
    const key = `${callerIdentity}\u0000${id}`;
    this.running.set(key, { callerIdentity, controller });
    let outcome: WireOutcome;
    try {
      const result = await handler({
        requestId: id,
        callerIdentity,
        payload,
        responseTimeoutMs,
        signal: controller.signal,
      });
      const text = typeof result === 'string' ? result : String(result ?? '');
      outcome =
        byteLength(text) > this.maxPayloadBytes
          ? { error: RpcError.builtIn('RESPONSE_PAYLOAD_TOO_LARGE') }
          : { payload: text };
    } catch (err) {
      if (!RpcError.isInstance(err)) {
        this.network.logger.warn(
          {
            method,
            requestId: id,
            error: err,
          },
          'Uncaught error returned by RPC handler',
        );
      }
      outcome = { error: RpcError.from(err) };
    } finally {
      this.running.delete(key);
    }
    // The error crosses the wire: the caller gets a fresh error, not our object.
    respond('error' in outcome ? { error: RpcError.fromWire(outcome.error.toWire()) } : outcome);
  }

  private startResponseTimer(id: string, call: PendingCall): void {
    call.responseTimer = this.network.timers.setTimeout(() => {
      call.responseTimer = undefined;
      this.settle(id, { error: RpcError.builtIn('RESPONSE_TIMEOUT') });
    }, call.responseTimeoutMs);
  }

  private settle(id: string, outcome: Outcome): void {
    const call = this.pending.get(id);
    if (!call) return;
    this.pending.delete(id);
    const { timers } = this.network;
    if (call.ackTimer !== undefined) timers.clearTimeout(call.ackTimer);
    if (call.responseTimer !== undefined) timers.clearTimeout(call.responseTimer);
    call.ackTimer = undefined;
    call.responseTimer = undefined;
    call.detachAbort();
    if ('error' in outcome) call.reject(outcome.error);
    else call.resolve(outcome.payload);
  }
}

function noop(): void {}

/** Options of {@link createLoopbackPair}. */
export interface LoopbackPairOptions extends LoopbackNetworkOptions {
  /** @default 'agent' */
  agentIdentity?: string;
  /** @default 'user' */
  userIdentity?: string;
  /** Runtime of the agent side (its calls' timer semantics). @default options.callerRuntime */
  agentRuntime?: RpcCallerRuntime;
}

/** A network with two participants: the agent and the user (browser). */
export interface LoopbackPair {
  network: LoopbackNetwork;
  agent: LoopbackTransport;
  user: LoopbackTransport;
}

/** Create a network with an agent and a user participant. */
export function createLoopbackPair(options: LoopbackPairOptions = {}): LoopbackPair {
  const network = new LoopbackNetwork(options);
  const agentOptions: LoopbackJoinOptions = {};
  if (options.agentRuntime) agentOptions.callerRuntime = options.agentRuntime;
  const agent = network.join(options.agentIdentity ?? 'agent', agentOptions);
  const user = network.join(options.userIdentity ?? 'user');
  return { network, agent, user };
}
