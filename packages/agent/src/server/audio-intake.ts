/**
 * The user's audio between the socket and the ears: a queue bounded in seconds and bytes of
 * audio, heard one piece at a time in arrival order. Each frame is checked when it arrives (a
 * frame that cannot be audio is refused at once and never queued) and cut into pieces of at most
 * {@link MAX_PIECE_MS}, so one large frame never holds the event loop. The queue is worked in
 * slices of at most {@link SLICE_MS} of main-thread time, after which other sessions' sockets
 * are read, and the listener's own back-pressure (a recognizer that reads slowly) is awaited, so
 * nothing piles up below the queue.
 *
 * When the queue is full, the pacing decides: a real-time client that sends faster than it can be
 * heard loses its oldest queued audio (said once, counted); a fast-clock client, whose every
 * sample matters, is no longer read until the queue has half emptied (the socket's flow control
 * holds it back, nothing is lost).
 */
import { checkInputFrame } from '../voice/audio/input-audio.js';
import type { InputAudioFrame } from '../voice/audio/input-audio.js';

/** Longest piece of audio heard at once (ms). */
export const MAX_PIECE_MS = 100;
/** Main-thread time the queue is worked before other work gets a turn (ms). */
const SLICE_MS = 4;

/** Bounds of the audio queue. */
export interface AudioBacklogLimits {
  /** Most audio waiting to be heard (ms of audio). @default 10000 */
  maxMs?: number;
  /** Most bytes of audio waiting to be heard (as received). @default 8 MiB */
  maxBytes?: number;
}

export const DEFAULT_AUDIO_BACKLOG: Required<AudioBacklogLimits> = {
  maxMs: 10_000,
  maxBytes: 8 * 1024 * 1024,
};

/** What the intake drives. */
export interface AudioIntakeSink {
  /** Hear one piece; a returned promise is waited on before the next (back-pressure). */
  hear(frame: InputAudioFrame): void | Promise<void>;
  /** What to do when the queue is full: drop the oldest audio, or stop reading the client. */
  overflow(): 'shed' | 'pause';
  /** Stop (true) or resume (false) reading the client. */
  pause(paused: boolean): void;
  /** Audio was dropped: `ms` of it this time. */
  shed(ms: number): void;
  /** A piece could not be heard. */
  error(err: unknown): void;
}

interface Piece {
  /** The audio to hear, or a step to take once everything before it is heard. */
  frame: InputAudioFrame | (() => void | Promise<void>);
  bytes: number;
  ms: number;
}

/**
 * Check a received frame and cut it into pieces of at most {@link MAX_PIECE_MS}; a WAV-wrapped
 * frame is unwrapped. Throws `InputAudioError` naming what is wrong.
 */
export function checkAudioFrame(received: InputAudioFrame): InputAudioFrame[] {
  const frame = checkInputFrame(received);
  const { audio, sampleRate, numChannels } = frame;
  const sampleBytes = 2 * numChannels;
  const pieceBytes = Math.max(1, Math.floor((sampleRate * MAX_PIECE_MS) / 1000)) * sampleBytes;
  if (audio.length <= pieceBytes) return [frame];
  const pieces: InputAudioFrame[] = [];
  for (let at = 0; at < audio.length; at += pieceBytes) {
    pieces.push({ audio: audio.subarray(at, at + pieceBytes), sampleRate, numChannels });
  }
  return pieces;
}

/** The duration of a checked frame, in ms. */
function durationMs(frame: InputAudioFrame): number {
  return (frame.audio.length / 2 / frame.numChannels / frame.sampleRate) * 1000;
}

/** One session's queue of audio to hear. */
export class AudioIntake {
  readonly #sink: AudioIntakeSink;
  readonly #limits: Required<AudioBacklogLimits>;
  readonly #queue: Piece[] = [];
  #head = 0;
  #bytes = 0;
  #ms = 0;
  #paused = false;
  #working: Promise<void> | undefined;
  #closed = false;

  constructor(sink: AudioIntakeSink, limits: AudioBacklogLimits = {}) {
    this.#sink = sink;
    this.#limits = { ...DEFAULT_AUDIO_BACKLOG, ...limits };
  }

  /** Audio waiting to be heard (ms). */
  get queuedMs(): number {
    return this.#ms;
  }

  /** Bytes waiting to be heard. */
  get queuedBytes(): number {
    return this.#bytes;
  }

  /** Queue checked pieces of one frame (see {@link checkAudioFrame}). */
  push(pieces: readonly InputAudioFrame[]): void {
    if (this.#closed) return;
    for (const frame of pieces) {
      const piece = { frame, bytes: frame.audio.byteLength, ms: durationMs(frame) };
      this.#queue.push(piece);
      this.#bytes += piece.bytes;
      this.#ms += piece.ms;
    }
    if (this.#full()) {
      if (this.#sink.overflow() === 'shed') this.#shed();
      else if (!this.#paused) {
        this.#paused = true;
        this.#sink.pause(true);
      }
    }
    this.#working ??= this.#work().finally(() => (this.#working = undefined));
  }

  /** Take `step` once everything queued before it has been heard (it is never shed). */
  after(step: () => void | Promise<void>): void {
    if (this.#closed) return;
    this.#queue.push({ frame: step, bytes: 0, ms: 0 });
    this.#working ??= this.#work().finally(() => (this.#working = undefined));
  }

  /** Resolves once everything queued so far has been heard. */
  async drained(): Promise<void> {
    while (this.#working) await this.#working;
  }

  /** Drop what is queued and hear nothing more. */
  close(): void {
    this.#closed = true;
    this.#queue.length = 0;
    this.#head = 0;
    this.#bytes = 0;
    this.#ms = 0;
    if (this.#paused) {
      this.#paused = false;
      this.#sink.pause(false);
    }
  }

  #full(): boolean {
    return this.#ms > this.#limits.maxMs || this.#bytes > this.#limits.maxBytes;
  }

  /** Drop the oldest queued pieces until the queue is within its bounds again. */
  #shed(): void {
    let dropped = 0;
    let kept: Piece[] | undefined;
    while (this.#full() && this.#head < this.#queue.length) {
      const piece = this.#queue[this.#head++]!;
      if (typeof piece.frame === 'function') {
        (kept ??= []).push(piece);
        continue;
      }
      this.#bytes -= piece.bytes;
      this.#ms -= piece.ms;
      dropped += piece.ms;
    }
    // Steps are kept, ahead of the audio left.
    if (kept) this.#queue.splice(this.#head, 0, ...kept);
    this.#compact();
    if (dropped > 0) this.#sink.shed(dropped);
  }

  async #work(): Promise<void> {
    let sliceStart = performance.now();
    while (this.#head < this.#queue.length && !this.#closed) {
      const piece = this.#queue[this.#head++]!;
      this.#compact();
      try {
        const { frame } = piece;
        const waiting = typeof frame === 'function' ? frame() : this.#sink.hear(frame);
        if (waiting) await waiting;
      } catch (err) {
        this.#sink.error(err);
      }
      if (this.#closed) return;
      this.#bytes -= piece.bytes;
      this.#ms -= piece.ms;
      if (
        this.#paused &&
        this.#ms <= this.#limits.maxMs / 2 &&
        this.#bytes <= this.#limits.maxBytes / 2
      ) {
        this.#paused = false;
        this.#sink.pause(false);
      }
      if (performance.now() - sliceStart >= SLICE_MS) {
        // Let the other sessions' sockets and timers run before the next slice.
        await new Promise<void>((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
    }
  }

  /** Forget the heard head of the queue once it is large. */
  #compact(): void {
    if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue.splice(0, this.#head);
      this.#head = 0;
    }
  }
}
