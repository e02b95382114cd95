/**
 * Speech synthesis through an OpenAI-compatible `POST {base}/audio/speech`
 * (`{model, input, voice, response_format: "pcm"}`, answered with raw 24 kHz
 * 16-bit little-endian mono): the response body is streamed, so audio is
 * yielded as the endpoint produces it. Endpoints whose PCM has another rate
 * are resampled to 24 kHz (`endpointSampleRate`).
 */
import { abortReason } from './engine-errors.js';
import { createOpenAIAudioClient, toSpeechEngineError } from './openai-audio.js';
import type { OpenAIAudioOptions } from './openai-audio.js';
import { OUTPUT_SAMPLE_RATE } from './pcm.js';
import { Resampler } from './resampler.js';
import type { SynthesizeOptions, TextToSpeech } from './tts.js';

/** Options of the OpenAI-compatible synthesizer. */
export interface OpenAITtsOptions extends OpenAIAudioOptions {
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
    let body: ReadableStream<Uint8Array>;
    try {
      const response = await this.client.audio.speech.create(
        {
          model: this.options.model ?? 'tts-1',
          voice: this.options.voice ?? 'alloy',
          input,
          response_format: 'pcm',
          ...(speed === undefined ? {} : { speed }),
          ...(instructions === undefined ? {} : { instructions }),
        },
        signal ? { signal } : {},
      );
      if (!response.body) throw new Error('speech response has no body');
      body = response.body;
    } catch (error) {
      throw toSpeechEngineError('openai-tts', error, this.timeoutMs, signal);
    }
    const inputRate = this.options.endpointSampleRate ?? OUTPUT_SAMPLE_RATE;
    const resampler = await Resampler.create({ inputRate, outputRate: this.sampleRate });
    const reader = body.getReader();
    let odd: number | undefined; // a sample split across two network chunks
    try {
      while (true) {
        let result: Awaited<ReturnType<typeof reader.read>>;
        try {
          result = await reader.read();
        } catch (error) {
          throw toSpeechEngineError('openai-tts', error, this.timeoutMs, signal);
        }
        if (signal?.aborted) throw abortReason(signal);
        if (result.done) break;
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
      resampler.destroy();
      await reader.cancel().catch(() => {});
    }
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** A synthesizer calling an OpenAI-compatible `/audio/speech` endpoint. */
export function createOpenAITextToSpeech(options: OpenAITtsOptions = {}): TextToSpeech {
  return new OpenAITextToSpeech(options);
}
