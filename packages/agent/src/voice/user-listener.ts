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
 * words in the composer as they are recognized.
 */
import type { ServerToClientMessageMap, ServerToClientType } from '@scenaro/sdk/protocol';
import { samplesToMs } from './pcm.js';
import type { SttSession, Transcript } from './stt.js';
import type { Vad, VadEvent } from './vad.js';

/** Where a listener's events and turns go. */
export interface ListenerSink {
  emit<K extends ServerToClientType>(type: K, data?: ServerToClientMessageMap[K]): void;
  /** The user started speaking (outside dictation): the place to stop the bot (barge-in). */
  speechStarted(): void;
  /** A final, non-empty transcript outside dictation: the user's turn. */
  utterance(text: string, marks: UtteranceMarks): void;
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
}

interface Dictation {
  id: string;
}

/** One session's speech input. */
export class UserListener {
  readonly #vad: Vad;
  readonly #stt: SttSession | undefined;
  readonly #sink: ListenerSink;
  readonly #sttName: string;
  readonly #userId: string;
  /** True while a VAD utterance is open in the recognizer. */
  #vadUtterance = false;
  #dictation: Dictation | undefined;
  /** Finals are delivered in utterance order. */
  #delivery: Promise<void> = Promise.resolve();
  #closed = false;
  readonly #unsubscribe: (() => void) | undefined;

  constructor(options: UserListenerOptions) {
    this.#vad = options.vad;
    this.#stt = options.stt;
    this.#sink = options.sink;
    this.#sttName = options.sttName ?? `${options.stt ? 'stt' : 'none'}`;
    this.#userId = options.userId ?? 'user';
    this.#unsubscribe = options.stt?.onTranscript((t) => {
      if (t.final) return;
      this.#transcription(t.text, false);
    });
  }

  /** True between the VAD's speech-start and speech-stop. */
  get speaking(): boolean {
    return this.#vad.speaking;
  }

  /** Samples heard so far. */
  get samples(): number {
    return this.#vad.samples;
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
    return taken?.catch((err: unknown) => this.#sink.error(err));
  }

  #onVad(event: VadEvent): void {
    if (event.type === 'speech-start') {
      this.#sink.emit('user-started-speaking');
      if (this.#dictation) return;
      if (this.#stt) {
        this.#stt.startUtterance(event.sample);
        this.#vadUtterance = true;
      }
      this.#sink.speechStarted();
      return;
    }
    this.#sink.emit('user-stopped-speaking');
    if (!this.#vadUtterance || !this.#stt) return;
    this.#vadUtterance = false;
    const vadStop = performance.now();
    const final = this.#stt.endUtterance(event.sample);
    this.#deliver(final, vadStop, event.sample);
  }

  /** Hand `final` to the sink after every earlier one. */
  #deliver(final: Promise<Transcript>, vadStop: number, endSample: number): void {
    this.#delivery = this.#delivery.then(async () => {
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
      if (transcript.text.trim()) {
        this.#sink.utterance(transcript.text.trim(), { vadStop, sttFinal, endSample });
      }
    });
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
    if (this.#vadUtterance) {
      this.#vadUtterance = false;
      this.#deliver(this.#stt.endUtterance(), performance.now(), this.#stt.samples);
    }
    this.#stt.startUtterance();
    this.#dictation = { id };
  }

  /** End dictation `id`: its final transcript. */
  async endDictation(id: string): Promise<string> {
    this.#openDictation(id);
    this.#dictation = undefined;
    const transcript = await this.#stt!.endUtterance();
    return transcript.text.trim();
  }

  /** Cancel dictation `id`: what was said is discarded. */
  cancelDictation(id: string): void {
    this.#openDictation(id);
    this.#dictation = undefined;
    this.#stt!.endUtterance().catch(() => undefined);
  }

  #openDictation(id: string): Dictation {
    const dictation = this.#dictation;
    if (!dictation) throw new Error(`no dictation is open (got ${id})`);
    if (dictation.id !== id) {
      throw new Error(`dictation ${id} is not the open one (${dictation.id})`);
    }
    return dictation;
  }

  /** Stop listening; the recognizer session is closed. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#unsubscribe?.();
    this.#vad.close();
    await this.#stt?.close();
  }
}
