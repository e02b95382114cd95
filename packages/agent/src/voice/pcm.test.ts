import { describe, expect, it } from 'vitest';
import {
  downmixPcm16ToMono,
  float32ToPcm16,
  int16ToPcm16,
  msToSamples,
  pcm16FrameBytes,
  pcm16ToFloat32,
  pcm16ToInt16,
} from './pcm.js';

describe('PCM16 conversions', () => {
  it('reads and writes little-endian signed samples', () => {
    const pcm = new Uint8Array([0x01, 0x00, 0xff, 0xff, 0x00, 0x80, 0xff, 0x7f]);
    expect([...pcm16ToInt16(pcm)]).toEqual([1, -1, -32768, 32767]);
    expect(int16ToPcm16(pcm16ToInt16(pcm))).toEqual(pcm);
    expect(pcm16ToInt16(pcm.subarray(1, 4))).toEqual(new Int16Array([-256])); // odd offset, odd length
  });

  it('scales to floats and clips on the way back', () => {
    const floats = pcm16ToFloat32(int16ToPcm16(new Int16Array([-32768, 0, 16384])));
    expect([...floats]).toEqual([-1, 0, 0.5]);
    expect([...pcm16ToInt16(float32ToPcm16(new Float32Array([2, -2, 0.25])))]).toEqual([
      32767, -32768, 8192,
    ]);
  });

  it('downmixes interleaved stereo to mono by averaging', () => {
    const stereo = int16ToPcm16(new Int16Array([100, 300, -50, -150, 32767, 32767]));
    expect([...pcm16ToInt16(downmixPcm16ToMono(stereo, 2))]).toEqual([200, -100, 32767]);
  });

  it('counts frames in samples', () => {
    expect(pcm16FrameBytes(16, 16_000)).toBe(512);
    expect(pcm16FrameBytes(40, 24_000)).toBe(1920);
    expect(msToSamples(800, 16_000)).toBe(12_800);
  });
});
