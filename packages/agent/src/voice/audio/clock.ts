/**
 * Audio time. Voice code counts time in samples, never on the wall clock: an
 * {@link AudioClock} is advanced by the samples a stream emits. The real-time
 * clock makes `advance()` wait until the chunk is due (paced output for a
 * listener); the fast clock never waits, so a voice scenario between local
 * bots runs as fast as the CPU allows and reaches the same turns.
 */
import { samplesToMs } from './pcm.js';

/** A clock driven by the audio it paces. */
export interface AudioClock {
  readonly sampleRate: number;
  /** Samples counted so far. */
  readonly samples: number;
  /** Audio time in ms: `samples` at `sampleRate`. */
  nowMs(): number;
  /**
   * Count `samples` more samples; resolves when a chunk of that length may be
   * sent (at once for the fast clock). Rejects with the signal's reason when
   * `signal` aborts while waiting; the samples are then not counted.
   */
  advance(samples: number, signal?: AbortSignal): Promise<void>;
  /** Back to 0 samples (a new stream). */
  reset(): void;
}

/** A clock that never waits: time is the samples counted. */
export class FastAudioClock implements AudioClock {
  private count = 0;

  constructor(readonly sampleRate: number) {}

  get samples(): number {
    return this.count;
  }

  nowMs(): number {
    return samplesToMs(this.count, this.sampleRate);
  }

  advance(samples: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    this.count += samples;
    return Promise.resolve();
  }

  reset(): void {
    this.count = 0;
  }
}

/** Options of a {@link RealtimeAudioClock}. */
export interface RealtimeAudioClockOptions {
  /**
   * How far ahead of its due time a chunk may go out, in ms (a small lead
   * keeps the listener's buffer from running dry). Default 0.
   */
  leadMs?: number;
  /**
   * When the stream has fallen behind its schedule by more than this (the
   * producer had nothing to send, e.g. between two replies), the schedule
   * restarts from now instead of bursting to catch up. Default 100 ms.
   */
  resyncAfterMs?: number;
  /** Monotonic time in ms (default `performance.now`). */
  now?: () => number;
  /** Wait `ms` (default a timer); rejects when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

function timerSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A clock that paces chunks in real time: a chunk starting at sample `n` is
 * due at `start + n / sampleRate`, `start` being a monotonic instant, so
 * timer lateness never accumulates into drift.
 */
export class RealtimeAudioClock implements AudioClock {
  private count = 0;
  private startMs: number | undefined;
  private readonly leadMs: number;
  private readonly resyncAfterMs: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(
    readonly sampleRate: number,
    options: RealtimeAudioClockOptions = {},
  ) {
    this.leadMs = options.leadMs ?? 0;
    this.resyncAfterMs = options.resyncAfterMs ?? 100;
    this.now = options.now ?? (() => performance.now());
    this.sleep = options.sleep ?? timerSleep;
  }

  get samples(): number {
    return this.count;
  }

  nowMs(): number {
    return samplesToMs(this.count, this.sampleRate);
  }

  async advance(samples: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw signal.reason;
    const now = this.now();
    if (this.startMs === undefined) this.startMs = now - this.nowMs();
    let due = this.startMs + this.nowMs();
    if (now - due > this.resyncAfterMs) {
      this.startMs = now - this.nowMs();
      due = now;
    }
    const wait = due - this.leadMs - now;
    if (wait > 0) await this.sleep(wait, signal);
    this.count += samples;
  }

  reset(): void {
    this.count = 0;
    this.startMs = undefined;
  }
}

/** The clock for `pace`: real time when true, fast otherwise. */
export function createAudioClock(
  sampleRate: number,
  pace: boolean,
  options?: RealtimeAudioClockOptions,
): AudioClock {
  return pace ? new RealtimeAudioClock(sampleRate, options) : new FastAudioClock(sampleRate);
}
