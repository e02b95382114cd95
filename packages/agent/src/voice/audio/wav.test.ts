import { describe, expect, it } from 'vitest';
import { concatBytes, int16ToPcm16 } from './pcm.js';
import { decodeWav, encodeWav, WavFormatError } from './wav.js';

describe('WAV', () => {
  it('round-trips mono and stereo 16-bit PCM', () => {
    for (const channels of [1, 2]) {
      const pcm = int16ToPcm16(new Int16Array([1, -2, 300, -400, 5000, -6000]));
      const wav = encodeWav({ pcm, sampleRate: 22_050, channels });
      expect(wav.length).toBe(44 + pcm.length);
      expect(String.fromCharCode(...wav.subarray(0, 4))).toBe('RIFF');
      expect(decodeWav(wav)).toEqual({ pcm, sampleRate: 22_050, channels });
    }
  });

  it('skips other chunks, reads WAVE_FORMAT_EXTENSIBLE PCM, refuses other encodings', () => {
    const pcm = int16ToPcm16(new Int16Array([7, 8, 9]));
    const plain = encodeWav({ pcm, sampleRate: 16_000, channels: 1 });
    // RIFF header, a LIST chunk of odd size (padded), then fmt and data.
    const list = new Uint8Array([0x4c, 0x49, 0x53, 0x54, 3, 0, 0, 0, 1, 2, 3, 0]);
    const withList = concatBytes([plain.subarray(0, 12), list, plain.subarray(12)]);
    expect(decodeWav(withList).pcm).toEqual(pcm);

    const float = plain.slice();
    float[20] = 3; // IEEE float
    expect(() => decodeWav(float)).toThrow(/encoding 3/);
    const eightBit = plain.slice();
    eightBit[34] = 8;
    expect(() => decodeWav(eightBit)).toThrow(WavFormatError);
    expect(() => decodeWav(new Uint8Array(10))).toThrow(/RIFF/);
  });
});
