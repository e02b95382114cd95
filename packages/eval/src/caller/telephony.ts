/**
 * The telephone channel: the caller's audio is band-limited and decimated to 8 kHz, its low end
 * cut at 300 Hz, coded as G.711 mu-law and decoded again, then interpolated back to the stream's
 * rate with the same band limit, so nothing above 4 kHz survives (the band actually carried is
 * about 300-3400 Hz). The mu-law codes pass through a hook on the way, where frame drops replace
 * lost packets with silence.
 *
 * The channel is streaming and delays the audio by a fixed {@link TelephonyChannel.delay}
 * samples (the two linear-phase filters), whatever the chunking.
 */
import { butterworth, designLowPassFir, FirFilter } from './filters.js';
import type { BiquadCascade } from './filters.js';
import { muLawDecodeSample, muLawEncodeSample } from './g711.js';

/** The channel's sample rate. */
export const TELEPHONY_RATE = 8000;
/** The carried band (Hz). */
export const TELEPHONY_BAND_HZ: readonly [low: number, high: number] = [300, 3400];
/** Where the band-limit filters reach their full attenuation (Hz). */
const STOP_HZ = 4000;

const clip16 = (x: number): number => (x > 32767 ? 32767 : x < -32768 ? -32768 : Math.round(x));

/** A streaming telephone channel at a rate that is a multiple of 8 kHz. */
export class TelephonyChannel {
  readonly sampleRate: number;
  /** Input samples per channel sample. */
  readonly factor: number;
  readonly #decimator: FirFilter;
  readonly #interpolator: FirFilter;
  readonly #lowCut: BiquadCascade;
  #phase = 0;
  #channelIndex = 0;
  #held = 0;

  constructor(sampleRate: number) {
    if (!Number.isInteger(sampleRate) || sampleRate < 16000 || sampleRate % TELEPHONY_RATE !== 0) {
      throw new RangeError(
        `telephony needs a sample rate that is a multiple of 8000 and at least 16000, got ${sampleRate}`,
      );
    }
    this.sampleRate = sampleRate;
    this.factor = sampleRate / TELEPHONY_RATE;
    const taps = designLowPassFir({ sampleRate, passHz: TELEPHONY_BAND_HZ[1], stopHz: STOP_HZ });
    this.#decimator = new FirFilter(taps);
    this.#interpolator = new FirFilter(taps);
    this.#lowCut = butterworth('highpass', TELEPHONY_BAND_HZ[0], TELEPHONY_RATE, 4);
  }

  /** Samples of delay from a channel sample to the output (the interpolating filter's). */
  get outputDelay(): number {
    return this.#interpolator.delay;
  }

  /** Samples of delay from input to output. */
  get delay(): number {
    return this.#decimator.delay + this.#interpolator.delay;
  }

  /**
   * One input sample in, one output sample out. `code` sees each channel sample's mu-law code
   * with its index at 8 kHz and returns the code to send (default: unchanged).
   */
  step(x: number, code?: (muLaw: number, channelIndex: number) => number): number {
    this.#decimator.push(x);
    let stuffed = 0;
    if (this.#phase === 0) {
      const narrow = this.#lowCut.step(this.#decimator.output());
      let muLaw = muLawEncodeSample(clip16(narrow));
      if (code) muLaw = code(muLaw, this.#channelIndex);
      this.#channelIndex++;
      this.#held = muLawDecodeSample(muLaw);
      stuffed = this.#held * this.factor;
    }
    this.#phase = (this.#phase + 1) % this.factor;
    return this.#interpolator.step(stuffed);
  }
}

/**
 * A whole buffer through the telephone channel (pure: a fresh channel each call). The output has
 * the input's length and is delayed by the channel's delay.
 */
export function telephonyBandLimit(samples: Int16Array, sampleRate: number): Int16Array {
  const channel = new TelephonyChannel(sampleRate);
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = clip16(channel.step(samples[i]!));
  return out;
}
