import { describe, expect, it } from 'vitest';
import { powerFractionAbove, rmsOf, tone, whiteNoise } from '../test-support/caller-signals.js';
import { butterworth, designLowPassFir } from './filters.js';
import { TelephonyChannel, telephonyBandLimit } from './telephony.js';

const RATE = 16000;

describe('telephony band limit', () => {
  it('removes the energy above 4 kHz from white noise', () => {
    const noise = whiteNoise(RATE * 2, 3000, 1);
    expect(powerFractionAbove(noise, RATE, 4000)).toBeGreaterThan(0.45);
    const out = telephonyBandLimit(noise, RATE);
    const fraction = powerFractionAbove(out, RATE, 4000);
    // Measured: about 1e-7 of the power (-70 dB) is left above 4 kHz.
    expect(10 * Math.log10(fraction)).toBeLessThan(-50);
  });

  it('stops a 5 kHz tone and passes a 1 kHz tone', () => {
    const high = telephonyBandLimit(tone(5000, 1, RATE), RATE);
    const low = telephonyBandLimit(tone(1000, 1, RATE), RATE);
    const settled = 2000;
    const gainHigh = rmsOf(high, settled) / rmsOf(tone(5000, 1, RATE), settled);
    const gainLow = rmsOf(low, settled) / rmsOf(tone(1000, 1, RATE), settled);
    expect(20 * Math.log10(gainHigh)).toBeLessThan(-50);
    expect(Math.abs(20 * Math.log10(gainLow))).toBeLessThan(0.5);
  });

  it('cuts below 300 Hz', () => {
    const hum = tone(100, 1, RATE);
    const out = telephonyBandLimit(hum, RATE);
    expect(20 * Math.log10(rmsOf(out, 4000) / rmsOf(hum, 4000))).toBeLessThan(-20);
  });

  it('delays by the filters and gives the same output in chunks as at once', () => {
    const input = whiteNoise(5000, 2000, 2);
    const whole = telephonyBandLimit(input, RATE);
    const channel = new TelephonyChannel(RATE);
    const chunked: number[] = [];
    let offset = 0;
    for (const size of [1, 7, 256, 999, 3737]) {
      for (const x of input.subarray(offset, offset + size)) chunked.push(channel.step(x));
      offset += size;
    }
    expect(Int16Array.from(chunked, (x) => Math.round(x))).toEqual(whole);
    // An impulse comes out delayed by the channel's delay.
    const impulse = new Int16Array(400);
    impulse[10] = 20000;
    const response = telephonyBandLimit(impulse, RATE);
    const peak = response.reduce(
      (best, x, i) => (Math.abs(x) > Math.abs(response[best]!) ? i : best),
      0,
    );
    expect(Math.abs(peak - (10 + new TelephonyChannel(RATE).delay))).toBeLessThanOrEqual(2);
  });

  it('refuses rates that are not multiples of 8 kHz', () => {
    expect(() => new TelephonyChannel(22050)).toThrow(/multiple of 8000/);
  });
});

describe('filters', () => {
  it('designs a Butterworth low-pass at -3 dB on its cutoff', () => {
    for (const [hz, expected] of [
      [200, 0],
      [1500, -3.01],
      [6000, -60],
    ] as const) {
      const filter = butterworth('lowpass', 1500, RATE, 4);
      const input = tone(hz, 1, RATE);
      const out = Float64Array.from(input, (x) => filter.step(x));
      const gain = 20 * Math.log10(rmsOf(out, 4000) / rmsOf(input, 4000));
      if (hz === 6000) expect(gain).toBeLessThan(expected);
      else expect(gain).toBeCloseTo(expected, 0);
    }
  });

  it('designs an FIR with unit DC gain and odd length', () => {
    const taps = designLowPassFir({ sampleRate: RATE, passHz: 3400, stopHz: 4000 });
    expect(taps.length % 2).toBe(1);
    expect(taps.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });
});
