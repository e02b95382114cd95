import { describe, expect, it } from 'vitest';
import { exactMcNemar, noiseFloor, pairedBootstrap } from './stats.js';

describe('exactMcNemar', () => {
  it('gives the two-sided binomial p-value of the discordant pairs', () => {
    expect(exactMcNemar(0, 0)).toBe(1);
    expect(exactMcNemar(5, 0)).toBeCloseTo(2 / 32, 12);
    expect(exactMcNemar(0, 10)).toBeCloseTo(2 / 1024, 12);
    // C(10,0..3) = 1 + 10 + 45 + 120 = 176 of 1024, doubled.
    expect(exactMcNemar(3, 7)).toBeCloseTo((2 * 176) / 1024, 12);
    expect(exactMcNemar(7, 3)).toBe(exactMcNemar(3, 7));
    expect(exactMcNemar(4, 4)).toBe(1);
  });

  it('stays finite and exact for many pairs', () => {
    const p = exactMcNemar(400, 600);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(1e-9);
  });

  it('refuses what is not a count', () => {
    expect(() => exactMcNemar(-1, 2)).toThrow(RangeError);
    expect(() => exactMcNemar(1.5, 2)).toThrow(RangeError);
  });
});

describe('pairedBootstrap', () => {
  it('is null without pairs and [0, 0] when nothing moved', () => {
    expect(pairedBootstrap([])).toBeNull();
    expect(pairedBootstrap([0, 0, 0, 0])).toEqual({ mean: 0, ci95: [0, 0], n: 4 });
  });

  it('brackets the mean, is the same for the same seed and moves with the data', () => {
    const diffs = [0.5, -0.2, 0.1, 0.3, 0.0, 0.4, -0.1, 0.2];
    const a = pairedBootstrap(diffs, { seed: 7 })!;
    expect(a).toEqual(pairedBootstrap(diffs, { seed: 7 }));
    expect(a.ci95[0]).toBeLessThanOrEqual(a.mean);
    expect(a.ci95[1]).toBeGreaterThanOrEqual(a.mean);
    expect(a.ci95[0]).toBeGreaterThan(-0.2);
    const shifted = pairedBootstrap(
      diffs.map((d) => d + 1),
      { seed: 7 },
    )!;
    expect(shifted.ci95[0]).toBeCloseTo(a.ci95[0] + 1, 10);
  });
});

describe('noiseFloor', () => {
  it('is unknown with one trial per scenario', () => {
    expect(noiseFloor([{ trials: 1, passesA: 1, passesB: 0 }])).toBeNull();
    expect(noiseFloor([])).toBeNull();
  });

  it('counts the flips chance gives and the band of the pass-rate difference', () => {
    // p = 0.5 over 4 trials: each pair flips with 2p(1-p) = 0.5; var = 2 * 0.25 / 4.
    const floor = noiseFloor([{ trials: 4, passesA: 2, passesB: 2 }])!;
    expect(floor.expected_flips).toBeCloseTo(2, 12);
    expect(floor.pass_rate_band).toBeCloseTo(1.959963984540054 * Math.sqrt(0.125), 12);
    // A scenario that always passes adds no noise.
    const steady = noiseFloor([
      { trials: 4, passesA: 4, passesB: 4 },
      { trials: 4, passesA: 2, passesB: 2 },
    ])!;
    expect(steady.expected_flips).toBeCloseTo(2, 12);
    expect(steady.pass_rate_band).toBeCloseTo(floor.pass_rate_band / 2, 12);
  });
});
