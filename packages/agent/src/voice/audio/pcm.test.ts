import { describe, expect, it } from 'vitest';
import * as codec from './pcm.js';

describe('PCM16 conversions', () => {
  it('reads and writes little-endian signed samples', () => {
    const pcm = new Uint8Array([0x01, 0x00, 0xff, 0xff, 0x00, 0x80, 0xff, 0x7f]);
    expect([...codec.pcm16ToInt16(pcm)]).toEqual([1, -1, -32768, 32767]);
    expect(codec.int16ToPcm16(codec.pcm16ToInt16(pcm))).toEqual(pcm);
    expect(codec.pcm16ToInt16(pcm.subarray(1, 4))).toEqual(new Int16Array([-256])); // odd offset, odd length
  });

  it('scales to floats and clips on the way back', () => {
    const floats = codec.pcm16ToFloat32(codec.int16ToPcm16(new Int16Array([-32768, 0, 16384])));
    expect([...floats]).toEqual([-1, 0, 0.5]);
    expect([...codec.pcm16ToInt16(codec.float32ToPcm16(new Float32Array([2, -2, 0.25])))]).toEqual([
      32767, -32768, 8192,
    ]);
  });

  it('downmixes interleaved stereo to mono by averaging', () => {
    const stereo = codec.int16ToPcm16(new Int16Array([100, 300, -50, -150, 32767, 32767]));
    expect([...codec.pcm16ToInt16(codec.downmixPcm16ToMono(stereo, 2))]).toEqual([
      200, -100, 32767,
    ]);
  });

  it('counts frames in samples', () => {
    expect(codec.pcm16FrameBytes(16, 16_000)).toBe(512);
    expect(codec.pcm16FrameBytes(40, 24_000)).toBe(1920);
    expect(codec.msToSamples(800, 16_000)).toBe(12_800);
  });
});
