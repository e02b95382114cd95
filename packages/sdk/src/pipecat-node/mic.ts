/**
 * A microphone for the real `@pipecat-ai/websocket-transport` in Node, fed from PCM we give it.
 *
 * A browser's recorder hands the transport mono PCM16 at the recorder rate (16 kHz) in chunks of
 * 512 bytes (256 samples, 16 ms), continuously while the mic is on, silence included. This mic
 * does the same through the callback the transport registered with its media manager
 * (`setUserAudioCallback`), so the frames on the wire are the transport's own.
 *
 * - `pace: 'realtime'`: a clock delivers one chunk per chunk duration (divided by `speed`) from
 *   the media manager's `connect()` to its `disconnect()`: queued audio when there is some,
 *   silence otherwise, as a live microphone does.
 * - `pace: 'fast'`: `play` / `silence` hand their chunks over at once (one per event-loop turn)
 *   and nothing is sent between calls. A tail shorter than a chunk waits for the next call, as
 *   in the browser's recorder; `flush()` sends it.
 */

/** How the microphone delivers its chunks. */
export type MicPace = 'realtime' | 'fast';

/** Options of {@link NodeMicrophone}. */
export interface MicOptions {
  /** @default 'realtime' */
  pace?: MicPace;
  /** With `pace: 'realtime'`, how many times faster than real time the clock runs. @default 1 */
  speed?: number;
  /** Bytes per chunk handed to the transport (the browser's recorder uses 512). @default 512 */
  chunkBytes?: number;
}

/** One chunk the microphone produced. */
export interface MicChunk {
  /** When it was handed over, in ms on the client's clock. */
  at: number;
  /** Samples in the chunk. */
  samples: number;
  /** Whether any of its samples came from `play` (not from `silence` or an idle clock). */
  voiced: boolean;
  /** False while the mic is disabled (`enableMic(false)`): the chunk was dropped, not sent. */
  delivered: boolean;
}

interface Pending {
  pcm: Int16Array;
  offset: number;
  /** When it was queued: a real-time chunk due earlier (a late clock catching up) is silence. */
  queuedAt: number;
  voiced: boolean;
  done: () => void;
}

const yieldTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The microphone; the media manager owns it and wires it to the transport. */
export class NodeMicrophone {
  readonly sampleRate: number;
  readonly pace: MicPace;
  readonly speed: number;
  readonly chunkSamples: number;
  /** Every chunk produced, in order. */
  readonly chunks: MicChunk[] = [];
  /** Whether chunks reach the transport (the media manager's `enableMic`). */
  enabled = true;

  private readonly queue: Pending[] = [];
  private sink: ((data: ArrayBuffer) => void) | undefined;
  private live = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private draining: Promise<void> = Promise.resolve();

  constructor(
    sampleRate: number,
    private readonly now: () => number,
    options: MicOptions = {},
  ) {
    const chunkBytes = options.chunkBytes ?? 512;
    if (!Number.isInteger(chunkBytes) || chunkBytes <= 0 || chunkBytes % 2 !== 0) {
      throw new RangeError(`chunkBytes must be a positive even integer, got ${chunkBytes}`);
    }
    const speed = options.speed ?? 1;
    if (!(speed > 0)) throw new RangeError(`speed must be positive, got ${speed}`);
    this.sampleRate = sampleRate;
    this.pace = options.pace ?? 'realtime';
    this.speed = speed;
    this.chunkSamples = chunkBytes / 2;
  }

  /** Duration of one chunk in ms of audio. */
  get chunkMs(): number {
    return (this.chunkSamples * 1000) / this.sampleRate;
  }

  /** Samples waiting to be sent. */
  get queuedSamples(): number {
    return this.queue.reduce((sum, p) => sum + p.pcm.length - p.offset, 0);
  }

  /** Samples sent so far (delivered chunks only). */
  get sentSamples(): number {
    return this.chunks.reduce((sum, c) => sum + (c.delivered ? c.samples : 0), 0);
  }

  /**
   * Speak `pcm` (PCM16 mono at {@link sampleRate}). Resolves once its last sample went to the
   * transport (`'fast'`: once every full chunk did; a shorter tail waits for the next call).
   */
  play(pcm: Int16Array): Promise<void> {
    return this.enqueue(pcm, true);
  }

  /** Queue `ms` of silence (with `'realtime'` the idle clock sends silence anyway). */
  silence(ms: number): Promise<void> {
    return this.enqueue(new Int16Array(Math.round((ms * this.sampleRate) / 1000)), false);
  }

  /** Send what is queued now, the last chunk shorter if need be (what pausing a recorder does). */
  flush(): void {
    if (!this.live) return;
    while (this.queue.length > 0) {
      this.deliver(this.take(Math.min(this.chunkSamples, this.queuedSamples), false));
    }
  }

  /** Wire the transport's user-audio callback (`setUserAudioCallback`). */
  attach(sink: (data: ArrayBuffer) => void): void {
    this.sink = sink;
  }

  /** Start recording (the media manager's `connect()`). */
  start(): void {
    if (this.live) return;
    this.live = true;
    if (this.pace === 'realtime') this.startClock();
    else this.kickDrain();
  }

  /** Stop recording (the media manager's `disconnect()`); queued audio is dropped. */
  stop(): void {
    this.live = false;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    for (const pending of this.queue.splice(0)) pending.done();
  }

  private enqueue(pcm: Int16Array, voiced: boolean): Promise<void> {
    const done = new Promise<void>((resolve) => {
      if (pcm.length === 0) resolve();
      else this.queue.push({ pcm, offset: 0, queuedAt: this.now(), voiced, done: resolve });
    });
    if (this.pace === 'realtime') return done;
    this.kickDrain();
    return this.draining;
  }

  private kickDrain(): void {
    this.draining = this.draining.then(async () => {
      while (this.live && this.queuedSamples >= this.chunkSamples) {
        this.deliver(this.take(this.chunkSamples, false));
        await yieldTurn();
      }
    });
  }

  private startClock(): void {
    const period = this.chunkMs / this.speed;
    let next = this.now() + period;
    const tick = (): void => {
      if (!this.live) return;
      while (next <= this.now()) {
        this.deliver(this.take(this.chunkSamples, true, next));
        next += period;
      }
      this.timer = setTimeout(tick, Math.max(0, next - this.now()));
    };
    this.timer = setTimeout(tick, period);
  }

  /**
   * Take `count` samples off the queue (zero-padded when `pad`), resolving finished items. With
   * `dueAt`, audio queued after that time is left for a later chunk.
   */
  private take(
    count: number,
    pad: boolean,
    dueAt = Infinity,
  ): { pcm: Int16Array; voiced: boolean; done: (() => void)[] } {
    const available = Math.min(count, this.queuedSamples);
    const pcm = new Int16Array(pad ? count : available);
    const done: (() => void)[] = [];
    let voiced = false;
    let filled = 0;
    while (filled < available) {
      const head = this.queue[0] as Pending;
      if (head.offset === 0 && head.queuedAt > dueAt) break;
      const n = Math.min(available - filled, head.pcm.length - head.offset);
      pcm.set(head.pcm.subarray(head.offset, head.offset + n), filled);
      voiced ||= head.voiced;
      head.offset += n;
      filled += n;
      if (head.offset === head.pcm.length) {
        this.queue.shift();
        done.push(head.done);
      }
    }
    return { pcm, voiced, done };
  }

  private deliver(chunk: { pcm: Int16Array; voiced: boolean; done: (() => void)[] }): void {
    const delivered = this.enabled && this.sink !== undefined;
    this.chunks.push({
      at: this.now(),
      samples: chunk.pcm.length,
      voiced: chunk.voiced,
      delivered,
    });
    if (delivered) this.sink?.(chunk.pcm.buffer as ArrayBuffer);
    for (const done of chunk.done) done();
  }
}
