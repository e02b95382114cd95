/**
 * The bot server: Pipecat's RTVI protocol, one isolated {@link BotSession} per client and many
 * connections per process, with `POST /connect`, `GET /healthz`, `GET /readyz` and
 * `GET /metrics` beside it. Clients reach it through a {@link Transport} (protobuf frames over
 * WebSocket by default); a session can outlive its connection (see {@link SessionDirectory}).
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RTVIMessage, ServerDrainingMessage } from '@scenaro/sdk/protocol';
import { ClientMessageRouter } from '../control/router.js';
import type { ClientMessageHandler } from '../control/handlers.js';
import { DbCache } from '../scenario/db-loader.js';
import { registerControlTools } from '../scenario/control-tools.js';
import { DomainRegistry } from '../scenario/registry.js';
import { checkAuthSettings } from './auth.js';
import { takeFrame } from './frame-intake.js';
import type { FrameIntake } from './frame-intake.js';
import { answerHttp, listenOn } from './http-front.js';
import { createLogger } from './logger.js';
import type { Logger } from './logger.js';
import { ServerMetrics } from './metrics.js';
import { TurnTracer } from './turn-tracing.js';
import { BotSession } from './session.js';
import type { BotSessionOptions } from './session.js';
import { prepareVoice } from './voice-prepare.js';
import type { SessionConnection } from './session-connection.js';
import { SessionDirectory } from './session-directory.js';
import { closeAllWithin, settleWithin } from './shutdown.js';
import type { BotServerOptions } from './bot-server-options.js';
import type { Transport, TransportConnection } from './transport.js';
import { WebSocketServerTransport } from './transports/websocket.js';
import { DEFAULT_SESSION_LIMITS, checkSessionLimits } from './session-limits.js';
import { VoiceSlots } from './voice-slots.js';
import type { SessionLimits } from './session-limits.js';

export { DEFAULT_MAX_MESSAGE_BYTES } from './bot-server-options.js';
export type { BotServerOptions } from './bot-server-options.js';

const VERSION = '0.1.0';

/** A running (or startable) bot server. */
export class BotServer {
  readonly registry: DomainRegistry;
  readonly router: ClientMessageRouter;
  readonly log: Logger;
  /** Prometheus metrics (`GET /metrics`). */
  readonly metrics: ServerMetrics;
  readonly #tracer = new TurnTracer();
  readonly #options: Required<
    Pick<
      BotServerOptions,
      | 'host'
      | 'port'
      | 'slowReaderCloseGraceMs'
      | 'singleClient'
      | 'systemPromptSuffix'
      | 'enableToolCalling'
      | 'contextIdleWaitMs'
      | 'shutdownGraceMs'
      | 'dataRoot'
    >
  > &
    BotServerOptions;
  readonly #dbCache: DbCache;
  readonly #http: Server;
  readonly #metricsHttp: Server | undefined;
  readonly #transport: Transport;
  readonly #sessions = new Map<TransportConnection, BotSession>();
  readonly #maxConnections: number;
  readonly #maxPendingHandshakes: number;
  readonly #limits: SessionLimits;
  readonly #directory: SessionDirectory;
  /** What bounds each session's voice (listening slots, audio queue), when there is one. */
  readonly #voiceBounds: BotSessionOptions['voiceBounds'];
  #closing = false;

  constructor(options: BotServerOptions = {}) {
    this.#options = {
      ...options,
      host: options.host ?? '127.0.0.1',
      port: options.port ?? 8765,
      slowReaderCloseGraceMs: options.slowReaderCloseGraceMs ?? 5000,
      singleClient: options.singleClient ?? false,
      systemPromptSuffix: options.systemPromptSuffix ?? '',
      enableToolCalling: options.enableToolCalling ?? true,
      contextIdleWaitMs: options.contextIdleWaitMs ?? 3000,
      shutdownGraceMs: options.shutdownGraceMs ?? 5000,
      dataRoot: options.dataRoot ?? process.env['EVAL_DATA_ROOT'] ?? './data',
    };
    checkAuthSettings({
      host: this.#options.host,
      token: options.token,
      allowUnauthenticated: options.allowUnauthenticated,
      allowedOrigins: options.allowedOrigins,
    });
    const grace = this.#options.slowReaderCloseGraceMs;
    if (typeof grace !== 'number' || !(grace >= 0)) {
      throw new RangeError(
        `slowReaderCloseGraceMs must be a number of milliseconds >= 0 (or Infinity), got ${String(grace)}`,
      );
    }
    this.#limits = checkSessionLimits({
      maxContextBytes: options.maxContextBytes ?? DEFAULT_SESSION_LIMITS.maxContextBytes,
      maxQueuedTurns: options.maxQueuedTurns ?? DEFAULT_SESSION_LIMITS.maxQueuedTurns,
      maxPendingRequests: options.maxPendingRequests ?? DEFAULT_SESSION_LIMITS.maxPendingRequests,
    });
    this.registry = registerControlTools(options.registry ?? new DomainRegistry());
    this.router = ClientMessageRouter.forProfile(options.profile ?? 'eval');
    this.log = options.logger ?? createLogger();
    this.#directory = new SessionDirectory({
      singleClient: this.#options.singleClient,
      graceMs: options.resumeGraceMs ?? 30_000,
      log: this.log,
      end: (session) => this.#end(session),
    });
    this.#dbCache = options.dbCache ?? new DbCache();
    const voiceSlots = options.voice ? new VoiceSlots(options.maxVoiceSessions) : undefined;
    this.metrics = new ServerMetrics({
      connectedSessions: () => this.#sessions.size,
      waitingSessions: () => this.#directory.detachedCount,
      draining: () => this.#closing,
      ...(voiceSlots
        ? { voiceSessions: () => ({ used: voiceSlots.used, max: voiceSlots.max }) }
        : {}),
    });
    this.#voiceBounds = {
      ...(voiceSlots ? { slots: voiceSlots } : {}),
      ...(options.audioBacklog ? { backlog: options.audioBacklog } : {}),
      count: (event, amount) => this.metrics.voice(event, amount),
    };
    const upgradeTimeoutMs = options.upgradeTimeoutMs ?? 10_000;
    this.#http = createServer(
      {
        // A request (a WebSocket upgrade included) left half-sent is dropped after this.
        headersTimeout: upgradeTimeoutMs,
        requestTimeout: upgradeTimeoutMs,
        connectionsCheckingInterval: Math.max(10, Math.min(1000, upgradeTimeoutMs / 4)),
      },
      (req, res) => this.#onHttp(req, res, options.metricsPort === undefined),
    );
    this.#metricsHttp =
      options.metricsPort === undefined
        ? undefined
        : createServer((req, res) => this.#onHttp(req, res, true, false));
    this.#transport =
      options.transport ??
      new WebSocketServerTransport({
        maxMessageBytes: options.maxMessageBytes,
        maxOutgoingBytes: options.maxOutgoingBytes,
        maxBufferedBytes: options.maxBufferedBytes,
        slowReaderCloseGraceMs: this.#options.slowReaderCloseGraceMs,
        handshakeTimeoutMs: options.handshakeTimeoutMs,
        pingIntervalMs: options.pingIntervalMs,
        frameTimeoutMs: options.frameTimeoutMs,
      });
    this.#maxConnections = options.maxConnections ?? 2048;
    this.#maxPendingHandshakes = options.maxPendingHandshakes ?? 1024;
    this.#transport.start({
      http: this.#http,
      log: this.log,
      metrics: this.metrics,
      admission: () => ({
        closing: this.#closing,
        connections: this.#sessions.size,
        maxConnections: this.#maxConnections,
        maxPendingHandshakes: this.#maxPendingHandshakes,
        allowedOrigins: this.#options.allowedOrigins,
        token: this.#options.token,
      }),
      accept: (connection) => this.#onConnection(connection),
    });
  }

  /** Register another `client-message` handler (besides the profile's control messages). */
  registerClientMessage(t: string, handler: ClientMessageHandler): this {
    this.router.register(t, handler);
    return this;
  }

  /** Start listening. Resolves once connections are accepted. */
  async listen(): Promise<this> {
    await listenOn(this.#http, this.#options.port, this.#options.host);
    if (this.#metricsHttp) {
      await listenOn(this.#metricsHttp, this.#options.metricsPort ?? 0, this.#options.host).catch(
        (err: unknown) => {
          this.#http.close();
          throw err;
        },
      );
    }
    this.log.info({ url: this.url, metricsUrl: this.metricsUrl }, 'listening');
    if (this.#options.voice) await prepareVoice(this.#options.voice, this.log);
    return this;
  }

  /** The bound address. */
  get address(): AddressInfo {
    const address = this.#http.address();
    if (address === null || typeof address === 'string') throw new Error('server is not listening');
    return address;
  }

  /** `ws://host:port` of the listening server. */
  get url(): string {
    const { address, port, family } = this.address;
    const host = family === 'IPv6' ? `[${address}]` : address;
    return `ws://${host}:${port}`;
  }

  /** Where `GET /metrics` is served (the separate metrics port, or the server's own). */
  get metricsUrl(): string {
    const address = this.#metricsHttp?.address();
    const port = address && typeof address === 'object' ? address.port : this.address.port;
    return `${this.url.replace(/^ws:/, 'http:').replace(/:\d+$/, '')}:${port}/metrics`;
  }

  /** False once the server has begun to shut down (`GET /readyz` answers 503). */
  get ready(): boolean {
    return !this.#closing;
  }

  /** The sessions with a connection. */
  get sessions(): BotSession[] {
    return [...this.#sessions.values()];
  }

  /** Number of sessions with a connection. */
  get sessionCount(): number {
    return this.#sessions.size;
  }

  /** Number of sessions waiting for their client to come back (no connection). */
  get detachedSessionCount(): number {
    return this.#directory.detachedCount;
  }

  /**
   * Graceful shutdown: readiness turns false and the server's port stops listening (the metrics
   * port, if any, answers `/readyz` with 503 until the end), every connected client is told
   * (`server-message {type: "server-draining", grace_ms}`), sessions waiting for a client end,
   * in-flight replies and turns finish (up to the grace period), then every connection is closed
   * with 1001.
   */
  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    const graceMs = this.#options.shutdownGraceMs;
    const notice: ServerDrainingMessage = { type: 'server-draining', grace_ms: graceMs };
    for (const session of this.#sessions.values()) if (session.ready) session.push(notice);
    this.log.info({ sessions: this.#sessions.size, graceMs }, 'draining');
    for (const session of this.#directory.drainWaiting()) this.#end(session);
    const stopped = new Promise<void>((resolve) => this.#http.close(() => resolve()));
    this.#transport.drain();
    // The metrics port, when there is one, stays open meanwhile: probes see readiness false.
    await settleWithin(
      [...this.#sessions.values()].map((s) => s.drain()),
      graceMs,
    );
    await closeAllWithin(() => this.#sessions.keys(), 1000);
    this.#http.closeAllConnections();
    this.#metricsHttp?.close();
    this.#metricsHttp?.closeAllConnections();
    this.#transport.close();
    // Bounded too: whatever is left open (a half-sent upgrade, say) does not keep close() waiting.
    await settleWithin([stopped], 1000);
    this.log.info({}, 'closed');
  }

  #onHttp(req: IncomingMessage, res: ServerResponse, metrics: boolean, connect = true): void {
    const wsUrl = () => {
      const host = this.#options.publicHost ?? this.address.address;
      return `ws://${host.includes(':') ? `[${host}]` : host}:${this.address.port}`;
    };
    answerHttp(req, res, {
      closing: this.#closing,
      sessions: this.#sessions.size,
      token: this.#options.token,
      log: this.log,
      ...(metrics ? { metrics: this.metrics } : {}),
      ...(connect ? { wsUrl } : {}),
    });
  }

  #onConnection(connection: TransportConnection): void {
    const { info } = connection;
    const claimed = this.#directory.claim(info);
    if (claimed) {
      this.#takeOver(claimed);
      claimed.attach(this.#connectionFor(connection, true));
      this.#bind(connection, claimed);
      this.metrics.connectionAccepted(true);
      claimed.log.info(
        { remote: info.remoteAddress, requestId: info.requestId, sessions: this.#sessions.size },
        'session continues on a new connection',
      );
      return;
    }
    const maxSessions = this.#options.maxSessions ?? Infinity;
    this.#directory.makeRoom(
      (waiting) => this.#sessions.size + waiting,
      Math.min(maxSessions, this.#maxConnections),
    );
    if (this.#sessions.size >= maxSessions) {
      this.metrics.error('session_limit');
      connection.close(1013, 'Server is at its session limit; try again later');
      return;
    }
    const id = randomUUID().slice(0, 8);
    const log = this.log.child({ session: id });
    const session = new BotSession({
      id,
      registry: this.registry,
      router: this.router,
      dbSource: {
        dataRoot: this.#options.dataRoot,
        cache: this.#dbCache,
        ...(this.#options.extraDataRoots ? { extraRoots: this.#options.extraDataRoots } : {}),
      },
      ...(this.#options.conversation ? { conversation: this.#options.conversation } : {}),
      log,
      about: { library: '@scenaro/agent', library_version: VERSION },
      systemPromptSuffix: this.#options.systemPromptSuffix,
      enableToolCalling: this.#options.enableToolCalling,
      contextIdleWaitMs: this.#options.contextIdleWaitMs,
      ...(this.#options.voice
        ? { voice: this.#options.voice, voiceBounds: this.#voiceBounds }
        : {}),
      limits: this.#limits,
      ...this.#connectionFor(connection, false),
    });
    try {
      this.#options.onSession?.(session);
    } catch (err) {
      log.error({ err }, 'onSession failed; closing the connection');
      this.metrics.error('session_setup');
      session.dispose();
      connection.close(1011, 'session setup failed');
      return;
    }
    this.#directory.opened(session);
    this.#bind(connection, session);
    this.metrics.connectionAccepted(false);
    log.info(
      { remote: info.remoteAddress, requestId: info.requestId, sessions: this.#sessions.size },
      'session opened',
    );
  }

  /**
   * How a session talks through `connection` (`resumed`: it continues an earlier connection's
   * session). The bot's audio goes to the transport as it is: encoded once, written once.
   */
  #connectionFor(connection: TransportConnection, resumed: boolean): SessionConnection {
    return {
      send: (message) => this.#send(connection, message),
      close: (code, reason) => {
        // The session asked to end (disconnect-bot): it does not wait for its client.
        const session = this.#sessions.get(connection);
        if (session) this.#directory.endOnClose(session);
        connection.close(code, reason);
      },
      whenWritable: () => connection.whenWritable(),
      pauseInput: (paused) => connection.pauseInput(paused),
      readySession: () => {
        const session = this.#sessions.get(connection);
        return session && this.#directory.readySession(session, resumed);
      },
      ...(this.#options.voice ? { sendAudio: connection.sendAudio } : {}),
    };
  }

  /** `session` is `connection`'s until it closes or another connection takes the session over. */
  #bind(connection: TransportConnection, session: BotSession): void {
    const log = session.log;
    this.#sessions.set(connection, session);
    const owns = () => this.#sessions.get(connection) === session;
    const intake: FrameIntake = {
      session,
      reply: (message) => this.#send(connection, message),
      metrics: this.metrics,
      received: (message) => this.#tracer.received(session, message),
      requestLabel: (t) => (this.router.get(t) ? t : 'unknown'),
    };
    connection.bind({
      log,
      ready: () => session.ready,
      frame: (frame) => {
        if (owns()) takeFrame(frame, intake);
      },
      stalled: () => {
        // A client that stopped reading is not waited for.
        if (owns()) this.#directory.endOnClose(session);
      },
      closed: (code) => {
        if (!owns()) return; // taken over: the session went on
        this.#sessions.delete(connection);
        session.detach();
        if (!this.#closing && this.#directory.keep(session)) {
          log.info({ code, sessions: this.#sessions.size }, 'connection closed; session waits');
          return;
        }
        this.#end(session);
        log.info({ code, sessions: this.#sessions.size }, 'session closed');
      },
      error: (err) => {
        this.metrics.error('socket');
        log.warn({ err }, 'socket error');
      },
    });
  }

  /** Detach `session` from the connection it has, if any, and close that connection. */
  #takeOver(session: BotSession): void {
    for (const [connection, owner] of this.#sessions) {
      if (owner !== session) continue;
      this.#sessions.delete(connection);
      session.detach();
      session.log.info({}, 'a new connection takes the session over');
      connection.close(1000, 'Session taken over by a new connection', 1000);
    }
  }

  #end(session: BotSession): void {
    this.#directory.forget(session);
    this.#tracer.forget(session);
    session.dispose();
  }

  #send(connection: TransportConnection, message: RTVIMessage): boolean {
    if (!connection.send(message)) return false;
    const session = this.#sessions.get(connection);
    this.metrics.messageSent(session, message);
    this.#tracer.sent(session, message);
    return true;
  }
}

/** Create and start a bot server. */
export async function startBotServer(options: BotServerOptions = {}): Promise<BotServer> {
  return new BotServer(options).listen();
}
