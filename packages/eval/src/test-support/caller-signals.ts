/**
 * Signals and measurements shared by the caller-effects tests: tones, seeded white noise, RMS,
 * and the power a band of frequencies holds (a plain FFT).
 *
 * @internal
 */
import { Prng } from '../caller/prng.js';

/** A sine tone of `amplitude` (peak, 16-bit scale). */
export function tone(
  hz: number,
  seconds: number,
  sampleRate: number,
  amplitude = 10000,
): Int16Array {
  const n = Math.round(seconds * sampleRate);
  return Int16Array.from({ length: n }, (_, i) =>
    Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / sampleRate)),
  );
}

/** Seeded Gaussian white noise of RMS `rms`. */
export function whiteNoise(samples: number, rms: number, seed: number): Int16Array {
  const rng = new Prng(seed, 'test-noise');
  return Int16Array.from({ length: samples }, () =>
    Math.max(-32768, Math.min(32767, Math.round(rng.gaussian() * rms))),
  );
}

/** Root mean square of samples (optionally a range). */
export function rmsOf(samples: ArrayLike<number>, start = 0, end = samples.length): number {
  let sum = 0;
  for (let i = start; i < end; i++) sum += samples[i]! * samples[i]!;
  return end > start ? Math.sqrt(sum / (end - start)) : 0;
}

/** In-place radix-2 FFT of (re, im), length a power of two. */
function fft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j]!, re[i]!];
      [im[i], im[j]] = [im[j]!, im[i]!];
    }
  }
  for (let size = 2; size <= n; size <<= 1) {
    const angle = (-2 * Math.PI) / size;
    for (let start = 0; start < n; start += size) {
      for (let k = 0; k < size / 2; k++) {
        const wr = Math.cos(angle * k);
        const wi = Math.sin(angle * k);
        const a = start + k;
        const b = a + size / 2;
        const tr = re[b]! * wr - im[b]! * wi;
        const ti = re[b]! * wi + im[b]! * wr;
        re[b] = re[a]! - tr;
        im[b] = im[a]! - ti;
        re[a]! += tr;
        im[a]! += ti;
      }
    }
  }
}

/**
 * Fraction of the power of `samples` (Hann-windowed frames of 4096, averaged) that lies at or
 * above `fromHz`.
 */
export function powerFractionAbove(
  samples: Int16Array,
  sampleRate: number,
  fromHz: number,
): number {
  const size = 4096;
  let above = 0;
  let total = 0;
  for (let start = 0; start + size <= samples.length; start += size / 2) {
    const re = new Float64Array(size);
    const im = new Float64Array(size);
    for (let i = 0; i < size; i++) {
      re[i] = samples[start + i]! * (0.5 - 0.5 * Math.cos((2 * Math.PI * i) / size));
    }
    fft(re, im);
    for (let k = 1; k <= size / 2; k++) {
      const power = re[k]! * re[k]! + im[k]! * im[k]!;
      total += power;
      if ((k * sampleRate) / size >= fromHz) above += power;
    }
  }
  return total > 0 ? above / total : 0;
}

/** Whether two sample buffers hold the same bytes (fast, unlike a deep equality). */
export function sameSamples(a: Int16Array, b: Int16Array): boolean {
  return (
    a.length === b.length &&
    Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(
      Buffer.from(b.buffer, b.byteOffset, b.byteLength),
    )
  );
}
