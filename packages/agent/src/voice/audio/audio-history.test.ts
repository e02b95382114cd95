import { describe, expect, it } from 'vitest';
import { AudioHistory } from './audio-history.js';
import { int16ToPcm16, pcm16ToInt16 } from './pcm.js';

describe('AudioHistory', () => {
  it('cuts sample ranges across chunks and drops old chunks', () => {
    const history = new AudioHistory();
    history.append(int16ToPcm16(new Int16Array([0, 1, 2, 3])));
    history.append(int16ToPcm16(new Int16Array([4, 5, 6, 7])));
    expect(history.bytes).toBe(16);
    expect([...pcm16ToInt16(history.slice(2, 6))]).toEqual([2, 3, 4, 5]);
    history.dropBefore(5);
    expect([...pcm16ToInt16(history.slice(0, 8))]).toEqual([4, 5, 6, 7]);
    expect(history.samples).toBe(8);
    expect(history.bytes).toBe(8);
  });
});
