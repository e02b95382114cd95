/**
 * The bot's ears in one session: the user's 16 kHz stream goes through the
 * VAD and, continuously, into one speech-to-text session. The VAD's
 * speech-start and speech-stop open and end utterances; each final
 * transcript becomes a user turn (in order, whatever order the engine
 * answers in). It emits the RTVI events Pipecat's input emits:
 * `user-started-speaking`, `user-stopped-speaking`, `user-transcription`
 * (interim and final) and the STT's `metrics`.
 *
 * Dictation (push-to-talk into the page's composer) takes the stream between
 * its start and end as one utterance whose text is returned instead of taking
 * a turn; its interim transcripts are sent as usual, so the page can show the
 * words in the composer as they are recognized. When its final transcript is
 * late, the end answers with the words heard so far.
 *
 * An utterance is at most `maxUtteranceMs` long: speech that never stops
 * (continuous noise, a VAD that hears no silence) is cut there, so neither the
 * recognizer nor the listener holds an ever-growing utterance. When the
 * stream breaks (the client went away), {@link UserListener.streamBroken}
 * ends the open utterance, so speech after a reconnect starts a new one.
 */
import { silentLogger } from '@scenaro/sdk';
import type { Logger } from '@scenaro/sdk';
import type { ServerToClientMessageMap, ServerToClientType } from '@scenaro/sdk/protocol';
import { msToSamples, samplesToMs } from './audio/pcm.js';
import type { ExpectedSpeech, SttSession, Transcript } from './stt.js';
import type { Vad, VadEvent } from './audio/vad.js';

/** Where a listener's events and turns go. */
export interface ListenerSink {
  emit<K extends ServerToClientType>(type: K, data?: ServerToClientMessageMap[K]): void;
  /**
   * The user started speaking (outside dictation) at `sample` of the stream: the place to stop
   * the bot (barge-in).
   */
  speechStarted(sample: number): void;
  /** A final, non-empty transcript outside dictation: the user's turn. */
  utterance(text: string, marks: UtteranceMarks): void;
  /**
   * The user spoke for at least {@link MIN_UNHEARD_MS} and the recognizer made out nothing (an
   * empty final), with no speech after it open or awaited: the place to ask them to say it again.
   */
  unheard?(marks: UtteranceMarks): void;
  /** The recognizer failed. */
  error(err: unknown): void;
}

/** Timing of one utterance, in `performance.now()` milliseconds. */
export interface UtteranceMarks {
  /** The VAD decided the speech had stopped. */
  vadStop: number;
  /** The final transcript arrived. */
  sttFinal: number;
  /** Where the speech ended in the stream, in samples. */
  endSample: number;
  /** Where it started, in samples. */
  startSample: number;
}

/** Options of a {@link UserListener}. */
export interface UserListenerOptions {
  vad: Vad;
  /** The session's recognizer; without one only the VAD events are emitted. */
  stt?: SttSession;
  /** Name of the STT in metrics, e.g. `pocketsphinx-stt`. */
  sttName?: string;
  sink: ListenerSink;
  /** `user_id` of `user-transcription`. */
  userId?: string;
  /**
   * Longest utterance, in ms (default {@link DEFAULT_MAX_UTTERANCE_MS}). Speech that goes on
   * longer is ended there (its transcript is taken as usual: a turn, or part of the dictation)
   * and the next utterance starts at once; listening goes on.
   */
  maxUtteranceMs?: number;
  /**
   * How long {@link UserListener.endDictation} waits for the final transcript, in ms (default
   * {@link DEFAULT_DICTATION_FINAL_MS}); when the final is later, the dictation is answered with
   * the latest interim words.
   */
  dictationFinalMs?: number;
  /** Where cut utterances and late dictation finals are logged (default: nowhere). */
  logger?: Logger;
  /** Called once an utterance's final transcript has been handed on (or failed). */
  onSettled?: () => void;
}

/** Default longest utterance: a minute. */
export const DEFAULT_MAX_UTTERANCE_MS = 60_000;

/** Shortest speech whose empty transcript counts as unheard (shorter: a noise, a cough). */
export const MIN_UNHEARD_MS = 1_000;

/**
 * Default wait for a dictation's final transcript: well inside the 15 s the page gives
 * `composer_end_dictation`, so a late recognizer still answers in time.
 */
export const DEFAULT_DICTATION_FINAL_MS = 10_000;

/** One recognizer utterance of a dictation (a dictation longer than the maximum has several). */
interface DictationPart {
  utterance: number;
  /** The latest words heard: interim, then final. */
  text: string;
  /** Set once the part is ended. */
  final?: Promise<Transcript>;
}

interface Dictation {
  id: string;
  parts: DictationPart[];
}

/** One session's speech input. */
export class UserListener {
  readonly #vad: Vad;
  readonly #stt: SttSession | undefined;
  readonly #sink: ListenerSink;
  readonly #sttName: string;
  readonly #userId: string;
  readonly #maxUtterance: number;
  readonly #dictationFinalMs: number;
  readonly #logger: Logger;
  /** True while a VAD utterance is open in the recognizer. */
  #vadUtterance = false;
  /** Where the recognizer's open utterance (VAD or dictation) started, in samples. */
  #utteranceStart: number | undefined;
  /** Stream position of the VAD's sample 0 (the VAD starts over when the stream breaks). */
  #vadBase = 0;
  #dictation: Dictation | undefined;
  /** Dictation parts whose final has not arrived, by utterance number. */
  readonly #parts = new Map<number, DictationPart>();
  /** Finals are delivered in utterance order. */
  #delivery: Promise<void> = Promise.resolve();
  /** The ended utterances whose finals are still awaited, in order. */
  readonly #awaited: { startSample: number; endSample: number }[] = [];
  readonly #onSettled: (() => void) | undefined;
  #closed = false;
  readonly #unsubscribe: (() => void) | undefined;

  constructor(options: UserListenerOptions) {
    this.#vad = options.vad;
    this.#stt = options.stt;
    this.#sink = options.sink;
    this.#sttName = options.sttName ?? `${options.stt ? 'stt' : 'none'}`;
    this.#userId = options.userId ?? 'user';
    const maxMs = options.maxUtteranceMs ?? DEFAULT_MAX_UTTERANCE_MS;
    if (!(maxMs > 0)) throw new RangeError(`maxUtteranceMs must be positive, got ${maxMs}`);
    this.#maxUtterance = msToSamples(maxMs, options.vad.sampleRate);
    this.#dictationFinalMs = options.dictationFinalMs ?? DEFAULT_DICTATION_FINAL_MS;
    this.#logger = options.logger ?? silentLogger;
    this.#onSettled = options.onSettled;
    this.#unsubscribe = options.stt?.onTranscript((t) => this.#onTranscript(t));
  }

  /** True between the VAD's speech-start and speech-stop. */
  get speaking(): boolean {
    return this.#vad.speaking;
  }

  /** Samples heard so far. */
  get samples(): number {
    return this.#vadBase + this.#vad.samples;
  }

  /** The ended utterances whose final transcripts are still awaited, oldest first. */
  get awaiting(): readonly { startSample: number; endSample: number }[] {
    return this.#awaited;
  }

  /** True while a dictation is open. */
  get dictating(): boolean {
    return this.#dictation !== undefined;
  }

  /**
   * Hear mono PCM16 at the VAD's rate (the continuous stream, silence included). A returned
   * promise is the recognizer's back-pressure: it resolves once the recognizer has taken the audio.
   */
  write(pcm: Uint8Array): void | Promise<void> {
    if (this.#closed) return;
    const events = this.#vad.process(pcm);
    let taken: void | Promise<void> = undefined;
    try {
      taken = this.#stt?.write(pcm);
    } catch (err) {
      this.#sink.error(err);
    }
    for (const event of events) this.#onVad(event);
    this.#cutLongUtterance();
    return taken?.catch((err: unknown) => this.#sink.error(err));
  }

  /**
   * The stream broke (the client went away): an open utterance ends here and takes its turn
   * when it has words, and the VAD starts over, so speech after the break opens a new utterance
   * instead of continuing the one before it. An open dictation stays open (its end or cancel
   * comes from the page).
   */
  streamBroken(): void {
    if (this.#closed) return;
    const speaking = this.#vad.speaking;
    this.#vadBase += this.#vad.samples;
    this.#vad.reset();
    if (speaking) this.#sink.emit('user-stopped-speaking');
    if (!this.#vadUtterance || !this.#stt) return;
    this.#endVadUtterance(this.#stt.samples);
  }

  #onVad(event: VadEvent): void {
    const sample = this.#vadBase + event.sample;
    if (event.type === 'speech-start') {
      this.#sink.emit('user-started-speaking');
      if (this.#dictation) return;
      if (this.#stt) {
        this.#stt.startUtterance(sample);
        this.#vadUtterance = true;
        this.#utteranceStart = sample;
      }
      this.#sink.speechStarted(sample);
      return;
    }
    this.#sink.emit('user-stopped-speaking');
    if (!this.#vadUtterance || !this.#stt) return;
    this.#endVadUtterance(sample);
  }

  /** End the open VAD utterance at `sample`; its final becomes a turn. */
  #endVadUtterance(sample: number): void {
    const start = this.#utteranceStart ?? sample;
    this.#vadUtterance = false;
    this.#utteranceStart = undefined;
    const vadStop = performance.now();
    this.#deliver(this.#stt!.endUtterance(sample), vadStop, {
      startSample: start,
      endSample: sample,
    });
  }

  /** An utterance that reached the maximum length ends here and the next one starts. */
  #cutLongUtterance(): void {
    const stt = this.#stt;
    const start = this.#utteranceStart;
    if (!stt || start === undefined || stt.samples - start < this.#maxUtterance) return;
    const at = stt.samples;
    this.#logger.info(
      { seconds: samplesToMs(at - start, stt.sampleRate) / 1000, dictation: this.dictating },
      'utterance reached its maximum length; ended there, listening goes on',
    );
    const dictation = this.#dictation;
    if (dictation) {
      this.#endPart(dictation, at);
      this.#startPart(dictation, at);
      return;
    }
    this.#endVadUtterance(at);
    stt.startUtterance(at);
    this.#vadUtterance = true;
    this.#utteranceStart = at;
  }

  #onTranscript(t: Transcript): void {
    const part = this.#parts.get(t.utterance);
    if (part) part.text = t.text;
    if (t.final) {
      this.#parts.delete(t.utterance);
      return;
    }
    // A dictation cut into parts shows the words of all its parts so far.
    const parts = this.#dictation?.parts ?? [];
    const whole = part !== undefined && parts.length > 1 && parts.includes(part);
    this.#transcription(whole ? joinParts(parts) : t.text, false);
  }

  /** Hand `final` to the sink after every earlier one. */
  #deliver(
    final: Promise<Transcript>,
    vadStop: number,
    span: { startSample: number; endSample: number },
  ): void {
    this.#awaited.push(span);
    this.#delivery = this.#delivery.then(async () => {
      try {
        await this.#handOn(final, vadStop, span);
      } finally {
        this.#awaited.shift();
        this.#onSettled?.();
      }
    });
  }

  async #handOn(
    final: Promise<Transcript>,
    vadStop: number,
    span: { startSample: number; endSample: number },
  ): Promise<void> {
    let transcript: Transcript;
    try {
      transcript = await final;
    } catch (err) {
      if (!this.#closed) this.#sink.error(err);
      return;
    }
    if (this.#closed) return;
    const sttFinal = performance.now();
    this.#metrics(transcript, sttFinal - vadStop);
    this.#transcription(transcript.text, true);
    const text = transcript.text.trim();
    const marks = { vadStop, sttFinal, ...span };
    if (text) this.#sink.utterance(text, marks);
    else if (this.#unheard(span)) this.#sink.unheard?.(marks);
  }

  /** Was `span`, heard as nothing, speech long enough to ask again, with nothing after it? */
  #unheard(span: { startSample: number; endSample: number }): boolean {
    const ms = samplesToMs(span.endSample - span.startSample, this.#vad.sampleRate);
    return (
      ms >= MIN_UNHEARD_MS && !this.#vadUtterance && !this.#dictation && this.#awaited.length === 1
    );
  }

  #metrics(transcript: Transcript, ttfbMs: number): void {
    const seconds =
      transcript.endSample === undefined
        ? 0
        : samplesToMs(transcript.endSample - transcript.startSample, this.#vad.sampleRate) / 1000;
    this.#sink.emit('metrics', {
      ttfb: [{ processor: this.#sttName, value: ttfbMs / 1000 }],
      stt_usage: [{ processor: this.#sttName, value: { audio_seconds: seconds } }],
    });
  }

  #transcription(text: string, final: boolean): void {
    this.#sink.emit('user-transcription', {
      text,
      user_id: this.#userId,
      timestamp: new Date().toISOString(),
      final,
    });
  }

  /**
   * Start a dictation: from now the stream is one utterance that takes no turn. An open
   * conversational utterance is ended first (it still takes its turn).
   */
  startDictation(id: string): void {
    if (!this.#stt) throw new Error('speech input is unavailable');
    if (this.#dictation) throw new Error(`dictation ${this.#dictation.id} is already open`);
    if (this.#vadUtterance) this.#endVadUtterance(this.#stt.samples);
    const dictation: Dictation = { id, parts: [] };
    this.#startPart(dictation, this.#stt.samples);
    this.#dictation = dictation;
  }

  /**
   * End dictation `id`: its final transcript. When the final takes longer than
   * `dictationFinalMs`, the words heard so far (the latest interim transcript) instead.
   */
  async endDictation(id: string): Promise<string> {
    const dictation = this.#openDictation(id);
    this.#dictation = undefined;
    this.#endPart(dictation, this.#stt!.samples);
    const finals = Promise.all(dictation.parts.map((p) => p.final!));
    const transcripts = await this.#within(finals, this.#dictationFinalMs);
    if (transcripts) return joinParts(transcripts);
    for (const part of dictation.parts) this.#parts.delete(part.utterance);
    const heard = joinParts(dictation.parts);
    this.#logger.warn(
      { dictationId: id, waitedMs: this.#dictationFinalMs, heard },
      'dictation final transcript is late; answered with the interim words',
    );
    return heard;
  }

  /** Cancel dictation `id`: what was said is discarded. */
  cancelDictation(id: string): void {
    const dictation = this.#openDictation(id);
    this.#dictation = undefined;
    this.#endPart(dictation, this.#stt!.samples);
    for (const part of dictation.parts) this.#parts.delete(part.utterance);
  }

  /** Open a new recognizer utterance for `dictation` at `sample`. */
  #startPart(dictation: Dictation, sample: number): void {
    const part: DictationPart = { utterance: this.#stt!.startUtterance(sample), text: '' };
    dictation.parts.push(part);
    this.#parts.set(part.utterance, part);
    this.#utteranceStart = sample;
  }

  /** End the open part of `dictation` at `sample`. */
  #endPart(dictation: Dictation, sample: number): void {
    const part = dictation.parts.at(-1)!;
    part.final = this.#stt!.endUtterance(sample);
    // Its failure is the dictation's end's to report (or no one's, once cancelled).
    part.final.catch(() => undefined);
    this.#utteranceStart = undefined;
  }

  /** What `promise` resolves to, or undefined when it has not settled after `ms`. */
  async #within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), ms);
    });
    try {
      return await Promise.race([promise, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  #openDictation(id: string): Dictation {
    const dictation = this.#dictation;
    if (!dictation) throw new Error(`no dictation is open (got ${id})`);
    if (dictation.id !== id) {
      throw new Error(`dictation ${id} is not the open one (${dictation.id})`);
    }
    return dictation;
  }

  /**
   * The other side said `text`, its audio now wholly written: for a recognizer that is told what
   * was said (the oracle). False when the recognizer hears for itself.
   */
  told(text: string): boolean {
    if (this.#closed || !this.#stt?.told) return false;
    this.#stt.told(text);
    return true;
  }

  /** The bot has just asked for `speech`: the recognizer may listen for it in the next utterance. */
  expect(speech: ExpectedSpeech): void {
    if (!this.#closed) this.#stt?.expect?.(speech);
  }

  /** Stop listening; the recognizer session is closed. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#parts.clear();
    this.#unsubscribe?.();
    this.#vad.close();
    await this.#stt?.close();
  }
}

/** The words of a dictation's parts (or transcripts), in order, joined by single spaces. */
function joinParts(parts: ReadonlyArray<{ text: string }>): string {
  return parts
    .map((p) => p.text.trim())
    .filter((text) => text !== '')
    .join(' ');
}
