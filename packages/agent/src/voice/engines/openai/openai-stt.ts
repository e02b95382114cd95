/**
 * Speech recognition through an OpenAI-compatible
 * `POST {base}/audio/transcriptions` (multipart: a WAV `file`, `model`,
 * `response_format: json`), as OpenAI, vLLM and speaches serve it. The
 * session keeps the recent stream; when the caller ends an utterance, its
 * audio (with `paddingMs` of context on both sides) is sent as one 16 kHz
 * WAV file. No interim transcripts. The audio kept is bounded: of an
 * utterance longer than `maxUtteranceMs` only the end is kept and sent.
 * A transcription the endpoint keeps waiting longer than `totalTimeoutMs`
 * (retries included, a stalled body too) is cut and its final fails.
 */
import { toFile } from 'openai';
import {
  AudioCallDeadlines,
  DEFAULT_TOTAL_TIMEOUT_MS,
  createOpenAIAudioClient,
  toSpeechEngineError,
} from './openai-audio.js';
import type { OpenAIAudioOptions } from './openai-audio.js';
import { AudioHistory } from '../../audio/audio-history.js';
import { INPUT_SAMPLE_RATE, msToSamples } from '../../audio/pcm.js';
import type { SpeechToText, SttSession, SttSessionOptions } from '../../stt.js';
import { UtteranceSession } from '../../utterance-session.js';
import type { TrackedUtterance } from '../../utterance-session.js';
import { encodeWav } from '../../audio/wav.js';

/** Options of the OpenAI-compatible recognizer. */
export interface OpenAISttOptions extends OpenAIAudioOptions {
  /** Model (default `whisper-1`). */
  model?: string;
  /** Language hint sent as `language` (a session's own option wins). */
  language?: string;
  /** Text sent as `prompt` (vocabulary, spelling hints). */
  prompt?: string;
  /** Audio kept before an utterance's start and after its end (default 300 ms). */
  paddingMs?: number;
  /**
   * Longest utterance kept whole, in ms (default 60 s, the listener's own maximum): of a longer
   * one only its last `maxUtteranceMs` are kept and sent, so a session never holds more than
   * this (plus padding), whatever the caller does.
   */
  maxUtteranceMs?: number;
  /**
   * Longest the endpoint may keep one transcription waiting, its retries and the reading of its
   * answer included; past it the request is aborted and the utterance's final fails (a
   * `SpeechEngineError` coded `timeout`). @default 30000
   */
  totalTimeoutMs?: number;
}

/** Audio kept between utterances, before the padding of the next one. */
const IDLE_KEEP_MS = 1000;

class OpenAISttSession extends UtteranceSession {
  private readonly history = new AudioHistory();
  private readonly padding: number;
  /** Most samples kept, whatever the open utterance's length. */
  private readonly maxKept: number;

  constructor(
    private readonly client: ReturnType<typeof createOpenAIAudioClient>,
    private readonly options: OpenAISttOptions,
    private readonly language: string | undefined,
  ) {
    super(INPUT_SAMPLE_RATE);
    this.padding = msToSamples(options.paddingMs ?? 300, INPUT_SAMPLE_RATE);
    const maxUtterance = msToSamples(options.maxUtteranceMs ?? 60_000, INPUT_SAMPLE_RATE);
    this.maxKept = maxUtterance + 2 * this.padding + msToSamples(IDLE_KEEP_MS, INPUT_SAMPLE_RATE);
  }

  /** PCM bytes the session holds. */
  get bufferedBytes(): number {
    return this.history.bytes;
  }

  protected onAudio(pcm: Uint8Array): void {
    this.history.append(pcm);
    // Between utterances only the padding before the next one is needed.
    const keepFrom = this.current ? this.current.startSample : this.history.samples;
    const idle = msToSamples(IDLE_KEEP_MS, INPUT_SAMPLE_RATE);
    this.history.dropBefore(
      Math.max(keepFrom - this.padding - idle, this.history.samples - this.maxKept),
    );
  }

  protected async transcribe(utterance: TrackedUtterance): Promise<string> {
    const pcm = this.history.slice(
      Math.max(0, utterance.startSample - this.padding),
      (utterance.endSample ?? this.history.samples) + this.padding,
    );
    const wav = encodeWav({ pcm, sampleRate: INPUT_SAMPLE_RATE, channels: 1 });
    const { prompt } = this.options;
    const timeoutMs = this.options.timeoutMs ?? 30_000;
    // A transcription's answer comes whole: only the call's total waiting time is bounded.
    const total = this.options.totalTimeoutMs ?? DEFAULT_TOTAL_TIMEOUT_MS;
    const deadlines = new AudioCallDeadlines('openai-stt', { totalTimeoutMs: total });
    const controller = new AbortController();
    try {
      const request = this.client.audio.transcriptions.create(
        {
          file: await toFile(wav, `utterance-${utterance.utterance}.wav`, { type: 'audio/wav' }),
          model: this.options.model ?? 'whisper-1',
          response_format: 'json',
          ...(this.language === undefined ? {} : { language: this.language }),
          ...(prompt === undefined ? {} : { prompt }),
        },
        { signal: controller.signal },
      );
      const result = await deadlines.wait(request, () => controller.abort());
      return result.text.trim();
    } catch (error) {
      if (deadlines.spent || controller.signal.aborted) throw error;
      throw toSpeechEngineError('openai-stt', error, timeoutMs);
    }
  }

  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }
}

/** A recognizer calling an OpenAI-compatible `/audio/transcriptions` endpoint per utterance. */
export function createOpenAISpeechToText(options: OpenAISttOptions = {}): SpeechToText {
  const client = createOpenAIAudioClient(options);
  return {
    name: 'openai',
    sampleRate: INPUT_SAMPLE_RATE,
    check: () => Promise.resolve(),
    openSession: (session: SttSessionOptions = {}): Promise<SttSession> =>
      Promise.resolve(new OpenAISttSession(client, options, session.language ?? options.language)),
    close: () => Promise.resolve(),
  };
}
