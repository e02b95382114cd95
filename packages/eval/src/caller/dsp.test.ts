import { describe, expect, it } from 'vitest';
import { powerFractionAbove, rmsOf, tone, whiteNoise } from '../test-support/caller-signals.js';
import { controlEffects } from './config.js';
import type { ChannelEffectsConfig } from './config.js';
import { applyFrameDrops, BAD_STATE_LOSS, GilbertElliott } from './frame-drops.js';
import { driftingSnrEnvelope, mixAtSnr, mixWithDriftingSnr, rms, SnrDrift } from './mixing.js';
import { lowPass, muffleSegments, renderOffAxis } from './muffle.js';
import { Prng } from './prng.js';

const RATE = 16000;
const db = (ratio: number) => 20 * Math.log10(ratio);

describe('noise at a target SNR', () => {
  it('mixes within 0.5 dB of the target, measured on the result', () => {
    const speech = tone(440, 2, RATE, 8000);
    const noise = whiteNoise(RATE * 3, 1234, 5);
    for (const snr of [-5, 0, 5, 10, 15, 20, 30]) {
      const mix = mixAtSnr(speech, noise, snr);
      const added = Float64Array.from(mix, (x, i) => x - speech[i]!);
      const achieved = db(rms(speech) / rms(added));
      expect(Math.abs(achieved - snr)).toBeLessThan(0.5);
    }
  });

  it('holds the mean against the reference level and drifts within +-drift', () => {
    const silence = new Int16Array(RATE * 60);
    const noise = whiteNoise(RATE * 7, 900, 6);
    const spec = { snrDb: 15, driftDb: 3, speed: 0.5 };
    const { added } = mixWithDriftingSnr(silence, noise, spec, 99, { sampleRate: RATE });
    // Over a minute the noise sits at the mean ratio (measured: within 0.3 dB).
    expect(Math.abs(db(3000 / rmsOf(added)) - 15)).toBeLessThan(1);
    const curve = driftingSnrEnvelope(RATE * 60, RATE, spec, 99);
    const low = curve.reduce((a, b) => Math.min(a, b));
    const high = curve.reduce((a, b) => Math.max(a, b));
    expect(low).toBeGreaterThanOrEqual(12);
    expect(high).toBeLessThanOrEqual(18);
    expect(high - low).toBeGreaterThan(4);
    // Second by second the measured ratio follows the curve within 0.5 dB.
    for (let second = 0; second < 60; second += 7) {
      const from = second * RATE;
      let sum = 0;
      for (let i = from; i < from + RATE; i++) sum += curve[i]!;
      const mean = sum / RATE;
      const measured = db(3000 / rmsOf(added, from, from + RATE));
      expect(Math.abs(measured - mean)).toBeLessThan(0.5);
    }
  });

  it('is seeded: same seed same curve, another seed another curve, no drift at speed 0', () => {
    const spec = { snrDb: 10, driftDb: 4, speed: 2 };
    expect(driftingSnrEnvelope(5000, RATE, spec, 1)).toEqual(
      driftingSnrEnvelope(5000, RATE, spec, 1),
    );
    expect(driftingSnrEnvelope(5000, RATE, spec, 1)).not.toEqual(
      driftingSnrEnvelope(5000, RATE, spec, 2),
    );
    expect(new Set(driftingSnrEnvelope(5000, RATE, { ...spec, speed: 0 }, 1))).toEqual(
      new Set([10]),
    );
    const drift = new SnrDrift(spec, RATE, 1);
    drift.at(RATE);
    expect(() => drift.at(0)).toThrow(/forwards/);
  });
});

describe('frame drops', () => {
  const channel = (overrides: Partial<ChannelEffectsConfig>): ChannelEffectsConfig => ({
    ...controlEffects().channel_effects_config,
    enable_frame_drops: true,
    ...overrides,
  });

  it('loses the target fraction of frames in bursts of the target length', () => {
    for (const [rate, burstMs] of [
      [0.02, 100],
      [0.005, 100],
      [0.1, 400],
    ] as const) {
      const model = new GilbertElliott(rate, burstMs, new Prng(11, 'ge'));
      const steps = 400_000;
      let lost = 0;
      let badSteps = 0;
      let badRuns = 0;
      let wasBad = false;
      for (let i = 0; i < steps; i++) {
        if (model.step(0.02)) lost++;
        if (model.bad) {
          badSteps++;
          if (!wasBad) badRuns++;
        }
        wasBad = model.bad;
      }
      expect(lost / steps).toBeGreaterThan(rate * 0.8);
      expect(lost / steps).toBeLessThan(rate * 1.2);
      // Mean stay in the bad state, in ms (20 ms steps; measured within 15 % of the target).
      const meanBurst = (badSteps / badRuns) * 20;
      expect(meanBurst).toBeGreaterThan(burstMs * 0.75);
      expect(meanBurst).toBeLessThan(burstMs * 1.35);
      expect(BAD_STATE_LOSS).toBe(0.2);
    }
  });

  it('silences whole frames and reports each gap', () => {
    const input = tone(700, 120, RATE, 5000).map((x) => (x === 0 ? 1 : x));
    const config = channel({
      frame_drop_rate: 0.05,
      frame_drop_duration_ms: 20,
      frame_drop_burst_duration_ms: 100,
    });
    const { samples, gaps } = applyFrameDrops(input, RATE, config, 3);
    let zeros = 0;
    for (const x of samples) if (x === 0) zeros++;
    const gapSamples = gaps.reduce((sum, gap) => sum + gap.end - gap.start, 0);
    expect(zeros).toBe(gapSamples);
    expect(gaps.length).toBeGreaterThan(50);
    for (const gap of gaps) {
      expect(gap.start % 320).toBe(0);
      expect(samples.subarray(gap.start, gap.end).every((x) => x === 0)).toBe(true);
    }
    // About 5 % lost (measured 4.6 % over two minutes).
    expect(gapSamples / input.length).toBeGreaterThan(0.03);
    expect(gapSamples / input.length).toBeLessThan(0.07);
    const again = applyFrameDrops(input, RATE, config, 3);
    expect(Buffer.from(again.samples.buffer).equals(Buffer.from(samples.buffer))).toBe(true);
    expect(again.gaps).toEqual(gaps);
  });

  it('drops count frames per loss and nothing when disabled', () => {
    const input = new Int16Array(RATE * 30).fill(1000);
    const single = applyFrameDrops(
      input,
      RATE,
      channel({ frame_drop_rate: 0.01, frame_drop_duration_ms: 20 }),
      8,
    );
    const triple = applyFrameDrops(
      input,
      RATE,
      channel({ frame_drop_rate: 0.01, frame_drop_duration_ms: 20, frame_drop_count: 3 }),
      8,
    );
    const total = (gaps: { start: number; end: number }[]) =>
      gaps.reduce((s, g) => s + g.end - g.start, 0);
    expect(single.gaps.length).toBeGreaterThan(0);
    expect(total(triple.gaps)).toBeGreaterThanOrEqual(3 * 320 * single.gaps.length * 0.5);
    expect(
      triple.gaps.every((gap) => gap.end - gap.start >= 3 * 320 || gap.end === input.length),
    ).toBe(true);
    expect(
      applyFrameDrops(input, RATE, channel({ enable_frame_drops: false, frame_drop_rate: 0.1 }), 8)
        .gaps,
    ).toEqual([]);
  });
});

describe('muffling', () => {
  it('low-passes: a 3 kHz tone loses most of its level, a 300 Hz tone keeps it', () => {
    expect(
      db(rmsOf(lowPass(tone(3000, 1, RATE), RATE, 1500), 2000) / rmsOf(tone(3000, 1, RATE))),
    ).toBeLessThan(-20);
    expect(
      Math.abs(
        db(rmsOf(lowPass(tone(300, 1, RATE), RATE, 1500), 2000) / rmsOf(tone(300, 1, RATE))),
      ),
    ).toBeLessThan(0.5);
  });

  it('muffles only the segment and its transitions', () => {
    const noise = whiteNoise(RATE * 2, 3000, 9);
    const segment = { start: RATE / 2, end: RATE };
    const out = muffleSegments(noise, RATE, [segment], 1500, 100);
    const transition = RATE / 10;
    expect(out.subarray(0, segment.start - transition)).toEqual(
      noise.subarray(0, segment.start - transition),
    );
    expect(out.subarray(segment.end + transition)).toEqual(
      noise.subarray(segment.end + transition),
    );
    const inside = out.slice(segment.start, segment.end);
    expect(powerFractionAbove(inside, RATE, 3000)).toBeLessThan(0.01);
    expect(powerFractionAbove(noise.slice(segment.start, segment.end), RATE, 3000)).toBeGreaterThan(
      0.5,
    );
  });

  it('renders off-axis speech quieter and muffled', () => {
    const voice = whiteNoise(RATE, 3000, 10);
    const off = renderOffAxis(voice, RATE);
    expect(db(rms(off) / rms(voice))).toBeLessThan(-10);
    expect(powerFractionAbove(off, RATE, 2000)).toBeLessThan(0.01);
    const mild = renderOffAxis(voice, RATE, { gainDb: 0, cutoffHz: 7000 });
    expect(Math.abs(db(rms(mild) / rms(voice)))).toBeLessThan(1.5);
  });
});
