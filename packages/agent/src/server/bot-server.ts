/**
 * The bot server: a WebSocket server speaking Pipecat's RTVI protocol in binary
 * protobuf frames, one isolated {@link BotSession} per client and many connections per
 * process, with `POST /connect` and `GET /healthz` beside it. A session can outlive its
 * connection (see {@link SessionDirectory}).
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { RawData, WebSocket } from 'ws';
import { decodeRtviFrame, encodeFrame, rtviError } from '@scenaro/sdk/protocol';
import type { RTVIMessage } from '@scenaro/sdk/protocol';
import { ClientMessageRouter } from '../control/router.js';
import type { ClientMessageHandler } from '../control/handlers.js';
import { DbCache } from '../scenario/db-loader.js';
import { registerControlTools } from '../scenario/control-tools.js';
import { DomainRegistry } from '../scenario/registry.js';
import { checkAuthSettings } from './auth.js';
import { answerHttp, refuseUpgrade } from './http-front.js';
import { createLogger } from './logger.js';
import type { Logger } from './logger.js';
import { encodeOutgoing } from './reply-encoder.js';
import { BotSession } from './session.js';
import { prepareVoice } from './voice-session.js';
import type { SessionConnection } from './session-connection.js';
import { SessionDirectory } from './session-directory.js';
import { closeWithin, whenDrained } from './socket-drain.js';
import { ConnectionWatch } from './connection-watch.js';
import { DEFAULT_MAX_MESSAGE_BYTES } from './bot-server-options.js';
import type { BotServerOptions } from './bot-server-options.js';
import { DEFAULT_SESSION_LIMITS, checkSessionLimits } from './session-limits.js';
import type { SessionLimits } from './session-limits.js';

export { DEFAULT_MAX_MESSAGE_BYTES } from './bot-server-options.js';
export type { BotServerOptions } from './bot-server-options.js';

const VERSION = '0.1.0';

/** A running (or startable) bot server. */
export class BotServer {
  readonly registry: DomainRegistry;
  readonly router: ClientMessageRouter;
  readonly log: Logger;
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
  readonly #wss: WebSocketServer;
  readonly #sessions = new Map<WebSocket, BotSession>();
  readonly #watch: ConnectionWatch;
  readonly #maxConnections: number;
  readonly #maxPendingHandshakes: number;
  readonly #limits: SessionLimits;
  readonly #directory: SessionDirectory;
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
    const upgradeTimeoutMs = options.upgradeTimeoutMs ?? 10_000;
    this.#http = createServer(
      {
        // A request (a WebSocket upgrade included) left half-sent is dropped after this.
        headersTimeout: upgradeTimeoutMs,
        requestTimeout: upgradeTimeoutMs,
        connectionsCheckingInterval: Math.max(10, Math.min(1000, upgradeTimeoutMs / 4)),
      },
      (req, res) => this.#onHttp(req, res),
    );
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
      // One message per connection per turn of the event loop: a client that sends a burst
      // is read at the pace the server handles it, and never holds up the other connections.
      allowSynchronousEvents: false,
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
    await new Promise<void>((resolve, reject) => {
      this.#http.once('error', reject);
      this.#http.listen(this.#options.port, this.#options.host, () => {
        this.#http.off('error', reject);
        resolve();
      });
    });
    this.log.info({ url: this.url }, 'listening');
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
   * Graceful shutdown: stop accepting, end the sessions waiting for a client, let in-flight
   * replies finish (up to the grace period), then close every connection with 1001.
   */
  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    for (const session of this.#directory.drainWaiting()) this.#end(session);
    const stopped = new Promise<void>((resolve) => this.#http.close(() => resolve()));
    this.#watch.stop();
    const drains = [...this.#sessions.values()].map((s) => s.drain());
    // These timers stay referenced (both bounded): with unref'd ones, a process with nothing
    // else pending exited (code 13) before close() resolved, skipping whatever followed it.
    let grace: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.allSettled(drains),
      new Promise((resolve) => (grace = setTimeout(resolve, this.#options.shutdownGraceMs))),
    ]);
    clearTimeout(grace);
    for (const ws of this.#sessions.keys()) ws.close(1001, 'server shutting down');
    await new Promise<void>((resolve) => {
      let waited = false;
      const deadline = setTimeout(() => {
        waited = true;
        for (const ws of this.#sessions.keys()) ws.terminate();
        resolve();
      }, 1000);
      const check = () => {
        if (waited) return;
        if (this.#sessions.size === 0) {
          clearTimeout(deadline);
          resolve();
        } else setTimeout(check, 10);
      };
      check();
    });
    this.#http.closeAllConnections();
    this.#wss.close();
    // Bounded too: whatever is left open (a half-sent upgrade, say) does not keep close() waiting.
    let last: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([stopped, new Promise((resolve) => (last = setTimeout(resolve, 1000)))]);
    clearTimeout(last);
    this.log.info({}, 'closed');
  }

  #onHttp(req: IncomingMessage, res: ServerResponse): void {
    answerHttp(req, res, {
      closing: this.#closing,
      sessions: this.#sessions.size,
      wsUrl: () => {
        const host = this.#options.publicHost ?? this.address.address;
        return `ws://${host.includes(':') ? `[${host}]` : host}:${this.address.port}`;
      },
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
    if (!refused)
      this.#wss.handleUpgrade(req, socket, head, (ws) => this.#wss.emit('connection', ws, req));
  }

  #onConnection(ws: WebSocket, req: IncomingMessage): void {
    const claimed = this.#directory.claim(req);
    if (claimed) {
      this.#takeOver(claimed);
      claimed.attach(this.#connectionFor(ws, req, claimed.log, true));
      this.#bind(ws, req, claimed);
      claimed.log.info(
        { remote: req.socket.remoteAddress, sessions: this.#sessions.size },
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
      ...(this.#options.voice ? { voice: this.#options.voice } : {}),
      limits: this.#limits,
      ...this.#connectionFor(ws, req, log, false),
    });
    try {
      this.#options.onSession?.(session);
    } catch (err) {
      log.error({ err }, 'onSession failed; closing the connection');
      session.dispose();
      ws.close(1011, 'session setup failed');
      return;
    }
    this.#directory.opened(session);
    this.#bind(ws, req, session);
    log.info({ remote: req.socket.remoteAddress, sessions: this.#sessions.size }, 'session opened');
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
      pauseInput: (paused) => {
        this.#watch.setPaused(ws, paused);
        if (paused) ws.pause();
        else ws.resume();
      },
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
    ws.on('message', (data, isBinary) => {
      if (this.#sessions.get(ws) === session) this.#onMessage(ws, session, data, isBinary);
    });
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
    ws.on('error', (err) => log.warn({ err }, 'socket error'));
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

  #end(session: BotSession): void {
    this.#directory.forget(session);
    session.dispose();
  }

  #onMessage(ws: WebSocket, session: BotSession, data: RawData, isBinary: boolean): void {
    if (!isBinary) {
      this.#send(
        ws,
        rtviError(
          'Text WebSocket messages are not supported: send binary protobuf Pipecat frames.',
          false,
        ),
        session.log,
      );
      return;
    }
    const bytes = toBytes(data);
    const decoded = decodeRtviFrame(bytes);
    if (decoded.ok) {
      session.handle(decoded.message);
      return;
    }
    switch (decoded.reason) {
      case 'not-a-frame':
        this.#send(
          ws,
          rtviError(`Undecodable frame: ${decoded.error.message}`, false),
          session.log,
        );
        return;
      case 'not-a-message':
        if (decoded.frame.kind === 'audio') session.audio(decoded.frame);
        else session.log.debug({ kind: decoded.frame.kind }, 'ignored a non-message frame');
        return;
      case 'bad-envelope':
        if (decoded.error.kind === 'foreign-label') {
          session.log.warn({ label: decoded.error.message }, 'ignored a message that is not RTVI');
          return;
        }
        if (decoded.error.type === 'error' || decoded.error.type === 'error-response') {
          // Never answer a peer's error, even a malformed one (no error ping-pong).
          session.log.warn({ type: decoded.error.type }, 'ignored a malformed peer error');
          return;
        }
        this.#send(
          ws,
          rtviError(`Invalid RTVI transport message: ${decoded.error.message}`, false),
          session.log,
        );
    }
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
    return this.#whenWritable(ws, req);
  }

  /** False (and the connection closing) when `bytes` more would exceed `maxBufferedBytes`. */
  #fits(ws: WebSocket, bytes: number, log: Logger): boolean {
    if (ws.bufferedAmount + bytes <= this.#options.maxBufferedBytes) return true;
    log.warn({ buffered: ws.bufferedAmount }, 'client is not reading; closing the connection');
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
    return true;
  }
}

function toBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return new Uint8Array(Buffer.concat(data));
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/** Create and start a bot server. */
export async function startBotServer(options: BotServerOptions = {}): Promise<BotServer> {
  return new BotServer(options).listen();
}
