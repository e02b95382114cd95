import { describe, expect, it } from 'vitest';
import { encodeRtviFrame, serverResponse } from '@scenaro/sdk/protocol';
import { encodeMessage } from './reply-encoder.js';

describe('encodeMessage', () => {
  it('writes the same bytes as the SDK, kept or not, at every size', () => {
    for (const size of [0, 10, 16 * 1024, 20_000, 200_000, 2_100_000]) {
      const d = Object.freeze({ context: `é"'\\\n😀${'x'.repeat(size)}` });
      for (const id of ['a', 'a-much-longer-id-"quoted"-é']) {
        const message = serverResponse(id, 'get_context_history', d);
        const want = encodeRtviFrame(message);
        expect(Buffer.from(encodeMessage(message, false)).equals(Buffer.from(want))).toBe(true);
        // Again, from the kept bytes.
        expect(Buffer.from(encodeMessage(message, true)).equals(Buffer.from(want))).toBe(true);
      }
    }
  });

  it('serializes results that are not frozen every time', () => {
    const d = { context: 'x'.repeat(50_000) };
    const message = serverResponse('id', 'get_context_history', d);
    expect(Buffer.from(encodeMessage(message, false))).toEqual(
      Buffer.from(encodeRtviFrame(message)),
    );
    d.context = 'changed';
    expect(Buffer.from(encodeMessage(message, false))).toEqual(
      Buffer.from(encodeRtviFrame(message)),
    );
  });
});
