/**
 * Mixing sounds into the caller's speech at a signal-to-noise ratio. The ratio is taken against
 * a speech level: the speech's own RMS for a whole buffer ({@link mixAtSnr}), or, while
 * streaming, a fixed reference level ({@link SPEECH_REFERENCE_RMS}, what a synthesized voice
 * typically reaches in 16-bit PCM), since the noise goes on while the caller is silent. A
 * sound's level is its RMS over the whole sound, so a burst keeps its own dynamics.
 *
 * The background's ratio drifts: {@link SnrDrift} moves smoothly between seeded random targets
 * within +-drift dB of the mean, `speed` new targets a second.
 */
import { Prng } from './prng.js';

/** The speech level background and bursts are scaled against while streaming (16-bit RMS). */
export const SPEECH_REFERENCE_RMS = 3000;
/** Below this RMS a sound counts as silent and is not scaled up. */
const MIN_RMS = 1e-3;

/** Root mean square of samples. */
export function rms(samples: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += samples[i]! * samples[i]!;
  return samples.length > 0 ? Math.sqrt(sum / samples.length) : 0;
}

/** The gain that puts a sound of RMS `soundRms` at `snrDb` below `referenceRms` (0 if silent). */
export function snrGain(
  snrDb: number,
  soundRms: number,
  referenceRms = SPEECH_REFERENCE_RMS,
): number {
  return soundRms < MIN_RMS ? 0 : (referenceRms / soundRms) * 10 ** (-snrDb / 20);
}

/** Round and clip to 16 bits. */
export function clip16(x: number): number {
  return x > 32767 ? 32767 : x < -32768 ? -32768 : Math.round(x);
}

/**
 * `noise` (looped as needed) mixed into `speech` so that speech RMS / noise RMS is `snrDb`.
 * `referenceRms` replaces the speech's measured RMS as the speech level.
 */
export function mixAtSnr(
  speech: Int16Array,
  noise: Int16Array,
  snrDb: number,
  referenceRms = rms(speech),
): Int16Array {
  if (noise.length === 0) throw new RangeError('noise is empty');
  const gain = snrGain(snrDb, rms(noise), referenceRms);
  const out = new Int16Array(speech.length);
  for (let i = 0; i < speech.length; i++) {
    out[i] = clip16(speech[i]! + gain * noise[i % noise.length]!);
  }
  return out;
}

/** How the background's ratio drifts. */
export interface DriftSpec {
  /** Mean ratio, dB. */
  snrDb: number;
  /** Largest distance from the mean, dB. */
  driftDb: number;
  /** New drift targets per second (0: no drift). */
  speed: number;
}

/**
 * A seeded, smooth SNR curve over a stream: cosine-interpolated random targets in
 * [snr - drift, snr + drift]. Read it at non-decreasing sample positions.
 */
export class SnrDrift {
  readonly #spec: DriftSpec;
  readonly #sampleRate: number;
  readonly #rng: Prng;
  /** Index of the target `#from` (targets sit at k / speed seconds). */
  #segment = 0;
  #from: number;
  #to: number;

  constructor(spec: DriftSpec, sampleRate: number, seed: number) {
    this.#spec = spec;
    this.#sampleRate = sampleRate;
    this.#rng = Prng.stream(seed, 'snr-drift');
    this.#from = this.#target();
    this.#to = this.#target();
  }

  #target(): number {
    return this.#rng.uniform(-1, 1);
  }

  /** The ratio at sample `position`, dB. */
  at(position: number): number {
    const { snrDb, driftDb, speed } = this.#spec;
    if (driftDb === 0 || speed === 0) return snrDb;
    const t = (position / this.#sampleRate) * speed;
    const segment = Math.floor(t);
    if (segment < this.#segment) throw new RangeError('SnrDrift is read forwards only');
    while (this.#segment < segment) {
      this.#from = this.#to;
      this.#to = this.#target();
      this.#segment++;
    }
    const blend = (1 - Math.cos(Math.PI * (t - segment))) / 2;
    return snrDb + driftDb * (this.#from + (this.#to - this.#from) * blend);
  }
}

/** The drifting ratio at each of `samples` positions from the stream's start, dB. */
export function driftingSnrEnvelope(
  samples: number,
  sampleRate: number,
  spec: DriftSpec,
  seed: number,
): Float64Array {
  const drift = new SnrDrift(spec, sampleRate, seed);
  return Float64Array.from({ length: samples }, (_, i) => drift.at(i));
}

/**
 * `noise` (looped from `offset`) mixed into `speech` at a drifting ratio against
 * `referenceRms`; returns the mix and the noise as added.
 */
export function mixWithDriftingSnr(
  speech: Int16Array,
  noise: Int16Array,
  spec: DriftSpec,
  seed: number,
  options: { sampleRate: number; referenceRms?: number; offset?: number },
): { mix: Int16Array; added: Float64Array } {
  if (noise.length === 0) throw new RangeError('noise is empty');
  const drift = new SnrDrift(spec, options.sampleRate, seed);
  const noiseRms = rms(noise);
  const reference = options.referenceRms ?? SPEECH_REFERENCE_RMS;
  const offset = options.offset ?? 0;
  const mix = new Int16Array(speech.length);
  const added = new Float64Array(speech.length);
  for (let i = 0; i < speech.length; i++) {
    added[i] = snrGain(drift.at(i), noiseRms, reference) * noise[(offset + i) % noise.length]!;
    mix[i] = clip16(speech[i]! + added[i]!);
  }
  return { mix, added };
}

/** The samples of `parts` one after another. */
export function concat(parts: readonly Float64Array[]): Float64Array {
  const out = new Float64Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
