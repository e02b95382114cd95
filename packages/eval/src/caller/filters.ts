/**
 * The filters the caller effects are built from, all streaming (state carried from one sample to
 * the next, so a stream filtered in chunks equals the stream filtered at once):
 *
 * - {@link Biquad} sections and {@link butterworth} cascades (low-pass or high-pass, even order),
 *   designed by the bilinear transform: muffling and the telephone band's low edge;
 * - {@link FirFilter} with a Kaiser-windowed sinc {@link designLowPassFir}: linear phase, used for
 *   the telephone band limit before and after the 8 kHz channel.
 */

/** Second-order IIR section (transposed direct form II). */
export class Biquad {
  #z1 = 0;
  #z2 = 0;

  constructor(
    readonly b0: number,
    readonly b1: number,
    readonly b2: number,
    readonly a1: number,
    readonly a2: number,
  ) {}

  /** Filter one sample. */
  step(x: number): number {
    const y = this.b0 * x + this.#z1;
    this.#z1 = this.b1 * x - this.a1 * y + this.#z2;
    this.#z2 = this.b2 * x - this.a2 * y;
    return y;
  }

  /** A fresh section with the same coefficients and no state. */
  clone(): Biquad {
    return new Biquad(this.b0, this.b1, this.b2, this.a1, this.a2);
  }
}

/** A low- or high-pass biquad at `cutoffHz` with quality `q`. */
export function biquad(
  type: 'lowpass' | 'highpass',
  cutoffHz: number,
  sampleRate: number,
  q: number,
): Biquad {
  const nyquist = sampleRate / 2;
  const f = Math.min(Math.max(cutoffHz, 1), nyquist * 0.99);
  const w = (2 * Math.PI * f) / sampleRate;
  const cos = Math.cos(w);
  const alpha = Math.sin(w) / (2 * q);
  const a0 = 1 + alpha;
  const b1 = type === 'lowpass' ? 1 - cos : -(1 + cos);
  const b0 = type === 'lowpass' ? b1 / 2 : -b1 / 2;
  return new Biquad(b0 / a0, b1 / a0, b0 / a0, (-2 * cos) / a0, (1 - alpha) / a0);
}

/** A band-pass biquad around `centerHz` (0 dB at the centre) with quality `q`. */
export function bandPass(centerHz: number, sampleRate: number, q: number): Biquad {
  const w = (2 * Math.PI * Math.min(Math.max(centerHz, 1), sampleRate * 0.49)) / sampleRate;
  const alpha = Math.sin(w) / (2 * q);
  const a0 = 1 + alpha;
  return new Biquad(alpha / a0, 0, -alpha / a0, (-2 * Math.cos(w)) / a0, (1 - alpha) / a0);
}

/** A cascade of biquads run in series. */
export class BiquadCascade {
  constructor(readonly sections: readonly Biquad[]) {}

  step(x: number): number {
    let y = x;
    for (const section of this.sections) y = section.step(y);
    return y;
  }

  /** Filter a whole buffer (the state moves on). */
  run(samples: Float64Array): Float64Array {
    const out = new Float64Array(samples.length);
    for (let i = 0; i < samples.length; i++) out[i] = this.step(samples[i]!);
    return out;
  }
}

/** A Butterworth filter of even `order` (default 4) as a biquad cascade. */
export function butterworth(
  type: 'lowpass' | 'highpass',
  cutoffHz: number,
  sampleRate: number,
  order = 4,
): BiquadCascade {
  if (!Number.isInteger(order) || order < 2 || order % 2 !== 0) {
    throw new RangeError(`Butterworth order must be an even integer >= 2, got ${order}`);
  }
  const sections: Biquad[] = [];
  for (let k = 0; k < order / 2; k++) {
    // Pole pair k of the analogue prototype: Q = 1 / (2 sin((2k + 1) pi / (2 order))).
    const q = 1 / (2 * Math.sin(((2 * k + 1) * Math.PI) / (2 * order)));
    sections.push(biquad(type, cutoffHz, sampleRate, q));
  }
  return new BiquadCascade(sections);
}

/** Zeroth-order modified Bessel function of the first kind (series). */
function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  const half = x / 2;
  for (let k = 1; k < 64; k++) {
    term *= (half / k) * (half / k);
    sum += term;
    if (term < 1e-12 * sum) break;
  }
  return sum;
}

/** How to design a low-pass FIR. */
export interface LowPassFirSpec {
  sampleRate: number;
  /** Highest frequency passed (Hz). */
  passHz: number;
  /** Lowest frequency stopped (Hz). */
  stopHz: number;
  /** Stopband attenuation (dB, default 70). */
  attenuationDb?: number;
}

/** Linear-phase low-pass taps (odd length, unit DC gain) by the Kaiser window method. */
export function designLowPassFir(spec: LowPassFirSpec): Float64Array {
  const { sampleRate, passHz, stopHz } = spec;
  const attenuation = spec.attenuationDb ?? 70;
  if (!(passHz > 0 && stopHz > passHz && stopHz <= sampleRate / 2)) {
    throw new RangeError(`need 0 < passHz < stopHz <= ${sampleRate / 2}`);
  }
  const width = (2 * Math.PI * (stopHz - passHz)) / sampleRate;
  const order = Math.ceil((attenuation - 7.95) / (2.285 * width));
  const length = order % 2 === 0 ? order + 1 : order + 2;
  const beta =
    attenuation > 50
      ? 0.1102 * (attenuation - 8.7)
      : attenuation >= 21
        ? 0.5842 * (attenuation - 21) ** 0.4 + 0.07886 * (attenuation - 21)
        : 0;
  const cutoff = (passHz + stopHz) / 2 / sampleRate; // cycles per sample
  const middle = (length - 1) / 2;
  const taps = new Float64Array(length);
  const norm = besselI0(beta);
  let sum = 0;
  for (let n = 0; n < length; n++) {
    const t = n - middle;
    const sinc = t === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * t) / (Math.PI * t);
    const r = t / middle;
    const window = besselI0(beta * Math.sqrt(Math.max(0, 1 - r * r))) / norm;
    taps[n] = sinc * window;
    sum += taps[n]!;
  }
  for (let n = 0; n < length; n++) taps[n]! /= sum;
  return taps;
}

/** A streaming FIR filter over a ring buffer of past inputs. */
export class FirFilter {
  readonly #taps: Float64Array;
  readonly #history: Float64Array;
  #position = 0;

  constructor(taps: Float64Array) {
    this.#taps = taps;
    this.#history = new Float64Array(taps.length);
  }

  /** Samples of delay (the taps are symmetric). */
  get delay(): number {
    return (this.#taps.length - 1) / 2;
  }

  /** Take one input sample without computing an output (decimation skips outputs). */
  push(x: number): void {
    this.#position = (this.#position + 1) % this.#history.length;
    this.#history[this.#position] = x;
  }

  /** The output for the inputs pushed so far. */
  output(): number {
    const taps = this.#taps;
    const history = this.#history;
    const length = taps.length;
    let acc = 0;
    let index = this.#position;
    for (let k = 0; k < length; k++) {
      acc += taps[k]! * history[index]!;
      index = index === 0 ? length - 1 : index - 1;
    }
    return acc;
  }

  /** Push one sample and return the output. */
  step(x: number): number {
    this.push(x);
    return this.output();
  }
}
