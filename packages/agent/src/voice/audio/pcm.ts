/**
 * PCM16 audio as it travels on the wire: signed 16-bit little-endian samples,
 * interleaved when there is more than one channel. Conversions to and from
 * `Int16Array` and `Float32Array` (-1..1), a stereo-to-mono downmix, and the
 * sample/millisecond arithmetic the voice code shares.
 */

/** The rate audio arrives at from the user (Pipecat's default input). */
export const INPUT_SAMPLE_RATE = 16_000;
/** The rate audio leaves at towards the user. */
export const OUTPUT_SAMPLE_RATE = 24_000;
/** Duration of one incoming chunk (512 bytes at 16 kHz mono). */
export const INPUT_CHUNK_MS = 16;
/** Duration of one outgoing chunk. */
export const OUTPUT_CHUNK_MS = 40;

/** A block of PCM16 audio with its format. */
export interface PcmAudio {
  /** PCM16 little-endian bytes, interleaved by channel. */
  pcm: Uint8Array;
  sampleRate: number;
  channels: number;
}

/** The samples of a PCM16 little-endian buffer (an odd trailing byte is ignored). */
export function pcm16ToInt16(pcm: Uint8Array): Int16Array {
  const out = new Int16Array(pcm.length >> 1);
  for (let i = 0, j = 0; i < out.length; i++, j += 2) {
    out[i] = ((pcm[j]! | (pcm[j + 1]! << 8)) << 16) >> 16;
  }
  return out;
}

/** PCM16 little-endian bytes of the samples. */
export function int16ToPcm16(samples: Int16Array): Uint8Array {
  const out = new Uint8Array(samples.length * 2);
  for (let i = 0, j = 0; i < samples.length; i++, j += 2) {
    const s = samples[i]!;
    out[j] = s & 0xff;
    out[j + 1] = (s >> 8) & 0xff;
  }
  return out;
}

/** Samples scaled to -1..1 (divided by 32768). */
export function int16ToFloat32(samples: Int16Array): Float32Array {
  const out = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = samples[i]! / 32768;
  return out;
}

/** Samples from -1..1, clipped, rounded to the nearest 16-bit value. */
export function float32ToInt16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const v = Math.round(samples[i]! * 32768);
    out[i] = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
  }
  return out;
}

/** PCM16 bytes as floats in -1..1. */
export function pcm16ToFloat32(pcm: Uint8Array): Float32Array {
  return int16ToFloat32(pcm16ToInt16(pcm));
}

/** Floats in -1..1 as PCM16 bytes. */
export function float32ToPcm16(samples: Float32Array): Uint8Array {
  return int16ToPcm16(float32ToInt16(samples));
}

/** Interleaved samples of `channels` channels averaged into one channel. */
export function downmixToMono(samples: Int16Array, channels: number): Int16Array {
  if (!Number.isInteger(channels) || channels < 1) {
    throw new RangeError(`channels must be a positive integer, got ${channels}`);
  }
  if (channels === 1) return samples.slice();
  const frames = Math.floor(samples.length / channels);
  const out = new Int16Array(frames);
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    for (let c = 0; c < channels; c++) sum += samples[f * channels + c]!;
    out[f] = Math.round(sum / channels);
  }
  return out;
}

/** PCM16 bytes of `channels` interleaved channels downmixed to mono PCM16 bytes. */
export function downmixPcm16ToMono(pcm: Uint8Array, channels: number): Uint8Array {
  return channels === 1 ? pcm : int16ToPcm16(downmixToMono(pcm16ToInt16(pcm), channels));
}

/** Number of samples (per channel) in `ms` milliseconds at `sampleRate`, rounded. */
export function msToSamples(ms: number, sampleRate: number): number {
  return Math.round((ms * sampleRate) / 1000);
}

/** Milliseconds of audio in `samples` samples (per channel) at `sampleRate`. */
export function samplesToMs(samples: number, sampleRate: number): number {
  return (samples * 1000) / sampleRate;
}

/** Bytes of one PCM16 frame of `ms` milliseconds. */
export function pcm16FrameBytes(ms: number, sampleRate: number, channels = 1): number {
  return msToSamples(ms, sampleRate) * 2 * channels;
}

/** A buffer of `samples` samples of digital silence. */
export function silencePcm16(samples: number, channels = 1): Uint8Array {
  return new Uint8Array(samples * 2 * channels);
}

/** Concatenate byte chunks. */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const c of chunks) length += c.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
}
