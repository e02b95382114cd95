/**
 * `ScenaroSession`: registers one RPC method per frontend tool on a transport,
 * runs the handlers, and always answers the agent with an `RpcToolResponse`.
 *
 * The session never owns the transport. Construction has no side effects;
 * `start()` registers and `stop()` unregisters, both re-entrant, so a React
 * StrictMode double mount is harmless. Registrations live on the transport and
 * survive its reconnects.
 */
import {
  RESERVED_RPC_METHOD_NAMES,
  RPC_METHODS,
  SCENARO_RPC_METHODS,
  parseCancelToolCallRequest,
  resolveRpcMethodName,
} from '../protocol/index.js';
import type { CancelToolCallResponse } from '../protocol/index.js';
import { abortError } from '../rpc/abort.js';
import { RpcError } from '../rpc/errors.js';
import { consoleLogger } from '../rpc/logger.js';
import type { Logger } from '../rpc/logger.js';
import { defaultClock, defaultTimers } from '../rpc/timers.js';
import type { Clock, Timers } from '../rpc/timers.js';
import type { RpcDisconnectEvent, RpcInvocation, RpcTransport } from '../rpc/transport.js';
import { UiActivityTracker } from './activity-tracker.js';
import type { UiActivityTrackerOptions } from './activity-tracker.js';
import { createArgsValidator } from './args-validator.js';
import type { ArgsValidator } from './args-validator.js';
import { CollectionStore } from './collections.js';
import { ComposerDictation } from './composer.js';
import { Emitter } from './emitter.js';
import { executeToolCall } from './tool-call.js';
import type { InflightCall, ToolCallEnvironment } from './tool-call.js';
import type {
  FeatureEvent,
  ScenaroConfig,
  ToolDefinition,
  ToolHandlers,
  ToolSettings,
} from './types.js';

/** Options of a {@link ScenaroSession}. */
export interface ScenaroSessionOptions {
  transport: RpcTransport;
  /** Tools and settings (the config payload). More can come later through `applyConfig`. */
  config?: ScenaroConfig;
  /** Handlers by tool name; replace them with `setHandlers`. */
  handlers?: ToolHandlers;
  /** A store to share, or initial values of a new one. */
  collections?: CollectionStore | Readonly<Record<string, unknown>>;
  /**
   * The agent the composer calls. Without it, the identity of the last agent that
   * called a tool is used.
   */
  agentIdentity?: string;
  /** Answer `TIMEOUT` this long before the deadline. @default 500 */
  timeoutMarginMs?: number;
  /**
   * Cap each tool's deadline by the handler-visible `responseTimeoutMs` the
   * transport reports. LiveKit Rust callers (Python agents, rtc-node) report
   * `max(t - 7000, 1000)`, less than they actually wait: set `false` for them.
   * @default true
   */
  capByTransportTimeout?: boolean;
  /** UI activity tracking; `false` leaves `scenaro__ui_activity_check` unregistered. */
  activity?: UiActivityTrackerOptions | UiActivityTracker | false;
  /** Refuse calls from other participants (`callerIdentity` checks). @default allow all */
  isAllowedCaller?: (callerIdentity: string, method: string) => boolean;
  logger?: Logger;
  timers?: Timers;
  clock?: Clock;
  /** Schema validation; the default is ajv. */
  validator?: ArgsValidator;
}

/** Lifecycle state: created, registered on the transport, or stopped (restartable). */
export type SessionState = 'idle' | 'active' | 'stopped';

/** Events of a session. */
export interface ScenaroSessionEvents {
  /** A tool call started or ended (for the tool's feature). */
  feature: FeatureEvent;
  state: SessionState;
}

/** Frontend tool session over an {@link RpcTransport}. */
export class ScenaroSession {
  readonly transport: RpcTransport;
  readonly collections: CollectionStore;
  /** Dictation calls to the agent. */
  readonly composer: ComposerDictation;
  /** The activity tracker, unless disabled. */
  readonly activity: UiActivityTracker | undefined;

  private readonly logger: Logger;
  private readonly timers: Timers;
  private readonly clock: Clock;
  private readonly emitter: Emitter<ScenaroSessionEvents>;
  private readonly tools = new Map<string, ToolDefinition>();
  private readonly registered = new Set<string>();
  private readonly inflight = new Map<string, InflightCall>();
  private readonly environment: ToolCallEnvironment;
  private readonly isAllowedCaller: (identity: string, method: string) => boolean;
  private readonly configuredAgentIdentity: string | undefined;
  private handlers: ToolHandlers;
  private settings: ToolSettings = {};
  private lastCaller: string | undefined;
  private currentState: SessionState = 'idle';
  private unsubscribeDisconnect: (() => void) | undefined;

  constructor(options: ScenaroSessionOptions) {
    this.transport = options.transport;
    this.logger = options.logger ?? consoleLogger;
    this.timers = options.timers ?? defaultTimers;
    this.clock = options.clock ?? defaultClock;
    this.handlers = options.handlers ?? {};
    this.configuredAgentIdentity = options.agentIdentity;
    this.isAllowedCaller = options.isAllowedCaller ?? (() => true);
    this.emitter = new Emitter((error) =>
      this.logger.error('session listener threw', { error: String(error) }),
    );
    this.collections =
      options.collections instanceof CollectionStore
        ? options.collections
        : new CollectionStore(options.collections ?? {});
    this.activity =
      options.activity === false
        ? undefined
        : options.activity instanceof UiActivityTracker
          ? options.activity
          : new UiActivityTracker({ clock: this.clock, ...(options.activity ?? {}) });
    this.composer = new ComposerDictation({
      transport: this.transport,
      agentIdentity: () => this.agentIdentity,
      timers: this.timers,
      clock: this.clock,
    });
    this.environment = {
      getHandler: (name) => this.handlers[name],
      getSettings: () => this.settings,
      collections: this.collections,
      validator: options.validator ?? createArgsValidator(),
      timers: this.timers,
      clock: this.clock,
      logger: this.logger,
      timeoutMarginMs: options.timeoutMarginMs ?? 500,
      capByTransportTimeout: options.capByTransportTimeout ?? true,
      maxPayloadBytes: () => this.transport.maxPayloadBytes,
      track: (requestId, call) => {
        if (this.inflight.has(requestId)) return false;
        this.inflight.set(requestId, call);
        return true;
      },
      untrack: (requestId) => {
        this.inflight.delete(requestId);
      },
      emit: (event) => this.emitter.emit('feature', event),
    };
    if (options.config) this.applyConfig(options.config);
  }

  /** `idle` until started, then `active`, `stopped` after `stop()`. */
  get state(): SessionState {
    return this.currentState;
  }

  /** The agent identity the composer calls. */
  get agentIdentity(): string | undefined {
    return this.configuredAgentIdentity ?? this.lastCaller;
  }

  /** Tools of the current config, keyed by RPC method. */
  get toolsByMethod(): ReadonlyMap<string, ToolDefinition> {
    return this.tools;
  }

  /** Current settings. */
  get currentSettings(): ToolSettings {
    return this.settings;
  }

  /** Methods this session has registered on the transport right now. */
  get registeredMethods(): string[] {
    return [...this.registered];
  }

  /** Tool calls running right now. */
  get inflightCount(): number {
    return this.inflight.size;
  }

  /** Register every method on the transport and start the activity tracker. Re-entrant. */
  start(): void {
    if (this.currentState === 'active') return;
    this.currentState = 'active';
    for (const method of this.tools.keys()) this.register(method);
    this.register(SCENARO_RPC_METHODS.CANCEL_TOOL_CALL.method);
    if (this.activity) {
      this.register(RPC_METHODS.UI_ACTIVITY_CHECK.method);
      this.activity.start();
    }
    this.unsubscribeDisconnect = this.transport.onDisconnect((event) => this.onDisconnect(event));
    this.emitter.emit('state', this.currentState);
  }

  /**
   * Unregister everything and cancel running calls (they answer `CANCELLED`).
   * Re-entrant; `start()` may be called again afterwards.
   */
  stop(reason = 'the session stopped'): void {
    if (this.currentState !== 'active') return;
    this.currentState = 'stopped';
    for (const method of this.registered) this.transport.unregisterMethod(method);
    this.registered.clear();
    this.unsubscribeDisconnect?.();
    this.unsubscribeDisconnect = undefined;
    this.activity?.stop();
    this.abortWhere(() => true, reason);
    this.emitter.emit('state', this.currentState);
  }

  /**
   * Apply a (new) config payload: methods are added, replaced (same method name:
   * the definition is swapped, the registration kept) or removed. Idempotent.
   * Tools whose method is reserved or already taken by an earlier tool are skipped.
   */
  applyConfig(config: ScenaroConfig): void {
    const next = new Map<string, ToolDefinition>();
    for (const tool of config.tools) {
      let method: string;
      try {
        method = resolveRpcMethodName(tool);
      } catch (err) {
        this.logger.warn('tool skipped: invalid name', { error: (err as Error).message });
        continue;
      }
      if (RESERVED_RPC_METHOD_NAMES.includes(method)) {
        this.logger.warn('tool skipped: reserved method name', { tool: tool.name, method });
        continue;
      }
      if (next.has(method)) {
        this.logger.warn('tool skipped: method already used by another tool', {
          tool: tool.name,
          method,
        });
        continue;
      }
      next.set(method, tool);
    }
    for (const method of [...this.tools.keys()]) {
      if (next.has(method)) continue;
      this.tools.delete(method);
      if (this.registered.delete(method)) this.transport.unregisterMethod(method);
    }
    for (const [method, tool] of next) {
      const known = this.tools.has(method);
      this.tools.set(method, tool);
      if (!known && this.currentState === 'active') this.register(method);
    }
    this.settings = config.settings ?? {};
  }

  /** Replace the handlers (looked up by tool name at call time; no re-registration). */
  setHandlers(handlers: ToolHandlers): void {
    this.handlers = handlers;
  }

  /** Cancel a running call from the UI; it answers `CANCELLED`. Returns whether one was running. */
  cancel(requestId: string, reason = 'cancelled by the user'): boolean {
    const call = this.inflight.get(requestId);
    if (!call) return false;
    call.controller.abort(abortError(reason));
    return true;
  }

  /** Subscribe to session events; returns the unsubscribe function. */
  on<K extends keyof ScenaroSessionEvents>(
    event: K,
    listener: (payload: ScenaroSessionEvents[K]) => void,
  ): () => void {
    return this.emitter.on(event, listener);
  }

  /** Subscribe to the events of one feature. */
  onFeature(feature: string, listener: (event: FeatureEvent) => void): () => void {
    return this.emitter.on('feature', (event) => {
      if (event.feature === feature) listener(event);
    });
  }

  /** Listeners attached to this session (for leak checks). */
  get listenerCount(): number {
    return this.emitter.listenerCount();
  }

  /**
   * Handle one inbound call as the transport delivers it (exposed for custom
   * transports and tests). Resolves with the JSON answer for tool methods.
   */
  handleInvocation(method: string, invocation: RpcInvocation): Promise<string> {
    if (!this.isAllowedCaller(invocation.callerIdentity, method)) {
      this.logger.warn('call refused: caller not allowed', {
        method,
        callerIdentity: invocation.callerIdentity,
      });
      return Promise.reject(
        RpcError.builtIn('APPLICATION_ERROR', `caller ${invocation.callerIdentity} is not allowed`),
      );
    }
    if (method === SCENARO_RPC_METHODS.CANCEL_TOOL_CALL.method) {
      return Promise.resolve(this.handleCancel(invocation));
    }
    if (method === RPC_METHODS.UI_ACTIVITY_CHECK.method && this.activity) {
      return Promise.resolve(JSON.stringify(this.activity.snapshot()));
    }
    const tool = this.tools.get(method);
    if (!tool) return Promise.reject(RpcError.builtIn('UNSUPPORTED_METHOD'));
    this.lastCaller = invocation.callerIdentity;
    return executeToolCall(this.environment, tool, method, invocation).catch((err: unknown) => {
      // executeToolCall never rejects; this is a last line of defence.
      this.logger.error('tool call failed unexpectedly', { method, error: String(err) });
      return JSON.stringify({ code: 'ERROR', data: { message: 'internal SDK error' } });
    });
  }

  private handleCancel(invocation: RpcInvocation): string {
    const parsed = parseCancelToolCallRequest(invocation.payload);
    if (!parsed.ok) throw RpcError.builtIn('APPLICATION_ERROR', parsed.message);
    const { requestId, reason } = parsed.value;
    const call = this.inflight.get(requestId);
    const cancelled = call !== undefined && call.callerIdentity === invocation.callerIdentity;
    if (call && cancelled) call.controller.abort(abortError(reason ?? 'cancelled by the agent'));
    const answer: CancelToolCallResponse = { requestId, cancelled };
    return JSON.stringify(answer);
  }

  private register(method: string): void {
    if (this.registered.has(method)) return;
    try {
      this.transport.registerMethod(method, (invocation) =>
        this.handleInvocation(method, invocation),
      );
      this.registered.add(method);
    } catch (err) {
      this.logger.error('could not register RPC method', {
        method,
        error: (err as Error).message,
      });
    }
  }

  private onDisconnect(event: RpcDisconnectEvent): void {
    if (event.kind === 'local') {
      this.abortWhere(() => true, 'the connection was lost');
    } else {
      this.abortWhere((call) => call.callerIdentity === event.identity, 'the agent disconnected');
    }
  }

  private abortWhere(predicate: (call: InflightCall) => boolean, reason: string): void {
    for (const call of [...this.inflight.values()]) {
      if (predicate(call)) call.controller.abort(abortError(reason));
    }
  }
}
