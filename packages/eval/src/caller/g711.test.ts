import { describe, expect, it } from 'vitest';
import {
  MU_LAW_SILENCE,
  muLawDecode,
  muLawDecodeSample,
  muLawEncode,
  muLawEncodeSample,
} from './g711.js';

describe('G.711 mu-law', () => {
  it('decodes codes to the reference table values', () => {
    // Values of the G.711 mu-law decoding table, scaled to 16 bits.
    const table: [number, number][] = [
      [0x00, -32124],
      [0x0f, -16764],
      [0x40, -1884],
      [0x70, -120],
      [0x7f, 0],
      [0x80, 32124],
      [0x8f, 16764],
      [0xcf, 924],
      [0xe0, 372],
      [0xef, 132],
      [0xf0, 120],
      [0xfe, 8],
      [0xff, 0],
    ];
    for (const [code, value] of table) expect(muLawDecodeSample(code)).toBe(value);
  });

  it('encodes samples to the reference codes', () => {
    const points: [number, number][] = [
      [0, 0xff],
      [8, 0xfe],
      [100, 0xf2],
      [-100, 0x72],
      [1000, 0xce],
      [-1000, 0x4e],
      [4000, 0xaf],
      [16000, 0x90],
      [30000, 0x82],
      [32767, 0x80],
      [-32768, 0x00],
    ];
    for (const [sample, code] of points) expect(muLawEncodeSample(sample)).toBe(code);
    expect(MU_LAW_SILENCE).toBe(muLawEncodeSample(0));
  });

  it('re-encodes every decoded value to its own code (negative zero aside)', () => {
    for (let code = 0; code < 256; code++) {
      if (code === 0x7f) continue; // -0 decodes to 0, which codes as +0
      expect(muLawEncodeSample(muLawDecodeSample(code))).toBe(code);
    }
  });

  it('keeps the round trip within one quantization step', () => {
    const samples = Int16Array.from({ length: 2000 }, (_, i) => Math.round((i - 1000) * 32.7));
    const back = muLawDecode(muLawEncode(samples));
    for (let i = 0; i < samples.length; i++) {
      const x = samples[i]!;
      // A step in segment e is 2^(e+3) at 16 bits; the error stays under one step.
      const step = Math.max(8, 2 ** (Math.floor(Math.log2(Math.abs(x) / 4 + 33)) - 2));
      expect(Math.abs(back[i]! - x)).toBeLessThanOrEqual(step);
    }
  });
});
