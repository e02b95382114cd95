/**
 * The bot server: a WebSocket server speaking Pipecat's RTVI protocol in binary
 * protobuf frames, one isolated {@link BotSession} per client and many connections per
 * process, with `POST /connect`, `GET /healthz`, `GET /readyz` and `GET /metrics` beside it. A
 * session can outlive its connection (see {@link SessionDirectory}).
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import { encodeFrame } from '@scenaro/sdk/protocol';
import type { RTVIMessage, ServerDrainingMessage } from '@scenaro/sdk/protocol';
import { ClientMessageRouter } from '../control/router.js';
import type { ClientMessageHandler } from '../control/handlers.js';
import { DbCache } from '../scenario/db-loader.js';
import { registerControlTools } from '../scenario/control-tools.js';
import { DomainRegistry } from '../scenario/registry.js';
import { checkAuthSettings } from './auth.js';
import { takeFrame } from './frame-intake.js';
import type { FrameIntake } from './frame-intake.js';
import { ConnectionReader } from './connection-reader.js';
import { answerHttp, listenOn, refuseUpgrade, requestId } from './http-front.js';
import { createLogger } from './logger.js';
import type { Logger } from './logger.js';
import { ServerMetrics } from './metrics.js';
import { encodeOutgoing } from './reply-encoder.js';
import { TurnTracer } from './turn-tracing.js';
import { BotSession } from './session.js';
import type { BotSessionOptions } from './session.js';
import { prepareVoice } from './voice-session.js';
import type { SessionConnection } from './session-connection.js';
import { SessionDirectory } from './session-directory.js';
import { closeWithin, whenDrained } from './socket-drain.js';
import { closeAllWithin, settleWithin } from './shutdown.js';
import { ConnectionWatch } from './connection-watch.js';
import { DEFAULT_MAX_MESSAGE_BYTES } from './bot-server-options.js';
import type { BotServerOptions } from './bot-server-options.js';
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
      | 'maxMessageBytes'
      | 'maxOutgoingBytes'
      | 'maxBufferedBytes'
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
  readonly #wss: WebSocketServer;
  readonly #sessions = new Map<WebSocket, BotSession>();
  readonly #readers = new WeakMap<WebSocket, ConnectionReader>();
  readonly #watch: ConnectionWatch;
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
      maxMessageBytes: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      maxOutgoingBytes: options.maxOutgoingBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      maxBufferedBytes: options.maxBufferedBytes ?? 16 * 1024 * 1024,
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
    this.#watch = new ConnectionWatch({
      handshakeTimeoutMs: options.handshakeTimeoutMs ?? 10_000,
      pingIntervalMs: options.pingIntervalMs ?? 30_000,
      frameTimeoutMs: options.frameTimeoutMs ?? 10_000,
    });
    this.#maxConnections = options.maxConnections ?? 2048;
    this.#maxPendingHandshakes = options.maxPendingHandshakes ?? 1024;
    this.#wss = new WebSocketServer({
      noServer: true,
      maxPayload: this.#options.maxMessageBytes,
      // Messages are paced by each connection's reader (see ConnectionReader).
      allowSynchronousEvents: true,
    });
    this.#http.on('upgrade', (req, socket, head) => this.#onUpgrade(req, socket, head));
    this.#wss.on('connection', (ws, req) => this.#onConnection(ws, req));
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
    this.#watch.stop();
    // The metrics port, when there is one, stays open meanwhile: probes see readiness false.
    await settleWithin(
      [...this.#sessions.values()].map((s) => s.drain()),
      graceMs,
    );
    await closeAllWithin(() => this.#sessions.keys(), 1000);
    this.#http.closeAllConnections();
    this.#metricsHttp?.close();
    this.#metricsHttp?.closeAllConnections();
    this.#wss.close();
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

  #onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const refused = refuseUpgrade(req, socket, {
      closing: this.#closing,
      connections: this.#sessions.size,
      pendingHandshakes: this.#watch.pendingHandshakes,
      maxConnections: this.#maxConnections,
      maxPendingHandshakes: this.#maxPendingHandshakes,
      allowedOrigins: this.#options.allowedOrigins,
      token: this.#options.token,
      log: this.log,
    });
    if (refused) this.metrics.connectionRefused(refused);
    else this.#wss.handleUpgrade(req, socket, head, (ws) => this.#wss.emit('connection', ws, req));
  }

  #onConnection(ws: WebSocket, req: IncomingMessage): void {
    const claimed = this.#directory.claim(req);
    if (claimed) {
      this.#takeOver(claimed);
      claimed.attach(this.#connectionFor(ws, req, claimed.log, true));
      this.#bind(ws, req, claimed);
      this.metrics.connectionAccepted(true);
      claimed.log.info(
        {
          remote: req.socket.remoteAddress,
          requestId: requestId(req),
          sessions: this.#sessions.size,
        },
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
      ws.close(1013, 'Server is at its session limit; try again later');
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
      ...this.#connectionFor(ws, req, log, false),
    });
    try {
      this.#options.onSession?.(session);
    } catch (err) {
      log.error({ err }, 'onSession failed; closing the connection');
      this.metrics.error('session_setup');
      session.dispose();
      ws.close(1011, 'session setup failed');
      return;
    }
    this.#directory.opened(session);
    this.#bind(ws, req, session);
    this.metrics.connectionAccepted(false);
    log.info(
      {
        remote: req.socket.remoteAddress,
        requestId: requestId(req),
        sessions: this.#sessions.size,
      },
      'session opened',
    );
  }

  /** How a session talks through `ws` (`resumed`: it continues an earlier connection's session). */
  #connectionFor(
    ws: WebSocket,
    req: IncomingMessage,
    log: Logger,
    resumed: boolean,
  ): SessionConnection {
    return {
      send: (message) => this.#send(ws, message, log),
      close: (code, reason) => {
        // The session asked to end (disconnect-bot): it does not wait for its client.
        const session = this.#sessions.get(ws);
        if (session) this.#directory.endOnClose(session);
        ws.close(code, reason);
      },
      whenWritable: () => this.#whenWritable(ws, req),
      pauseInput: (paused) => this.#readerOf(ws).setPaused('session', paused),
      readySession: () => {
        const session = this.#sessions.get(ws);
        return session && this.#directory.readySession(session, resumed);
      },
      ...(this.#options.voice
        ? { sendAudio: (pcm, rate) => this.#sendAudio(ws, req, pcm, rate, log) }
        : {}),
    };
  }

  /** `session` is `ws`'s until the socket closes or another connection takes the session over. */
  #bind(ws: WebSocket, req: IncomingMessage, session: BotSession): void {
    const log = session.log;
    this.#sessions.set(ws, session);
    this.#watch.add(ws, req.socket, () => session.ready, log);
    const reader = this.#readerOf(ws);
    const intake: FrameIntake = {
      session,
      reply: (message) => this.#send(ws, message, log),
      metrics: this.metrics,
      received: (message) => this.#tracer.received(session, message),
      requestLabel: (t) => (this.router.get(t) ? t : 'unknown'),
    };
    reader.take = (data, isBinary) =>
      this.#sessions.get(ws) === session ? takeFrame(data, isBinary, intake) : 'other';
    ws.on('message', (data, isBinary) => reader.push(data, isBinary));
    ws.on('close', (code) => {
      if (this.#sessions.get(ws) !== session) return; // taken over: the session went on
      this.#sessions.delete(ws);
      session.detach();
      if (!this.#closing && this.#directory.keep(session)) {
        log.info({ code, sessions: this.#sessions.size }, 'connection closed; session waits');
        return;
      }
      this.#end(session);
      log.info({ code, sessions: this.#sessions.size }, 'session closed');
    });
    ws.on('error', (err) => {
      this.metrics.error('socket');
      log.warn({ err }, 'socket error');
    });
  }

  /** Detach `session` from the connection it has, if any, and close that connection. */
  #takeOver(session: BotSession): void {
    for (const [ws, owner] of this.#sessions) {
      if (owner !== session) continue;
      this.#sessions.delete(ws);
      session.detach();
      session.log.info({}, 'a new connection takes the session over');
      closeWithin(ws, 1000, 'Session taken over by a new connection', 1000);
    }
  }

  /** `ws`'s reader (its messages in order, paced; see {@link ConnectionReader}). */
  #readerOf(ws: WebSocket): ConnectionReader {
    let reader = this.#readers.get(ws);
    if (!reader) {
      reader = new ConnectionReader((paused) => {
        this.#watch.setPaused(ws, paused);
        if (paused) ws.pause();
        else ws.resume();
      });
      this.#readers.set(ws, reader);
    }
    return reader;
  }

  #end(session: BotSession): void {
    this.#directory.forget(session);
    this.#tracer.forget(session);
    session.dispose();
  }

  /**
   * Undefined while `ws` has at most a quarter of `maxBufferedBytes` unsent; otherwise resolves
   * once it has drained below that (or closed).
   */
  #whenWritable(ws: WebSocket, req: IncomingMessage): Promise<void> | undefined {
    return whenDrained(ws, req.socket, this.#options.maxBufferedBytes / 4);
  }

  /**
   * Send one frame of the bot's audio. Resolves at once, or once the connection has drained when
   * its buffer is over the watermark (so fast-paced speech never floods a slow reader).
   */
  #sendAudio(
    ws: WebSocket,
    req: IncomingMessage,
    pcm: Uint8Array,
    sampleRate: number,
    log: Logger,
  ): Promise<void> | undefined {
    if (ws.readyState !== ws.OPEN) return undefined;
    const bytes = encodeFrame({ kind: 'audio', audio: pcm, sampleRate, numChannels: 1 });
    if (!this.#fits(ws, bytes.byteLength, log)) return undefined;
    ws.send(bytes, { binary: true });
    this.metrics.audioSent(pcm.byteLength, sampleRate);
    return this.#whenWritable(ws, req);
  }

  /** False (and the connection closing) when `bytes` more would exceed `maxBufferedBytes`. */
  #fits(ws: WebSocket, bytes: number, log: Logger): boolean {
    if (ws.bufferedAmount + bytes <= this.#options.maxBufferedBytes) return true;
    log.warn({ buffered: ws.bufferedAmount }, 'client is not reading; closing the connection');
    this.metrics.error('slow_reader');
    const session = this.#sessions.get(ws);
    if (session) this.#directory.endOnClose(session);
    // A client that reads nothing never takes the close frame either.
    closeWithin(
      ws,
      1013,
      'Client is not reading its messages',
      this.#options.slowReaderCloseGraceMs,
    );
    return false;
  }

  #send(ws: WebSocket, message: RTVIMessage, log: Logger): boolean {
    if (ws.readyState !== ws.OPEN) return false;
    const bytes = encodeOutgoing(message, this.#options.maxOutgoingBytes, log);
    if (!bytes || !this.#fits(ws, bytes.byteLength, log)) return false;
    ws.send(bytes, { binary: true });
    const session = this.#sessions.get(ws);
    this.metrics.messageSent(session, message);
    this.#tracer.sent(session, message);
    return true;
  }
}

/** Create and start a bot server. */
export async function startBotServer(options: BotServerOptions = {}): Promise<BotServer> {
  return new BotServer(options).listen();
}
