/**
 * The bot's voice in one session: the reply's text streams in, each complete
 * sentence is synthesized while the previous one plays, and the audio goes
 * out in fixed-length frames timed by an {@link AudioClock} (real time for a
 * listener, sample-counted for evaluation). It emits the RTVI events Pipecat's
 * output emits around speech, in the same order:
 *
 * `bot-tts-started`, `bot-started-speaking` (first frame), per sentence after
 * its audio `bot-output {spoken: true}` and `bot-tts-text` (after the first
 * sentence of a reply with a leading space, so the pieces join into the reply's
 * text), then at the end of
 * the reply `bot-tts-stopped` and `bot-stopped-speaking`.
 *
 * A sentence the TTS fails on is reported to `onError` and still reaches the
 * client as text: `bot-output {spoken: false}` (no `bot-tts-text`, which
 * carries only what was spoken); the reply goes on with the next sentence.
 *
 * An interruption (barge-in, reset) drops the sentence playing and every
 * pending one at once.
 */
import type { ServerToClientMessageMap, ServerToClientType } from '@scenaro/sdk/protocol';
import { PcmChunker } from './audio/chunker.js';
import type { AudioClock } from './audio/clock.js';
import { msToSamples, pcm16FrameBytes } from './audio/pcm.js';
import { withoutUserStopTokens } from '../conversation/stop-tokens.js';
import { SentenceSplitter } from './sentences.js';
import { SpokenReply } from './spoken/spoken-reply.js';
import type { TextToSpeech } from './tts.js';
import { expectedSpeech } from './stt.js';
import type { ExpectedSpeech } from './stt.js';

/** Where a speaker's output goes. */
export interface SpeakerSink {
  /** Send one frame of mono PCM16; may return a promise to wait on before the next (back-pressure). */
  audio(pcm: Uint8Array, sampleRate: number): void | Promise<void>;
  /** Send an RTVI event. */
  emit<K extends ServerToClientType>(type: K, data?: ServerToClientMessageMap[K]): void;
}

/**
 * `sink`, calling `expect` when a sentence the bot says asks for a kind of answer the ear may
 * listen for ({@link expectedSpeech}: "Could you spell it for me?").
 */
export function promptingSink(
  expect: (speech: ExpectedSpeech) => void,
  sink: SpeakerSink,
): SpeakerSink {
  return {
    emit: (type, data) => {
      if (type === 'bot-tts-text') {
        const expected = expectedSpeech(String((data as { text?: unknown }).text ?? ''));
        if (expected) expect(expected);
      }
      sink.emit(type, data);
    },
    audio: (pcm, sampleRate) => sink.audio(pcm, sampleRate),
  };
}

/** Timing marks of one reply, in `performance.now()` milliseconds. */
export interface SpeechMarks {
  /** The first sentence was handed to the TTS. */
  ttsStart?: number;
  /** The TTS gave its first audio. */
  ttsFirstAudio?: number;
  /** The first frame was sent. */
  firstFrame?: number;
}

/** Options of a {@link BotSpeaker}. */
export interface BotSpeakerOptions {
  tts: TextToSpeech;
  sink: SpeakerSink;
  /** Paces the frames; its rate must be the TTS's. */
  clock: AudioClock;
  /** Frame duration. @default 40 */
  chunkMs?: number;
  /** How far ahead of its play time the clock lets a frame go (the clock's `leadMs`). @default 0 */
  leadMs?: number;
  /** Called on failures (the reply goes on without the failed sentence's audio). */
  onError?: (err: unknown, sentence: string) => void;
  /** Called when a reply's first frame goes out. */
  onFirstFrame?: (marks: SpeechMarks) => void;
  /**
   * Say each sentence as a person would ({@link SpokenReply}: no markup, code or JSON read out,
   * numbers, amounts, dates, codes and ids in words); `bot-output` keeps the written text and
   * `bot-tts-text` carries what was said. @default true
   */
  spokenForm?: boolean;
}

/** How long after its audio has played the bot stops speaking (Pipecat's `BOT_VAD_STOP_SECS`). */
export const STOPPED_SPEAKING_AFTER_MS = 350;

/** A sentence of a reply: as written, and as it is said. */
interface Sentence {
  text: string;
  spoken: string;
}

/** The next sentence, synthesized while the one before it plays. */
interface Synthesis {
  sentence: Sentence;
  started: number;
  /** When its first audio came. */
  firstAt?: number;
  chunks: Uint8Array[];
  done: Promise<void>;
}

/** Marks the end of a reply in the queue. */
const END_OF_REPLY = Symbol('end of reply');
type QueueItem = Sentence | typeof END_OF_REPLY;

function isAbort(err: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (err instanceof Error && err.name === 'AbortError');
}

/** One session's speech output. */
export class BotSpeaker {
  readonly #tts: TextToSpeech;
  readonly #sink: SpeakerSink;
  readonly #chunkMs: number;
  readonly #options: BotSpeakerOptions;
  #clock: AudioClock;
  #splitter = new SentenceSplitter();
  #queue: QueueItem[] = [];
  #running: Promise<void> | undefined;
  #controller = new AbortController();
  #ttsStarted = false;
  #speaking = false;
  #segment = 0;
  /** Sentences spoken in the current reply. */
  #spokenInReply = 0;
  #marks: SpeechMarks = {};
  #idleWaiters: (() => void)[] = [];
  #ahead: Synthesis | undefined;
  /** What each sentence of the reply is said as (undefined: as written). */
  readonly #reply: SpokenReply | undefined;

  constructor(options: BotSpeakerOptions) {
    this.#tts = options.tts;
    this.#sink = options.sink;
    this.#clock = options.clock;
    this.#chunkMs = options.chunkMs ?? 40;
    this.#options = options;
    this.#reply = options.spokenForm === false ? undefined : new SpokenReply();
    if (options.clock.sampleRate !== options.tts.sampleRate) {
      throw new RangeError(
        `the clock counts ${options.clock.sampleRate} Hz but the TTS speaks ${options.tts.sampleRate} Hz`,
      );
    }
  }

  /** Sample rate of the audio sent. */
  get sampleRate(): number {
    return this.#tts.sampleRate;
  }

  /** True while a reply is being spoken or waits to be. */
  get busy(): boolean {
    return this.#running !== undefined || this.#queue.length > 0;
  }

  /** True between `bot-started-speaking` and `bot-stopped-speaking`. */
  get speaking(): boolean {
    return this.#speaking;
  }

  /** Replace the clock (e.g. real time to fast); takes effect from the next frame. */
  setClock(clock: AudioClock): void {
    if (clock.sampleRate !== this.#tts.sampleRate) {
      throw new RangeError(`the clock must count ${this.#tts.sampleRate} Hz`);
    }
    this.#clock = clock;
  }

  /** More of the reply's text: every sentence it completes is queued to be spoken. */
  text(delta: string): void {
    this.#enqueue(this.#sentences(this.#splitter.push(delta)));
  }

  /** Speak what has been collected now (a pause in the reply, e.g. before a tool call). */
  flush(): void {
    this.#enqueue(this.#sentences(this.#splitter.flush()));
  }

  /** The reply is complete: speak the rest, then stop speaking once its audio has played. */
  end(): void {
    this.#enqueue([...this.#sentences(this.#splitter.flush()), END_OF_REPLY]);
    this.#reply?.reset();
  }

  /**
   * Written sentences with what each is said as, in order (a code block spans sentences). A
   * simulated user's stop token (`###STOP###`) is a signal to the evaluation, not speech: it is
   * never said, with the spoken form on or off, and a sentence of it alone goes out as text only.
   */
  #sentences(written: string[]): Sentence[] {
    return written.map((text) => {
      const said = withoutUserStopTokens(text);
      return { text, spoken: this.#reply ? this.#reply.say(said) : said };
    });
  }

  /** Speak a whole reply. */
  say(text: string): void {
    this.text(text);
    this.end();
  }

  /** Resolves once nothing is being spoken or waiting. */
  idle(): Promise<void> {
    if (!this.active) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /**
   * Stop speaking now: the sentence playing and all pending ones are dropped. Returns true when
   * something was being spoken or waited to be.
   */
  interrupt(): boolean {
    const active = this.active;
    this.#controller.abort(Object.assign(new Error('speech interrupted'), { name: 'AbortError' }));
    this.#controller = new AbortController();
    this.#queue = [];
    this.#ahead = undefined;
    this.#splitter.reset();
    this.#reply?.reset();
    this.#running = undefined;
    this.#finish();
    this.#settleIdle();
    return active;
  }

  /** True while speech is playing, being synthesized, or waiting to be. */
  get active(): boolean {
    return this.busy || this.#speaking || this.#ttsStarted || this.#splitter.pending;
  }

  #enqueue(items: QueueItem[]): void {
    if (items.length === 0) return;
    this.#queue.push(...items);
    if (this.#running) {
      this.#synthesizeNext(this.#controller.signal);
      return;
    }
    const run = this.#drain(this.#controller.signal).finally(() => {
      if (this.#running === run) this.#running = undefined;
      this.#settleIdle();
    });
    this.#running = run;
  }

  async #drain(signal: AbortSignal): Promise<void> {
    while (this.#queue.length > 0 && !signal.aborted) {
      const item = this.#queue.shift()!;
      try {
        if (item === END_OF_REPLY) {
          await this.#endOfReply(signal);
        } else {
          await this.#speak(item, signal);
        }
      } catch (err) {
        if (isAbort(err, signal)) return;
        if (item !== END_OF_REPLY) this.#unspoken(item, err);
      }
    }
  }

  async #speak(sentence: Sentence, signal: AbortSignal): Promise<void> {
    if (!sentence.spoken.trim()) {
      // Nothing of it is said (a code block, a table rule): it goes out as text only.
      this.#sink.emit('bot-output', {
        text: sentence.text,
        spoken: false,
        will_be_spoken: false,
        aggregated_by: 'sentence',
      });
      return;
    }
    const rate = this.#tts.sampleRate;
    const chunker = PcmChunker.forDuration(this.#chunkMs, rate);
    if (!this.#ttsStarted) {
      this.#ttsStarted = true;
      this.#marks = { ttsStart: performance.now() };
      this.#sink.emit('bot-tts-started');
    }
    const ahead = this.#ahead?.sentence === sentence ? this.#ahead : undefined;
    this.#ahead = undefined;
    if (ahead) await ahead.done;
    const started = ahead?.started ?? performance.now();
    let first = true;
    for await (const chunk of ahead?.chunks ?? this.#tts.synthesize(sentence.spoken, { signal })) {
      if (first) {
        first = false;
        const firstAt = ahead?.firstAt ?? performance.now();
        this.#marks.ttsFirstAudio ??= firstAt;
        this.#sink.emit('metrics', {
          ttfb: [{ processor: `${this.#tts.name}-tts`, value: (firstAt - started) / 1000 }],
        });
        // The next sentence is synthesized while this one plays.
        this.#synthesizeNext(signal);
      }
      for (const frame of chunker.push(chunk)) await this.#send(frame, signal);
    }
    for (const frame of chunker.flush()) await this.#send(frame, signal);
    if (signal.aborted) return;
    const segment = ++this.#segment;
    this.#sink.emit('bot-output', {
      text: sentence.text,
      spoken: true,
      will_be_spoken: true,
      aggregated_by: 'sentence',
      segment_id: String(segment),
      spoken_status: 'completed',
      spoken_progress: { accumulated_text: sentence.text, remaining_text: '' },
    });
    // Consumers that join the pieces as they come (NeMo's bridge does) get a readable transcript.
    this.#sink.emit('bot-tts-text', {
      text: this.#spokenInReply++ > 0 ? ` ${sentence.spoken}` : sentence.spoken,
    });
    this.#sink.emit('metrics', {
      characters: [{ processor: `${this.#tts.name}-tts`, value: sentence.spoken.length }],
    });
  }

  /** The TTS failed on `sentence`: its text goes out unspoken, and the failure is reported. */
  #unspoken(sentence: Sentence, err: unknown): void {
    this.#sink.emit('bot-output', {
      text: sentence.text,
      spoken: false,
      will_be_spoken: false,
      aggregated_by: 'sentence',
    });
    this.#options.onError?.(err, sentence.text);
  }

  /**
   * A frame of silence ends the reply (a browser's player drops the last partial 128-sample
   * buffer it was given: that way it drops silence); then, as Pipecat's output does,
   * `bot-stopped-speaking` follows {@link STOPPED_SPEAKING_AFTER_MS} after the audio has played
   * (on the real-time clock; at once on the fast one).
   */
  async #endOfReply(signal: AbortSignal): Promise<void> {
    if (this.#speaking) {
      await this.#send(new Uint8Array(pcm16FrameBytes(this.#chunkMs, this.sampleRate)), signal);
      const lead = this.#options.leadMs ?? 0;
      await this.#clock.advance(
        msToSamples(STOPPED_SPEAKING_AFTER_MS + lead, this.sampleRate),
        signal,
      );
      await this.#clock.advance(0, signal);
    }
    this.#finish();
  }

  /** Start synthesizing the sentence waiting next in the queue, if there is one. */
  #synthesizeNext(signal: AbortSignal): void {
    const next = this.#queue[0];
    if (next === undefined || next === END_OF_REPLY || this.#ahead || signal.aborted) return;
    if (!next.spoken.trim()) return;
    const ahead: Synthesis = {
      sentence: next,
      started: performance.now(),
      chunks: [],
      done: Promise.resolve(),
    };
    ahead.done = (async () => {
      for await (const chunk of this.#tts.synthesize(next.spoken, { signal })) {
        ahead.firstAt ??= performance.now();
        ahead.chunks.push(chunk);
      }
    })();
    // A failure surfaces when the sentence's turn comes.
    ahead.done.catch(() => undefined);
    this.#ahead = ahead;
  }

  async #send(frame: Uint8Array, signal: AbortSignal): Promise<void> {
    await this.#clock.advance(msToSamples(this.#chunkMs, this.#tts.sampleRate), signal);
    if (signal.aborted) return;
    if (!this.#speaking) {
      this.#speaking = true;
      this.#marks.firstFrame = performance.now();
      this.#sink.emit('bot-started-speaking');
      this.#options.onFirstFrame?.(this.#marks);
    }
    await this.#sink.audio(frame, this.#tts.sampleRate);
  }

  /** End of a reply (or an interruption): close the events that were opened. */
  #finish(): void {
    this.#spokenInReply = 0;
    if (this.#ttsStarted) {
      this.#ttsStarted = false;
      this.#sink.emit('bot-tts-stopped');
    }
    if (this.#speaking) {
      this.#speaking = false;
      this.#sink.emit('bot-stopped-speaking');
    }
  }

  #settleIdle(): void {
    if (this.active) return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
