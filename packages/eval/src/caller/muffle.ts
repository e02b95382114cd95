/**
 * Muffling: the caller's voice through a low-pass filter, as when they turn from the phone or
 * cover it. Dynamic muffling fades the filtered voice in over a transition, holds it for a
 * segment and fades back out; the filter runs on every sample so it is settled when a segment
 * starts. Off-axis speech (a phrase said to someone in the room) is muffled and quieter.
 */
import { butterworth } from './filters.js';
import type { BiquadCascade } from './filters.js';
import { clip16 } from './mixing.js';

/** Off-axis rendering: how much quieter and how muffled. */
export interface OffAxisSpec {
  /** Gain, dB (default -10). */
  gainDb?: number;
  /** Low-pass cutoff, Hz (default 1000). */
  cutoffHz?: number;
}

export const OFF_AXIS_GAIN_DB = -10;
export const OFF_AXIS_CUTOFF_HZ = 1000;

/** A whole buffer through a Butterworth low-pass (pure, causal). */
export function lowPass(
  samples: Int16Array,
  sampleRate: number,
  cutoffHz: number,
  order = 4,
): Int16Array {
  const filter = butterworth('lowpass', cutoffHz, sampleRate, order);
  return Int16Array.from(samples, (x) => clip16(filter.step(x)));
}

/** A stretch of muffling: full strength over [start, end), fading over `transition` either side. */
export interface MuffleSegment {
  start: number;
  end: number;
}

/** How much of the filtered voice is heard at `position` (0..1) for one segment. */
export function muffleAmount(position: number, segment: MuffleSegment, transition: number): number {
  if (position >= segment.start && position < segment.end) return 1;
  if (transition <= 0) return 0;
  if (position < segment.start) {
    const lead = segment.start - position;
    return lead <= transition ? 1 - lead / transition : 0;
  }
  const trail = position - segment.end + 1;
  return trail <= transition ? 1 - trail / transition : 0;
}

/** Streaming muffler: blends the low-passed voice in by the amount given per sample. */
export class Muffler {
  readonly #filter: BiquadCascade;

  constructor(sampleRate: number, cutoffHz: number) {
    this.#filter = butterworth('lowpass', cutoffHz, sampleRate, 4);
  }

  step(x: number, amount: number): number {
    const filtered = this.#filter.step(x);
    return amount <= 0 ? x : amount >= 1 ? filtered : x + amount * (filtered - x);
  }
}

/** Muffle `segments` of a whole buffer (pure), fading over `transitionMs`. */
export function muffleSegments(
  samples: Int16Array,
  sampleRate: number,
  segments: readonly MuffleSegment[],
  cutoffHz: number,
  transitionMs: number,
): Int16Array {
  const muffler = new Muffler(sampleRate, cutoffHz);
  const transition = Math.round((transitionMs * sampleRate) / 1000);
  return Int16Array.from(samples, (x, i) => {
    let amount = 0;
    for (const segment of segments) amount = Math.max(amount, muffleAmount(i, segment, transition));
    return clip16(muffler.step(x, amount));
  });
}

/** Speech said away from the phone: low-passed and attenuated (pure). */
export function renderOffAxis(
  samples: Int16Array,
  sampleRate: number,
  spec: OffAxisSpec = {},
): Int16Array {
  const gain = 10 ** ((spec.gainDb ?? OFF_AXIS_GAIN_DB) / 20);
  const filter = butterworth('lowpass', spec.cutoffHz ?? OFF_AXIS_CUTOFF_HZ, sampleRate, 4);
  return Int16Array.from(samples, (x) => clip16(gain * filter.step(x)));
}
