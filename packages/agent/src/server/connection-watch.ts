/**
 * Deadlines on a server's WebSocket connections, so that none holds memory without doing
 * anything: `client-ready` must come within the handshake deadline, a message that has started
 * arriving must be complete within the frame deadline, and a connection that answers nothing
 * between two pings (no pong, no data) is dropped. One timer sweeps every connection.
 */
import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';
import type { Logger } from './logger.js';
import { closeWithin } from './socket-drain.js';

/** Deadlines of a {@link ConnectionWatch}, in milliseconds. */
export interface ConnectionDeadlines {
  handshakeTimeoutMs: number;
  pingIntervalMs: number;
  frameTimeoutMs: number;
}

interface Watched {
  socket: Socket;
  ready: () => boolean;
  log: Logger;
  openedAt: number;
  /** Heard from since the last ping. */
  alive: boolean;
  lastPing: number;
  /** Messages received so far. */
  messages: number;
  /** Since when a message has been arriving, and how many messages had arrived then. */
  partial?: { since: number; messages: number };
  /** The server stopped reading this connection (it cannot hear pongs meanwhile). */
  paused: boolean;
  bytesWritten: number;
  closing: boolean;
}

/** The part of ws's receiver that tells whether a message is half received. */
interface ReceiverState {
  _bufferedBytes?: number;
  _fragments?: unknown[];
}

/** How long a connection closed for a missed deadline gets to take the close frame. */
const CLOSE_GRACE_MS = 1000;

/** Watches connections for missed deadlines. */
export class ConnectionWatch {
  readonly #deadlines: ConnectionDeadlines;
  readonly #connections = new Map<WebSocket, Watched>();
  readonly #sweepMs: number;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(deadlines: ConnectionDeadlines) {
    for (const [name, value] of Object.entries(deadlines)) {
      if (typeof value !== 'number' || !(value > 0)) {
        throw new RangeError(`${name} must be a number of milliseconds > 0, got ${String(value)}`);
      }
    }
    this.#deadlines = deadlines;
    const shortest = Math.min(...Object.values(deadlines));
    this.#sweepMs = Math.max(10, Math.min(1000, Math.floor(shortest / 4)));
  }

  /** Connections that have not completed the handshake. */
  get pendingHandshakes(): number {
    let n = 0;
    for (const w of this.#connections.values()) if (!w.ready()) n++;
    return n;
  }

  /** Watch `ws` (over `socket`) until it closes; `ready` tells whether `client-ready` came. */
  add(ws: WebSocket, socket: Socket, ready: () => boolean, log: Logger): void {
    const now = Date.now();
    const watched: Watched = {
      socket,
      ready,
      log,
      openedAt: now,
      alive: true,
      lastPing: now,
      messages: 0,
      paused: false,
      bytesWritten: socket.bytesWritten,
      closing: false,
    };
    this.#connections.set(ws, watched);
    ws.on('message', () => {
      watched.messages++;
      watched.alive = true;
    });
    ws.on('pong', () => (watched.alive = true));
    socket.on('data', () => (watched.alive = true));
    ws.once('close', () => {
      this.#connections.delete(ws);
      if (this.#connections.size === 0) this.stop();
    });
    if (!this.#timer) {
      this.#timer = setInterval(() => this.#sweep(), this.#sweepMs);
      this.#timer.unref();
    }
  }

  /** The server stopped (true) or resumed (false) reading `ws`. */
  setPaused(ws: WebSocket, paused: boolean): void {
    const watched = this.#connections.get(ws);
    if (watched) watched.paused = paused;
  }

  /** Stop the sweep timer (it restarts with the next connection). */
  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #sweep(): void {
    const now = Date.now();
    const { handshakeTimeoutMs, pingIntervalMs, frameTimeoutMs } = this.#deadlines;
    for (const [ws, w] of this.#connections) {
      if (w.closing || ws.readyState !== ws.OPEN) continue;
      if (!w.ready() && now - w.openedAt > handshakeTimeoutMs) {
        w.log.warn({ ms: now - w.openedAt }, 'no client-ready in time; closing the connection');
        this.#close(ws, w, 1008, `client-ready was not sent within ${handshakeTimeoutMs} ms`);
        continue;
      }
      if (w.paused) {
        // The server is not reading: the rest of a half-read message waits on the server, not
        // on the client, so the frame deadline counts again from when reading resumes.
        delete w.partial;
      } else if (this.#halfReceived(ws)) {
        if (!w.partial || w.partial.messages !== w.messages) {
          w.partial = { since: now, messages: w.messages };
        } else if (now - w.partial.since > frameTimeoutMs) {
          w.log.warn(
            { ms: now - w.partial.since },
            'message left half-sent; closing the connection',
          );
          this.#close(ws, w, 1008, `a message was not completed within ${frameTimeoutMs} ms`);
          continue;
        }
      } else {
        delete w.partial;
      }
      if (now - w.lastPing >= pingIntervalMs) {
        // While the server is not reading, a client still taking its output counts as alive.
        const written = w.socket.bytesWritten;
        const draining = w.paused && (written !== w.bytesWritten || ws.bufferedAmount === 0);
        w.bytesWritten = written;
        if (!w.alive && !draining) {
          w.log.warn({}, 'connection answered no ping; dropping it');
          w.closing = true;
          ws.terminate();
          continue;
        }
        w.alive = false;
        w.lastPing = now;
        ws.ping();
      }
    }
  }

  #halfReceived(ws: WebSocket): boolean {
    const receiver = (ws as unknown as { _receiver?: ReceiverState })._receiver;
    if (!receiver) return false;
    return (receiver._bufferedBytes ?? 0) > 0 || (receiver._fragments?.length ?? 0) > 0;
  }

  #close(ws: WebSocket, w: Watched, code: number, reason: string): void {
    w.closing = true;
    closeWithin(ws, code, reason, CLOSE_GRACE_MS);
  }
}
