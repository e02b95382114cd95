import { describe, expect, it } from 'vitest';
import { Resampler, resamplePcm16 } from './resampler.js';
import { int16ToPcm16, pcm16ToInt16 } from './pcm.js';

function tone(freq: number, rate: number, seconds: number, amplitude = 10_000): Int16Array {
  const out = new Int16Array(Math.round(rate * seconds));
  for (let i = 0; i < out.length; i++)
    out[i] = Math.round(amplitude * Math.sin((2 * Math.PI * freq * i) / rate));
  return out;
}

/** Amplitude of `freq` in `samples` (single-bin DFT), away from the edges. */
function amplitudeAt(samples: Int16Array, rate: number, freq: number): number {
  const body = samples.subarray(Math.floor(samples.length * 0.1), Math.floor(samples.length * 0.9));
  let re = 0;
  let im = 0;
  for (let i = 0; i < body.length; i++) {
    re += body[i]! * Math.cos((2 * Math.PI * freq * i) / rate);
    im += body[i]! * Math.sin((2 * Math.PI * freq * i) / rate);
  }
  return (2 * Math.hypot(re, im)) / body.length;
}

describe('Resampler', () => {
  it.each([
    [16_000, 24_000],
    [24_000, 16_000],
    [8_000, 24_000],
    [44_100, 16_000],
    [48_000, 16_000],
  ])('converts %i Hz to %i Hz keeping length, pitch and level', async (from, to) => {
    const input = tone(1000, from, 0.5);
    const out = pcm16ToInt16(await resamplePcm16(int16ToPcm16(input), from, to));
    expect(out.length).toBe(Math.round((input.length * to) / from));
    expect(amplitudeAt(out, to, 1000)).toBeGreaterThan(9_500);
    expect(amplitudeAt(out, to, 1000)).toBeLessThan(10_500);
  });

  it('removes what the lower rate cannot carry before downsampling (no alias)', async () => {
    // 11 kHz at 48 kHz would alias to 5 kHz at 16 kHz without the low-pass filter.
    const out = pcm16ToInt16(
      await resamplePcm16(int16ToPcm16(tone(11_000, 48_000, 0.5)), 48_000, 16_000),
    );
    expect(amplitudeAt(out, 16_000, 5_000)).toBeLessThan(100); // > 40 dB down
  });

  it('gives the same samples streamed in chunks as in one go', async () => {
    const input = tone(440, 24_000, 0.3);
    const whole = pcm16ToInt16(await resamplePcm16(int16ToPcm16(input), 24_000, 16_000));
    const resampler = await Resampler.create({ inputRate: 24_000, outputRate: 16_000 });
    const parts: number[] = [];
    for (let i = 0; i < input.length; i += 333)
      parts.push(...resampler.process(input.subarray(i, i + 333)));
    parts.push(...resampler.flush());
    resampler.destroy();
    expect(parts).toEqual([...whole]);
  });

  it('passes equal rates through and validates its options', async () => {
    const pcm = int16ToPcm16(new Int16Array([1, 2, 3]));
    expect(await resamplePcm16(pcm, 16_000, 16_000)).toEqual(pcm);
    await expect(Resampler.create({ inputRate: 0, outputRate: 16_000 })).rejects.toThrow(
      RangeError,
    );
    await expect(
      Resampler.create({ inputRate: 8_000, outputRate: 16_000, quality: 11 }),
    ).rejects.toThrow(/quality/);
  });
});
