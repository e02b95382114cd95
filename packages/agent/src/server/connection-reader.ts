/**
 * How one connection's messages are read, in the order they came. Audio frames are taken back to
 * back in a turn of the event loop: at least {@link AUDIO_PER_TURN}, then more while the turn has
 * taken less than {@link AUDIO_TURN_MS} of main-thread time, up to {@link MAX_AUDIO_PER_TURN}.
 * Each is cheap (checked and queued for the ears, which bound their own work; audio past a full
 * queue is dropped at once), so a client that sends minutes of audio at once is read hundreds of
 * frames a turn and a request behind that audio is not kept waiting, while the other
 * connections still get a turn between the batches, each batch bounded in time. After any other
 * message the reader gives the event loop a turn before the next one, so a burst of requests is
 * read at the pace it is handled and never holds up the other connections.
 *
 * Messages waiting here are bounded in count and in bytes: past {@link MAX_WAITING} messages or
 * {@link MAX_WAITING_BYTES} the socket is no longer read until both are down to a quarter. The
 * session can stop the reading too (too many requests pending, a full audio queue): then it is
 * handed nothing more, the messages already read wait here, and the socket is read only once no
 * reason holds it.
 */
import type { RawData } from 'ws';

/** Messages read from the socket and not yet handled, past which the socket is paused. */
export const MAX_WAITING = 256;
/** Bytes of messages read and not yet handled, past which the socket is paused (four of the largest messages). */
export const MAX_WAITING_BYTES = 4 * 1024 * 1024;
/** Audio frames always taken back to back before the other connections get a turn (about half a second of 16 ms frames). */
export const AUDIO_PER_TURN = 32;
/** Main-thread time past which no more audio is taken in the turn (ms). */
export const AUDIO_TURN_MS = 2;
/** Most audio frames taken in one turn, however cheap. */
export const MAX_AUDIO_PER_TURN = 512;

/** What a handled message was. */
export type TakenKind = 'audio' | 'other';

/** Why reading is paused. */
export type PauseReason = 'waiting' | 'session';

/** One connection's reader. */
export class ConnectionReader {
  /** Handles one message and says what it was (until a session is bound: nothing). */
  take: (data: RawData, isBinary: boolean) => TakenKind = () => 'other';
  readonly #pause: (paused: boolean) => void;
  readonly #now: () => number;
  /** Read messages; the handled ones before `#head` are cleared. */
  readonly #waiting: ([RawData, boolean] | undefined)[] = [];
  #head = 0;
  /** Bytes of the messages waiting. */
  #waitingBytes = 0;
  #scheduled = false;
  #running = false;
  /** Audio frames taken since the reader last gave the loop a turn. */
  #audioTaken = 0;
  /** When the first of them was taken (the reader's clock, ms). */
  #audioSince = 0;
  readonly #reasons = new Set<PauseReason>();

  /** `pause` stops (true) or resumes (false) reading the socket; `now` reads the clock (ms). */
  constructor(pause: (paused: boolean) => void, now: () => number = () => performance.now()) {
    this.#pause = pause;
    this.#now = now;
  }

  /** Messages read and not yet handled. */
  get waiting(): number {
    return this.#waiting.length - this.#head;
  }

  /** Bytes of the messages read and not yet handled. */
  get waitingBytes(): number {
    return this.#waitingBytes;
  }

  /** A message arrived. */
  push(data: RawData, isBinary: boolean): void {
    this.#waiting.push([data, isBinary]);
    this.#waitingBytes += byteLength(data);
    if (this.waiting > MAX_WAITING || this.#waitingBytes > MAX_WAITING_BYTES)
      this.setPaused('waiting', true);
    if (!this.#scheduled && !this.#running) this.#drain();
  }

  /** Pause or resume reading for `reason`; the socket is read while no reason holds it. */
  setPaused(reason: PauseReason, paused: boolean): void {
    const before = this.#reasons.size > 0;
    if (paused) this.#reasons.add(reason);
    else this.#reasons.delete(reason);
    const after = this.#reasons.size > 0;
    if (before !== after) this.#pause(after);
    // The session takes messages again: hand it those that waited.
    if (reason === 'session' && !paused && !this.#scheduled && !this.#running) this.#yieldTurn();
  }

  #drain(): void {
    this.#scheduled = false;
    this.#running = true;
    try {
      // While the session takes no messages, they wait here (the socket is paused too).
      while (this.#head < this.#waiting.length && !this.#reasons.has('session')) {
        const [data, isBinary] = this.#waiting[this.#head]!;
        this.#waiting[this.#head++] = undefined;
        this.#waitingBytes -= byteLength(data);
        if (this.#audioTaken === 0) this.#audioSince = this.#now();
        const kind = this.take(data, isBinary);
        // The next message, here already or still to come, waits for the loop's next turn.
        if (kind !== 'audio' || this.#turnTaken(++this.#audioTaken)) {
          this.#yieldTurn();
          break;
        }
      }
    } finally {
      this.#running = false;
      this.#compact();
    }
  }

  /** Whether the turn has taken all the audio it may, `taken` frames so far. */
  #turnTaken(taken: number): boolean {
    if (taken < AUDIO_PER_TURN) return false;
    return taken >= MAX_AUDIO_PER_TURN || this.#now() - this.#audioSince >= AUDIO_TURN_MS;
  }

  /** Take the next message in a later turn of the event loop. */
  #yieldTurn(): void {
    this.#scheduled = true;
    setImmediate(() => {
      this.#audioTaken = 0;
      this.#drain();
    });
  }

  #compact(): void {
    if (this.#head === this.#waiting.length) {
      this.#waiting.length = 0;
      this.#head = 0;
    } else if (this.#head > 1024) {
      this.#waiting.splice(0, this.#head);
      this.#head = 0;
    }
    if (
      this.#reasons.has('waiting') &&
      this.waiting <= MAX_WAITING / 4 &&
      this.#waitingBytes <= MAX_WAITING_BYTES / 4
    ) {
      this.setPaused('waiting', false);
    }
  }
}

/** The size of a message as ws hands it over. */
function byteLength(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((n, part) => n + part.length, 0);
  return data.byteLength;
}
