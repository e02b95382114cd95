/**
 * Building blocks of the synthetic sounds: coloured noise, envelopes, tones, a speech-like
 * "murmur" voice (a pulse train through moving vowel formants, in syllables and phrases, with
 * no words), level normalization and seamless loops. Everything draws from a {@link Prng}, so a
 * sound is the same on every run.
 */
import { bandPass, butterworth } from './filters.js';
import type { Prng } from './prng.js';

/** A float buffer of `seconds` at `sampleRate`. */
export const buffer = (seconds: number, sampleRate: number): Float64Array =>
  new Float64Array(Math.max(0, Math.round(seconds * sampleRate)));

/** Gaussian white noise. */
export function white(length: number, rng: Prng): Float64Array {
  return Float64Array.from({ length }, () => rng.gaussian());
}

/** Pink-ish noise (-3 dB/octave): white noise through a bank of leaky integrators. */
export function pink(length: number, rng: Prng, sampleRate: number): Float64Array {
  // Poles spread over the audio band; equal weights give a roughly 1/f slope.
  const corners = [20, 80, 320, 1280, 5120].map((hz) => Math.exp((-2 * Math.PI * hz) / sampleRate));
  const state = new Float64Array(corners.length);
  const out = new Float64Array(length);
  for (let i = 0; i < length; i++) {
    const x = rng.gaussian();
    let sum = 0;
    for (let k = 0; k < corners.length; k++) {
      state[k] = corners[k]! * state[k]! + (1 - corners[k]!) * x * 2 ** (k / 2);
      sum += state[k]!;
    }
    out[i] = sum + 0.1 * x;
  }
  return out;
}

/** Brown noise (-6 dB/octave): leaky-integrated white noise. */
export function brown(length: number, rng: Prng, sampleRate: number): Float64Array {
  const leak = Math.exp((-2 * Math.PI * 10) / sampleRate);
  const out = new Float64Array(length);
  let y = 0;
  for (let i = 0; i < length; i++) {
    y = leak * y + rng.gaussian() * 0.05;
    out[i] = y;
  }
  return out;
}

/** Filter a float buffer through a Butterworth low- or high-pass. */
export function pass(
  samples: Float64Array,
  type: 'lowpass' | 'highpass',
  hz: number,
  sampleRate: number,
  order = 2,
): Float64Array {
  return butterworth(type, hz, sampleRate, order).run(samples);
}

/** Filter through a resonant band-pass. */
export function band(
  samples: Float64Array,
  hz: number,
  q: number,
  sampleRate: number,
): Float64Array {
  const filter = bandPass(hz, sampleRate, q);
  return samples.map((x) => filter.step(x));
}

/** Multiply by an attack-decay envelope (linear attack, exponential decay to -60 dB). */
export function attackDecay(
  samples: Float64Array,
  attackS: number,
  decayS: number,
  sampleRate: number,
) {
  const attack = Math.max(1, attackS * sampleRate);
  const decay = Math.max(1, decayS * sampleRate);
  return samples.map(
    (x, i) => x * (i < attack ? i / attack : Math.exp((-6.9 * (i - attack)) / decay)),
  );
}

/** Fade the first and last `seconds` linearly. */
export function fadeEdges(
  samples: Float64Array,
  seconds: number,
  sampleRate: number,
): Float64Array {
  const n = Math.min(Math.round(seconds * sampleRate), Math.floor(samples.length / 2));
  for (let i = 0; i < n; i++) {
    samples[i]! *= i / n;
    samples[samples.length - 1 - i]! *= i / n;
  }
  return samples;
}

/** Add `source` into `target` from `at` (clipped to the target). */
export function addAt(target: Float64Array, source: ArrayLike<number>, at: number, gain = 1): void {
  const start = Math.max(0, at);
  const end = Math.min(target.length, at + source.length);
  for (let i = start; i < end; i++) target[i]! += gain * source[i - at]!;
}

/** A sum of sine partials `[hz, amplitude]` of `seconds`. */
export function partials(
  pairs: readonly (readonly [number, number])[],
  seconds: number,
  sampleRate: number,
) {
  const out = buffer(seconds, sampleRate);
  for (const [hz, amplitude] of pairs) {
    const w = (2 * Math.PI * hz) / sampleRate;
    for (let i = 0; i < out.length; i++) out[i]! += amplitude * Math.sin(w * i);
  }
  return out;
}

/** Scale to a peak of `peak` (fraction of full scale) as 16-bit samples. */
export function toPcm(samples: Float64Array, peak = 0.7): Int16Array {
  let max = 0;
  for (const x of samples) max = Math.max(max, Math.abs(x));
  const gain = max > 0 ? (peak * 32767) / max : 0;
  return Int16Array.from(samples, (x) => Math.round(x * gain));
}

/** A loop that repeats without a click: the tail is cross-faded into the head. */
export function seamlessLoop(
  samples: Float64Array,
  fadeS: number,
  sampleRate: number,
): Float64Array {
  const fade = Math.min(Math.round(fadeS * sampleRate), Math.floor(samples.length / 3));
  const out = samples.slice(0, samples.length - fade);
  for (let i = 0; i < fade; i++) {
    const t = i / fade;
    out[i] = samples[i]! * Math.sqrt(t) + samples[samples.length - fade + i]! * Math.sqrt(1 - t);
  }
  return out;
}

/** Vowel formants (F1, F2, F3), Hz. */
const VOWELS: readonly (readonly [number, number, number])[] = [
  [730, 1090, 2440],
  [530, 1840, 2480],
  [270, 2290, 3010],
  [570, 840, 2410],
  [300, 870, 2240],
  [660, 1720, 2410],
  [490, 1350, 1690],
];

/** A talker of {@link murmur}. */
export interface MurmurVoice {
  /** Mean pitch, Hz. */
  pitchHz: number;
  /** Syllables per second. */
  syllableRate: number;
  /** Formant scale (1 adult male, ~1.15 female). */
  formantScale: number;
}

/**
 * Speech-like sound without words: phrases of syllables, each a vowel with a voiced pulse train
 * and sometimes a noisy consonant, with pauses between phrases when `pauses` is set.
 */
export function murmur(
  seconds: number,
  voice: MurmurVoice,
  rng: Prng,
  sampleRate: number,
  pauses = true,
): Float64Array {
  const out = buffer(seconds, sampleRate);
  let position = 0;
  let phase = 0;
  while (position < out.length) {
    const syllables = pauses ? 3 + rng.int(8) : 1_000_000;
    for (let s = 0; s < syllables && position < out.length; s++) {
      const length = Math.round((sampleRate / voice.syllableRate) * rng.uniform(0.7, 1.3));
      const vowel = rng.pick(VOWELS);
      const consonant = rng.chance(0.6) ? Math.round(length * rng.uniform(0.1, 0.3)) : 0;
      const formants = vowel.map((hz, k) =>
        bandPass(hz * voice.formantScale, sampleRate, 4 + 2 * k),
      );
      const pitch = voice.pitchHz * rng.uniform(0.85, 1.15);
      for (let i = 0; i < length && position + i < out.length; i++) {
        const t = i / length;
        const envelope = Math.sin(Math.PI * Math.min(1, t * 1.15)) ** 0.6;
        let source: number;
        if (i < consonant) {
          source = rng.gaussian() * 0.25;
        } else {
          phase += (pitch * (1 - 0.15 * t)) / sampleRate;
          source = phase % 1 < 0.08 ? 1 : -0.05; // a narrow glottal pulse
        }
        const voiced =
          formants[0]!.step(source) +
          0.6 * formants[1]!.step(source) +
          0.25 * formants[2]!.step(source);
        out[position + i] = envelope * voiced;
      }
      position += length;
    }
    if (pauses) position += Math.round(sampleRate * rng.uniform(0.25, 0.9));
  }
  return out;
}
