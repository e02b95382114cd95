import { describe, expect, it } from 'vitest';
import { AudioHistory } from './audio-history.js';
import { PcmChunker } from './chunker.js';
import {
  concatBytes,
  downmixPcm16ToMono,
  float32ToPcm16,
  int16ToPcm16,
  msToSamples,
  pcm16FrameBytes,
  pcm16ToFloat32,
  pcm16ToInt16,
} from './pcm.js';
import { decodeWav, encodeWav, WavFormatError } from './wav.js';

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

describe('PcmChunker', () => {
  it('cuts any split of a stream into the same fixed frames', () => {
    const stream = new Uint8Array(512 * 3 + 100).map((_, i) => i % 251);
    const chunker = new PcmChunker(512);
    const frames = [
      ...chunker.push(stream.subarray(0, 7)),
      ...chunker.push(stream.subarray(7, 1000)),
      ...chunker.push(stream.subarray(1000)),
    ];
    expect(frames.map((f) => f.length)).toEqual([512, 512, 512]);
    expect(concatBytes(frames)).toEqual(stream.subarray(0, 1536));
    expect(chunker.pendingBytes).toBe(100);
    const [last] = chunker.flush();
    expect(last!.length).toBe(512);
    expect(last!.subarray(0, 100)).toEqual(stream.subarray(1536));
    expect(last!.subarray(100).every((b) => b === 0)).toBe(true);
    expect(chunker.flush()).toEqual([]);
  });

  it('sizes frames by duration and refuses odd sizes', () => {
    expect(PcmChunker.forDuration(40, 24_000).frameBytes).toBe(1920);
    expect(() => new PcmChunker(511)).toThrow(RangeError);
  });
});

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

describe('AudioHistory', () => {
  it('cuts sample ranges across chunks and drops old chunks', () => {
    const history = new AudioHistory();
    history.append(int16ToPcm16(new Int16Array([0, 1, 2, 3])));
    history.append(int16ToPcm16(new Int16Array([4, 5, 6, 7])));
    expect([...pcm16ToInt16(history.slice(2, 6))]).toEqual([2, 3, 4, 5]);
    history.dropBefore(5);
    expect([...pcm16ToInt16(history.slice(0, 8))]).toEqual([4, 5, 6, 7]);
    expect(history.samples).toBe(8);
  });
});
