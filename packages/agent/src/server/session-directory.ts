/**
 * Sessions that outlive their connection. With `singleClient`, the server has one session and
 * whoever connects gets it; it waits while nobody is connected. Otherwise each `bot-ready`
 * gives the client a resume token, and a session whose connection closed waits `graceMs` for
 * a connection presenting it (`?resume=<token>`), then ends. The directory keeps the tokens
 * and the waiting (detached) sessions; the server attaches and disposes them.
 */
import { randomBytes } from 'node:crypto';
import type { BotReadySession } from '@scenaro/sdk/protocol';
import type { Logger } from './logger.js';
import type { BotSession } from './session.js';
import { MAX_TIMER_MS } from './socket-drain.js';
import type { ConnectionInfo } from './transport.js';

/** Options of a {@link SessionDirectory}. */
export interface SessionDirectoryOptions {
  /** One session for whoever connects (Pipecat's single pipeline). */
  singleClient: boolean;
  /** How long a detached session waits for its client (multi-session); 0 ends it at once. */
  graceMs: number;
  log: Logger;
  /** Ends a session the directory lets go of (its grace ran out, or it made room). */
  end: (session: BotSession) => void;
}

/** Resume tokens, and the sessions waiting for a connection. */
export class SessionDirectory {
  readonly #options: SessionDirectoryOptions;
  readonly #tokens = new Map<string, BotSession>();
  readonly #tokenOf = new Map<BotSession, string>();
  /** Detached sessions, oldest first, with their grace timers. */
  readonly #waiting = new Map<BotSession, ReturnType<typeof setTimeout> | undefined>();
  /** Sessions that must not wait for a client: they ended themselves, or were dropped. */
  readonly #ended = new WeakSet<BotSession>();
  /** The session of a single-client server. */
  #only: BotSession | undefined;

  constructor(options: SessionDirectoryOptions) {
    const grace = options.graceMs;
    if (typeof grace !== 'number' || !(grace >= 0)) {
      throw new RangeError(
        `resumeGraceMs must be a number of milliseconds >= 0 (or Infinity), got ${String(grace)}`,
      );
    }
    this.#options = options;
  }

  /** Sessions waiting for a connection. */
  get detachedCount(): number {
    return this.#waiting.size;
  }

  /**
   * The session a new connection continues, if any: a single-client server's session, or the
   * one its `?resume=` token names (the token is used up). An unknown or expired token is
   * logged, and the connection starts a new session.
   */
  claim(info: Pick<ConnectionInfo, 'url' | 'remoteAddress'>): BotSession | undefined {
    if (this.#options.singleClient) return this.#take(this.#only);
    const token = new URL(info.url, 'http://localhost').searchParams.get('resume');
    if (!token) return undefined;
    const session = this.#tokens.get(token);
    if (!session) {
      this.#options.log.warn(
        { remote: info.remoteAddress },
        'resume token unknown or expired; starting a new session',
      );
      return undefined;
    }
    this.#dropToken(session);
    return this.#take(session);
  }

  /** A new session was opened. */
  opened(session: BotSession): void {
    if (this.#options.singleClient) this.#only = session;
  }

  /**
   * What `bot-ready` tells the client of `session` (`resumed`: its connection continues an
   * earlier one): a new resume token, replacing the last one. Nothing for single-client servers
   * or without a grace period.
   */
  readySession(session: BotSession, resumed: boolean): BotReadySession | undefined {
    const { singleClient, graceMs } = this.#options;
    if (singleClient || graceMs === 0 || session.signal.aborted) return undefined;
    this.#dropToken(session);
    const token = randomBytes(24).toString('base64url');
    this.#tokens.set(token, session);
    this.#tokenOf.set(session, token);
    return { resume_token: token, resume_grace_ms: graceMs, resumed };
  }

  /** `session` must end when its connection closes (`disconnect-bot`, a client not reading). */
  endOnClose(session: BotSession): void {
    this.#ended.add(session);
  }

  /**
   * The connection of `session` closed (it is detached): keep it waiting for its client and
   * return true, or return false when it should end now.
   */
  keep(session: BotSession): boolean {
    if (this.#ended.has(session) || session.signal.aborted) return false;
    if (this.#options.singleClient) {
      if (this.#only !== session) return false;
      this.#waiting.set(session, undefined);
      return true;
    }
    if (!this.#tokenOf.has(session)) return false; // nobody can come back to it
    const timer = setTimeout(
      () => {
        this.#waiting.delete(session);
        this.#options.log.info({ session: session.sessionId }, 'no client came back in time');
        this.#options.end(session);
      },
      Math.min(this.#options.graceMs, MAX_TIMER_MS),
    );
    timer.unref();
    this.#waiting.set(session, timer);
    return true;
  }

  /**
   * End the oldest waiting sessions while `total(waiting)` would reach `limit`: a new
   * connection needs the room more than a client that may come back.
   */
  makeRoom(total: (waiting: number) => number, limit: number): void {
    for (const session of this.#waiting.keys()) {
      if (total(this.#waiting.size) < limit) return;
      this.#take(session);
      this.#options.log.info({ session: session.sessionId }, 'ended a waiting session for room');
      this.#options.end(session);
    }
  }

  /** `session` ended: forget its token and its wait. */
  forget(session: BotSession): void {
    this.#take(session);
    this.#dropToken(session);
    if (this.#only === session) this.#only = undefined;
  }

  /** Every waiting session, which stops waiting (on server close). */
  drainWaiting(): BotSession[] {
    const sessions = [...this.#waiting.keys()];
    for (const session of sessions) this.#take(session);
    return sessions;
  }

  /** Stops `session` waiting, if it was; returns it. */
  #take(session: BotSession | undefined): BotSession | undefined {
    if (session && this.#waiting.has(session)) {
      clearTimeout(this.#waiting.get(session));
      this.#waiting.delete(session);
    }
    return session;
  }

  #dropToken(session: BotSession): void {
    const token = this.#tokenOf.get(session);
    if (token === undefined) return;
    this.#tokens.delete(token);
    this.#tokenOf.delete(session);
  }
}
