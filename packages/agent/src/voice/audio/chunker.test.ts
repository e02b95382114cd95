import { describe, expect, it } from 'vitest';
import { PcmChunker } from './chunker.js';
import { concatBytes } from './pcm.js';

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
