/**
 * Speech synthesis through an OpenAI-compatible `POST {base}/audio/speech`
 * (`{model, input, voice, response_format: "pcm"}`, answered with raw 24 kHz
 * 16-bit little-endian mono): the response body is streamed, so audio is
 * yielded as the endpoint produces it. Endpoints whose PCM has another rate
 * are resampled to 24 kHz (`endpointSampleRate`).
 *
 * An endpoint that accepts the request and then hangs does not keep the bot
 * silent: the first byte is due within `firstByteTimeoutMs` (an attempt that
 * gets none is tried once more), and the whole call within `totalTimeoutMs` of
 * waiting; past either, the synthesis fails with a `SpeechEngineError`.
 */
import { abortReason } from '../../engine-errors.js';
import type { SpeechCreateParams } from 'openai/resources/audio/speech';
import {
  AudioCallDeadlines,
  FIRST_BYTE_TIMEOUT,
  createOpenAIAudioClient,
  toSpeechEngineError,
} from './openai-audio.js';
import type { AudioDeadlineOptions, OpenAIAudioOptions } from './openai-audio.js';
import { OUTPUT_SAMPLE_RATE } from '../../audio/pcm.js';
import { Resampler } from '../../audio/resampler.js';
import type { SynthesizeOptions, TextToSpeech } from '../../tts.js';

/** Options of the OpenAI-compatible synthesizer. */
export interface OpenAITtsOptions extends OpenAIAudioOptions, AudioDeadlineOptions {
  /** Model (default `tts-1`). */
  model?: string;
  /** Voice (default `alloy`). */
  voice?: string;
  /** Speaking speed 0.25-4 (sent only when set). */
  speed?: number;
  /** Style instructions for models that take them (sent only when set). */
  instructions?: string;
  /** Rate of the PCM the endpoint returns (default 24000, OpenAI's). */
  endpointSampleRate?: number;
  /** Output sample rate (default 24000). */
  sampleRate?: number;
}

/** What one attempt needs: the request body, the caller's signal and the call's deadlines. */
interface Attempt {
  request: SpeechCreateParams;
  signal: AbortSignal | undefined;
  deadlines: AudioCallDeadlines;
}

class OpenAITextToSpeech implements TextToSpeech {
  readonly name = 'openai';
  readonly sampleRate: number;
  private readonly client;
  private readonly timeoutMs: number;

  constructor(private readonly options: OpenAITtsOptions) {
    this.sampleRate = options.sampleRate ?? OUTPUT_SAMPLE_RATE;
    this.client = createOpenAIAudioClient(options);
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  async *synthesize(text: string, options: SynthesizeOptions = {}): AsyncIterable<Uint8Array> {
    const { signal } = options;
    if (signal?.aborted) throw abortReason(signal);
    const input = text.trim();
    if (input === '') return;
    const { speed, instructions } = this.options;
    const request: SpeechCreateParams = {
      model: this.options.model ?? 'tts-1',
      voice: this.options.voice ?? 'alloy',
      input,
      response_format: 'pcm',
      ...(speed === undefined ? {} : { speed }),
      ...(instructions === undefined ? {} : { instructions }),
    };
    const deadlines = new AudioCallDeadlines('openai-tts', this.options);
    const retries = Math.min(1, this.options.maxRetries ?? 2);
    for (let attempt = 0; ; attempt++) {
      let answered = false;
      try {
        for await (const chunk of this.attempt({ request, signal, deadlines })) {
          answered = true;
          yield chunk;
        }
        return;
      } catch (error) {
        // Only an attempt that never answered is tried again: the audio given so far was played.
        const again = !answered && attempt < retries && !deadlines.spent;
        if (!again || (error as { code?: unknown }).code !== FIRST_BYTE_TIMEOUT) throw error;
      }
    }
  }

  /** One request: its audio as the endpoint streams it, resampled, split samples rejoined. */
  private async *attempt({ request, signal, deadlines }: Attempt): AsyncIterable<Uint8Array> {
    if (signal?.aborted) throw abortReason(signal);
    const controller = new AbortController();
    const abort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', abort, { once: true });
    const cut = () => controller.abort(new Error('deadline passed'));
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    let resampler: Resampler | undefined;
    try {
      deadlines.startAttempt();
      reader = await deadlines.wait(this.request(request, controller.signal, signal), cut);
      const inputRate = this.options.endpointSampleRate ?? OUTPUT_SAMPLE_RATE;
      resampler = await Resampler.create({ inputRate, outputRate: this.sampleRate });
      let odd: number | undefined; // a sample split across two network chunks
      while (true) {
        const result = await deadlines.wait(this.read(reader, signal), () => {
          cut();
          void reader?.cancel().catch(() => {});
        });
        if (result.done) break;
        deadlines.firstByte();
        let bytes = result.value;
        if (odd !== undefined) {
          const joined = new Uint8Array(bytes.length + 1);
          joined[0] = odd;
          joined.set(bytes, 1);
          bytes = joined;
          odd = undefined;
        }
        if (bytes.length % 2 === 1) {
          odd = bytes[bytes.length - 1];
          bytes = bytes.subarray(0, bytes.length - 1);
        }
        const out = resampler.processPcm16(bytes);
        if (out.length > 0) yield out;
      }
      const tail = resampler.flushPcm16();
      if (tail.length > 0) yield tail;
    } finally {
      signal?.removeEventListener('abort', abort);
      resampler?.destroy();
      await reader?.cancel().catch(() => {});
    }
  }

  /** Send the request; its response body. */
  private async request(
    request: SpeechCreateParams,
    attemptSignal: AbortSignal,
    signal: AbortSignal | undefined,
  ): Promise<ReadableStreamDefaultReader<Uint8Array>> {
    try {
      const response = await this.client.audio.speech.create(request, { signal: attemptSignal });
      if (!response.body) throw new Error('speech response has no body');
      return response.body.getReader();
    } catch (error) {
      throw toSpeechEngineError('openai-tts', error, this.timeoutMs, signal);
    }
  }

  /** The next piece of the body. */
  private async read(
    reader: ReadableStreamDefaultReader<Uint8Array>,
    signal: AbortSignal | undefined,
  ): Promise<ReadableStreamReadResult<Uint8Array>> {
    let result: ReadableStreamReadResult<Uint8Array>;
    try {
      result = await reader.read();
    } catch (error) {
      throw toSpeechEngineError('openai-tts', error, this.timeoutMs, signal);
    }
    if (signal?.aborted) throw abortReason(signal);
    return result;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** A synthesizer calling an OpenAI-compatible `/audio/speech` endpoint. */
export function createOpenAITextToSpeech(options: OpenAITtsOptions = {}): TextToSpeech {
  return new OpenAITextToSpeech(options);
}
