/**
 * The options of a {@link BotServer}: every one optional, each with its default.
 */
import type { AudioBacklogLimits } from './audio-intake.js';
import type { ServerProfile } from '../control/router.js';
import type { ConversationFactory } from '../conversation/hook.js';
import type { DbCache } from '../scenario/db-loader.js';
import type { DomainRegistry } from '../scenario/registry.js';
import type { VoiceOptions } from '../voice/voice-options.js';
import type { Logger } from './logger.js';
import type { BotSession } from './session.js';
import type { Transport } from './transport.js';

/** Pipecat's (Python `websockets`) default receive cap. */
export const DEFAULT_MAX_MESSAGE_BYTES = 1024 * 1024;

/** Options of {@link BotServer}. Every field has a default. */
export interface BotServerOptions {
  /** @default '127.0.0.1' */
  host?: string;
  /** 0 picks a free port. @default 8765 */
  port?: number;
  /** Which control messages are answered. @default 'eval' */
  profile?: ServerProfile;
  /** Domains, tools, initialization functions, predicates and sync appliers. @default an empty registry */
  registry?: DomainRegistry;
  /** Builds each session's conversation. @default none (send-text is accepted and ignored) */
  conversation?: ConversationFactory;
  /** Every `db_path` resolves inside this folder. @default `EVAL_DATA_ROOT` or `./data` */
  dataRoot?: string;
  /** More data roots, searched in order when `dataRoot` has no such db (e.g. a domain's shipped data). */
  extraDataRoots?: string[];
  /** Parsed-db cache shared by sessions. */
  dbCache?: DbCache;
  /**
   * Require this token (`?token=` or `Authorization: Bearer`). An empty token is refused. Without
   * one, the server binds only loopback addresses unless `allowUnauthenticated` is set.
   */
  token?: string;
  /**
   * Serve without a token on a non-loopback address: only behind something else that
   * authenticates (a gateway, a private network). @default false
   */
  allowUnauthenticated?: boolean;
  /**
   * Browser origins allowed to connect (`https://shop.example`, or `*`). A WebSocket upgrade with
   * an `Origin` header not in the list is refused with 403; clients that send no `Origin` (not
   * browsers) are unaffected. @default any origin
   */
  allowedOrigins?: string[];
  /** Largest accepted incoming message; larger closes with 1009. @default 1 MiB */
  maxMessageBytes?: number;
  /** Largest reply sent; a larger `server-response` becomes an `error-response`. @default 1 MiB */
  maxOutgoingBytes?: number;
  /** Close a connection whose unsent data exceeds this (a client that stopped reading). @default 16 MiB */
  maxBufferedBytes?: number;
  /**
   * After closing a client that stopped reading (1013), how long to wait for it to take the close
   * before the socket and its queued data are dropped. `Infinity` leaves it to ws's own
   * 30-second closing timeout. @default 5000
   */
  slowReaderCloseGraceMs?: number;
  /**
   * Largest conversation context of one session (UTF-8 JSON bytes); a `send-text` that would
   * grow it past this is refused with an `error-response`. @default 256 KiB
   */
  maxContextBytes?: number;
  /** Most turns one session may have waiting or running; more `send-text`s are refused. @default 16 */
  maxQueuedTurns?: number;
  /**
   * Most unanswered requests of one session; more are refused with an `error-response`. The
   * server stops reading a connection at half of this and resumes at a quarter. @default 128
   */
  maxPendingRequests?: number;
  /**
   * How long a new connection may take to send `client-ready`; then it is closed (1008).
   * @default 10000
   */
  handshakeTimeoutMs?: number;
  /**
   * How often each connection is pinged; one that has not answered (pong, or any data) by the
   * next ping is dropped. @default 30000
   */
  pingIntervalMs?: number;
  /**
   * How long a message may take to arrive once it has started (a frame left half-sent holds up
   * to `maxMessageBytes` of memory); then the connection is dropped. @default 10000
   */
  frameTimeoutMs?: number;
  /** How long the HTTP request of a WebSocket upgrade may take to arrive. @default 10000 */
  upgradeTimeoutMs?: number;
  /** Most WebSocket connections at once; more upgrades are answered 503. @default 2048 */
  maxConnections?: number;
  /** Most connections that have not sent `client-ready` yet; more are answered 503. @default 1024 */
  maxPendingHandshakes?: number;
  /**
   * Most sessions at once, counting those waiting for their client; a new connection ends the
   * longest-waiting one instead of going over, and is closed with 1013 only when every session
   * has a connection. (Waiting sessions count against `maxConnections` the same way.)
   * @default unlimited
   */
  maxSessions?: number;
  /**
   * Most sessions listening at once (each owns a speech recognizer); the next one is told with an
   * RTVI `error` and its audio is not heard until a place frees. Only with `voice`.
   * @default four per core, within half the machine's memory (see `defaultMaxVoiceSessions`)
   */
  maxVoiceSessions?: number;
  /** Bounds of each session's queue of received audio. @default 10 s and 8 MiB */
  audioBacklog?: AudioBacklogLimits;
  /**
   * Pipecat parity: the server has one session, and whoever connects gets it whole (prompt,
   * tools, db, context). A new connection takes it over from an open one, which is closed
   * (1000, 'Session taken over by a new connection'); while nobody is connected it waits, until
   * `disconnect-bot` or `close()` ends it. @default false
   */
  singleClient?: boolean;
  /**
   * Without `singleClient`: how long a session whose connection closed waits for its client to
   * come back with the resume token of its last `bot-ready` (`?resume=<token>` on the WebSocket
   * URL); then it ends. 0 ends sessions with their connection (and sends no token). A session
   * that ended itself (`disconnect-bot`) or whose client stopped reading does not wait.
   * @default 30000
   */
  resumeGraceMs?: number;
  /** Appended to prompts sent with `add_suffix`. @default '' */
  systemPromptSuffix?: string;
  /** @default true */
  enableToolCalling?: boolean;
  /** How long `get_context_history` waits for running tool calls. @default 3000 */
  contextIdleWaitMs?: number;
  /** Public host name used in `POST /connect` answers. @default the bound host */
  publicHost?: string;
  /** @default a pino logger on stderr */
  logger?: Logger;
  /**
   * How long `close()` lets in-flight replies and turns finish after telling the connected
   * clients (`server-message {type: "server-draining", grace_ms}`); then it closes them (1001).
   * @default 5000
   */
  shutdownGraceMs?: number;
  /**
   * Serve `GET /metrics` (and `/healthz`, `/readyz`) on this port of `host` instead of the
   * server's own port (0 picks a free one). It keeps answering while the server drains, so
   * probes there see readiness turn false. Either way `/metrics` needs the `token`, when one is
   * set. @default the server's own port
   */
  metricsPort?: number;
  /**
   * Called for every new session, before it handles any message: register browser-callable RPC
   * methods on `session.rpc`, attach per-session state. A throw closes that connection (1011).
   */
  onSession?: (session: BotSession) => void;
  /**
   * How clients reach the server. @default Pipecat protobuf frames over WebSocket on the server's
   * port: a `WebSocketServerTransport` built from `maxMessageBytes`, `maxOutgoingBytes`,
   * `maxBufferedBytes`, `slowReaderCloseGraceMs`, `handshakeTimeoutMs`, `pingIntervalMs` and
   * `frameTimeoutMs`. A transport given here brings its own limits and deadlines instead.
   */
  transport?: Transport;
  /**
   * Speech: the bot hears `AudioRawFrame`s (VAD, speech to text) and answers in speech (text to
   * speech). @default none (audio frames are ignored, replies are text only)
   */
  voice?: VoiceOptions;
}
