/**
 * Sample-rate conversion with the Speex resampler (SpeexDSP's windowed-sinc
 * polyphase filter, compiled to WASM): its low-pass filter removes what the
 * lower rate cannot carry before downsampling. A {@link Resampler} is
 * stateful, so a stream can be converted chunk by chunk without clicks at
 * chunk boundaries; the output is aligned with the input (the filter's delay
 * is skipped) and `flush()` drains the filter's tail.
 */
import { int16ToPcm16, pcm16ToInt16 } from './pcm.js';

/** Speex quality 0-10 (10 best and slowest); 6 is transparent for speech. */
export const DEFAULT_RESAMPLER_QUALITY = 6;

/** The part of the Emscripten module (the package ships no types) used here. */
interface SpeexResamplerModule {
  HEAPU8: Uint8Array;
  HEAP16: Int16Array;
  HEAPU32: Uint32Array;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  _speex_resampler_init(
    channels: number,
    inRate: number,
    outRate: number,
    quality: number,
    errPtr: number,
  ): number;
  _speex_resampler_process_interleaved_int(
    state: number,
    inPtr: number,
    inLenPtr: number,
    outPtr: number,
    outLenPtr: number,
  ): number;
  _speex_resampler_skip_zeros(state: number): number;
  _speex_resampler_get_input_latency(state: number): number;
  _speex_resampler_destroy(state: number): void;
}

// A specifier in a variable: the package has no type declarations to resolve.
const SPEEX_PACKAGE = '@echogarden/speex-resampler-wasm';
let speex: Promise<SpeexResamplerModule> | undefined;

function loadSpeex(): Promise<SpeexResamplerModule> {
  speex ??= (
    import(SPEEX_PACKAGE) as Promise<{ default: () => Promise<SpeexResamplerModule> }>
  ).then((m) => m.default());
  return speex;
}

/** How to build a {@link Resampler}. */
export interface ResamplerOptions {
  inputRate: number;
  outputRate: number;
  /** Interleaved channels (default 1). */
  channels?: number;
  /** Speex quality 0-10 (default {@link DEFAULT_RESAMPLER_QUALITY}). */
  quality?: number;
}

/** A streaming converter of interleaved 16-bit samples from one rate to another. */
export class Resampler {
  readonly inputRate: number;
  readonly outputRate: number;
  readonly channels: number;
  private inputFrames = 0;
  private outputFrames = 0;
  private state = 0;

  private constructor(
    private readonly speex: SpeexResamplerModule | undefined,
    options: Required<ResamplerOptions>,
  ) {
    this.inputRate = options.inputRate;
    this.outputRate = options.outputRate;
    this.channels = options.channels;
    if (speex) {
      const errPtr = speex._malloc(4);
      try {
        this.state = speex._speex_resampler_init(
          options.channels,
          options.inputRate,
          options.outputRate,
          options.quality,
          errPtr,
        );
        if (this.state === 0) throw new Error('speex_resampler_init failed');
        speex._speex_resampler_skip_zeros(this.state);
      } finally {
        speex._free(errPtr);
      }
    }
  }

  /** A resampler (the WASM module is loaded once per process). Equal rates copy samples through. */
  static async create(options: ResamplerOptions): Promise<Resampler> {
    const resolved = {
      channels: 1,
      quality: DEFAULT_RESAMPLER_QUALITY,
      ...options,
    };
    for (const key of ['inputRate', 'outputRate', 'channels'] as const) {
      if (!Number.isInteger(resolved[key]) || resolved[key] <= 0) {
        throw new RangeError(`${key} must be a positive integer, got ${resolved[key]}`);
      }
    }
    if (!Number.isInteger(resolved.quality) || resolved.quality < 0 || resolved.quality > 10) {
      throw new RangeError(`quality must be an integer 0-10, got ${resolved.quality}`);
    }
    const same = resolved.inputRate === resolved.outputRate;
    return new Resampler(same ? undefined : await loadSpeex(), resolved);
  }

  /** Converted samples for `samples` (interleaved); some output may wait for later input. */
  process(samples: Int16Array): Int16Array {
    if (samples.length % this.channels !== 0) {
      throw new RangeError(`sample count ${samples.length} is not a multiple of ${this.channels}`);
    }
    const frames = samples.length / this.channels;
    this.inputFrames += frames;
    if (!this.speex) {
      this.outputFrames += frames;
      return samples.slice();
    }
    return this.run(samples, frames);
  }

  /** The filter's remaining output: the stream's converted length is then exact. */
  flush(): Int16Array {
    if (!this.speex || this.state === 0) return new Int16Array(0);
    const expected = Math.round((this.inputFrames * this.outputRate) / this.inputRate);
    const missing = expected - this.outputFrames;
    if (missing <= 0) return new Int16Array(0);
    const latency = this.speex._speex_resampler_get_input_latency(this.state);
    const zeros = new Int16Array((latency + 1) * this.channels);
    const tail = this.run(zeros, latency + 1);
    this.outputFrames = expected;
    return tail.subarray(0, missing * this.channels);
  }

  /** PCM16 bytes converted (see {@link process}). */
  processPcm16(pcm: Uint8Array): Uint8Array {
    return int16ToPcm16(this.process(pcm16ToInt16(pcm)));
  }

  /** PCM16 bytes of {@link flush}. */
  flushPcm16(): Uint8Array {
    return int16ToPcm16(this.flush());
  }

  /** Free the WASM state; the resampler cannot be used afterwards. */
  destroy(): void {
    if (this.speex && this.state !== 0) this.speex._speex_resampler_destroy(this.state);
    this.state = 0;
  }

  private run(samples: Int16Array, frames: number): Int16Array {
    const speex = this.speex!;
    if (this.state === 0) throw new Error('resampler destroyed');
    const capacity = Math.ceil((frames * this.outputRate) / this.inputRate) + 16;
    const inPtr = speex._malloc(Math.max(2, samples.length * 2));
    const outPtr = speex._malloc(capacity * this.channels * 2);
    const lenPtr = speex._malloc(8);
    const out: Int16Array[] = [];
    let total = 0;
    try {
      speex.HEAP16.set(samples, inPtr >> 1);
      let done = 0;
      while (done < frames) {
        speex.HEAPU32[lenPtr >> 2] = frames - done;
        speex.HEAPU32[(lenPtr >> 2) + 1] = capacity;
        const err = speex._speex_resampler_process_interleaved_int(
          this.state,
          inPtr + done * this.channels * 2,
          lenPtr,
          outPtr,
          lenPtr + 4,
        );
        if (err !== 0) throw new Error(`speex resampler error ${err}`);
        const consumed = speex.HEAPU32[lenPtr >> 2]!;
        const produced = speex.HEAPU32[(lenPtr >> 2) + 1]!;
        const start = outPtr >> 1;
        out.push(speex.HEAP16.slice(start, start + produced * this.channels));
        total += produced;
        done += consumed;
        if (consumed === 0 && produced === 0) break;
      }
    } finally {
      speex._free(inPtr);
      speex._free(outPtr);
      speex._free(lenPtr);
    }
    this.outputFrames += total;
    if (out.length === 1) return out[0]!;
    const joined = new Int16Array(total * this.channels);
    let offset = 0;
    for (const part of out) {
      joined.set(part, offset);
      offset += part.length;
    }
    return joined;
  }
}

/** Convert a whole PCM16 buffer from `inputRate` to `outputRate` (same length in time). */
export async function resamplePcm16(
  pcm: Uint8Array,
  inputRate: number,
  outputRate: number,
  channels = 1,
): Promise<Uint8Array> {
  if (inputRate === outputRate) return pcm.slice();
  const resampler = await Resampler.create({ inputRate, outputRate, channels });
  try {
    const body = resampler.process(pcm16ToInt16(pcm));
    const tail = resampler.flush();
    const all = new Int16Array(body.length + tail.length);
    all.set(body);
    all.set(tail, body.length);
    return int16ToPcm16(all);
  } finally {
    resampler.destroy();
  }
}
