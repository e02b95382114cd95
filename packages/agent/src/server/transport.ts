/**
 * The seam between the bot server and the way clients reach it. A {@link Transport} accepts
 * connections and hands each to the server as a {@link TransportConnection}: frames in (decoded
 * into an {@link InboundFrame}), RTVI messages and audio out, back-pressure, and close with a
 * code and reason. The server binds each connection to a session and never sees the wire.
 *
 * Protobuf frames over WebSocket (`transports/websocket.ts`) is the transport the server starts
 * by default. Another (WebRTC, a LiveKit room) is another implementation of these interfaces.
 */
import type { Server } from 'node:http';
import type { ClientFrame, RTVIMessage } from '@scenaro/sdk/protocol';
import type { Logger } from './logger.js';
import type { ServerMetrics } from './metrics.js';

/**
 * Something the transport received that it cannot carry (e.g. a text message on a transport of
 * binary frames): the client is told `message`.
 */
export interface UnsupportedInput {
  kind: 'error';
  reason: 'unsupported';
  message: string;
}

/** One thing a client sent, decoded once. */
export type InboundFrame = ClientFrame | UnsupportedInput;

/** Who opened a connection. */
export interface ConnectionInfo {
  /** The path and query the client connected with (`/?resume=<token>`); `/` when there is none. */
  url: string;
  /** The client's address, when the transport knows it. */
  remoteAddress: string | undefined;
  /** The request id (`X-Request-Id`, or one made up) for the logs. */
  requestId: string;
}

/** What the server does with one connection's input and events (see {@link TransportConnection.bind}). */
export interface ConnectionReceiver {
  /** The session's logger: the transport logs the connection's trouble there. */
  readonly log: Logger;
  /** True once the client's `client-ready` was answered (the handshake deadline stops then). */
  ready(): boolean;
  /** One frame from the client, in arrival order. */
  frame(frame: InboundFrame): void;
  /** The client stopped reading its output: the connection is closing, and must not be waited for. */
  stalled(): void;
  /** The connection closed (`code` as the transport reports it). */
  closed(code: number): void;
  /** The connection failed (it closes next). */
  error(err: Error): void;
}

/**
 * One client connection. `send` and `sendAudio` may be called detached (the server hands them to
 * the session as they are).
 */
export interface TransportConnection {
  readonly info: ConnectionInfo;
  /**
   * Start handing `receiver` what the client sends, and its events. Called once, when the server
   * has a session for the connection.
   */
  bind(receiver: ConnectionReceiver): void;
  /**
   * Write one RTVI message. False when it was not sent: the connection is not open, the message
   * is too large or cannot be encoded (a reply is answered with an `error-response` instead), or
   * the client stopped reading (then the connection closes, see {@link ConnectionReceiver.stalled}).
   */
  readonly send: (message: RTVIMessage) => boolean;
  /**
   * Write one frame of the bot's audio (mono PCM16). Returns a promise to wait on before the next
   * frame while the connection's buffer is over its watermark; undefined otherwise (also when the
   * frame was not sent).
   */
  readonly sendAudio: (pcm: Uint8Array, sampleRate: number) => Promise<void> | undefined;
  /** Undefined while more output fits; otherwise resolves once it does (or the connection closed). */
  whenWritable(): Promise<void> | undefined;
  /** Stop (true) or resume (false) handing over the client's frames (they wait, and are not read). */
  pauseInput(paused: boolean): void;
  /**
   * Close with `code` and `reason`. With a finite `graceMs`, a client that has not completed the
   * close by then is dropped.
   */
  close(code: number, reason: string, graceMs?: number): void;
  /** Drop the connection at once. */
  terminate(): void;
}

/** What a new connection is checked against before it is accepted. */
export interface Admission {
  /** The server is shutting down. */
  closing: boolean;
  /** Connections with a session now. */
  connections: number;
  maxConnections: number;
  maxPendingHandshakes: number;
  allowedOrigins: string[] | undefined;
  token: string | undefined;
}

/** What a transport gets from the server it serves. */
export interface TransportHost {
  /** The server's HTTP listener (health, metrics): a transport that upgrades or signals over HTTP uses it. */
  readonly http: Server;
  readonly log: Logger;
  readonly metrics: ServerMetrics;
  /** The server's admission rules, as they are now. */
  admission(): Admission;
  /** A connection opened: the server binds it to a session, or closes it. */
  accept(connection: TransportConnection): void;
}

/** How clients reach a bot server. */
export interface Transport {
  /** Start accepting connections for `host` (once, before the server listens). */
  start(host: TransportHost): void;
  /**
   * The server is draining: no connection is held to its deadlines any more (each is closed
   * within the shutdown's bounds).
   */
  drain(): void;
  /** The server has closed every connection: release what the transport holds. */
  close(): void;
}
