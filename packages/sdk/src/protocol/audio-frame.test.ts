import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fromBinary } from '@bufbuild/protobuf';
import { ProtobufFrameSerializer } from '@pipecat-ai/websocket-transport';
import { encodeAudioRawFrame, readPlainAudioFrame } from './audio-frame.js';
import { FrameSchema } from './generated/frames_pb.js';
import { FrameDecodeError, decodeFrame } from './index.js';
import type { AudioFrameValue } from './index.js';
import { ld, vi } from '../test-support/protobuf-wire.js';

/** What the library makes of `bytes`: an audio frame as `decodeFrame` gives it, 'other', or 'throws'. */
function libraryValue(bytes: Uint8Array): AudioFrameValue | 'other' | 'throws' {
  let frame;
  try {
    frame = fromBinary(FrameSchema, bytes).frame;
  } catch {
    return 'throws';
  }
  if (frame.case !== 'audio') return 'other';
  const { id, name, audio, sampleRate, numChannels, pts } = frame.value;
  const value: AudioFrameValue = { kind: 'audio', audio, sampleRate, numChannels };
  if (id !== 0n) value.id = id;
  if (name !== '') value.name = name;
  if (pts !== undefined) value.pts = pts;
  return value;
}

/** One field of an `AudioRawFrame` as the reader takes it. */
const plainField: fc.Arbitrary<number[]> = fc.oneof(
  fc
    .oneof(fc.constantFrom('audio', ''), fc.string({ maxLength: 80 }))
    .map((name) => ld(2, new TextEncoder().encode(name))),
  fc.uint8Array({ maxLength: 600 }).map((audio) => ld(3, audio)),
  fc.integer({ min: 0, max: 0xffffffff }).map((rate) => vi(4, rate)),
  fc.integer({ min: 0, max: 8 }).map((channels) => vi(5, channels)),
);

/** One field of an `AudioRawFrame` of any kind, or one it does not have. */
const field: fc.Arbitrary<number[]> = fc.oneof(
  plainField,
  fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }).map((id) => vi(1, id)),
  fc
    .string({ unit: 'grapheme', maxLength: 8 })
    .map((name) => ld(2, new TextEncoder().encode(name))),
  fc.bigInt({ min: 0n, max: 1n << 40n }).map((rate) => vi(4, rate)),
  fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }).map((pts) => vi(6, pts)),
  fc.integer({ min: 7, max: 40 }).map((unknown) => vi(unknown, 1)),
  // A rate written as a ten-byte varint, as a negative int32 would be.
  fc.constant<number[]>([4 << 3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]),
);

/** A frame around some of those fields: in field order (most are), or as they came. */
const audioFrameBytes: fc.Arbitrary<Uint8Array> = fc
  .record({
    fields: fc.oneof(fc.array(plainField, { maxLength: 5 }), fc.array(field, { maxLength: 6 })),
    ordered: fc.boolean(),
    // Now and then another field of the Frame after the audio.
    after: fc.oneof(
      { weight: 7, arbitrary: fc.constant<number[]>([]) },
      { weight: 1, arbitrary: fc.constantFrom<number[]>([0x28, 0x01], [0x22, 0x00], [0x12, 0x00]) },
    ),
  })
  .map(({ fields, ordered, after }) => {
    const list = ordered
      ? [...new Map(fields.map((f) => [f[0]! >> 3, f])).entries()]
          .sort(([a], [b]) => a - b)
          .map(([, f]) => f)
      : fields;
    const inner = list.flat();
    return new Uint8Array([...ld(2, inner), ...after]);
  });

describe('reading plain audio frames directly', () => {
  it('agrees with the library on every frame it reads, and leaves it the rest', () => {
    let read = 0;
    let left = 0;
    fc.assert(
      fc.property(audioFrameBytes, (bytes) => {
        const expected = libraryValue(bytes);
        const direct = readPlainAudioFrame(bytes);
        if (direct) {
          read++;
          expect(direct).toEqual(expected);
          // The audio is a view into the frame, as the library's is.
          if (direct.audio.byteLength > 0) expect(direct.audio.buffer).toBe(bytes.buffer);
        } else left++;
        if (expected === 'throws') expect(() => decodeFrame(bytes)).toThrow(FrameDecodeError);
        else if (expected !== 'other') expect(decodeFrame(bytes)).toEqual(expected);
      }),
      { numRuns: 4000 },
    );
    // Both paths were taken often enough to mean something.
    expect(read).toBeGreaterThan(400);
    expect(left).toBeGreaterThan(400);
  });

  it('reads what the Pipecat client sends, and what this codec writes', () => {
    const pcm = new Int16Array(256).map((_, i) => i * 97 - 12000);
    const client = new ProtobufFrameSerializer().serializeAudio(pcm.buffer, 16000, 1);
    const bytes = new Uint8Array(client);
    expect(readPlainAudioFrame(bytes)).toEqual({
      kind: 'audio',
      name: 'audio',
      audio: new Uint8Array(pcm.buffer),
      sampleRate: 16000,
      numChannels: 1,
    });
    expect(readPlainAudioFrame(bytes)).toEqual(libraryValue(bytes));
    for (const [rate, channels] of [
      [0, 0],
      [24000, 1],
      [0xffffffff, 0xffffffff],
    ] as const) {
      const ours = encodeAudioRawFrame(new Uint8Array([1, 2, 3]), rate, channels);
      expect(readPlainAudioFrame(ours)).toEqual(libraryValue(ours));
    }
  });

  it('reads no frame whose field runs past its end', () => {
    for (const bytes of [
      [0x12, 0x03, 0x1a, 0x05, 0x01],
      [0x12, 0x03, 0x12, 0x09, 0x61],
      [0x12, 0x02, 0x20, 0x80],
      [0x12, 0x03, 0x28, 0xff, 0xff],
    ]) {
      const frame = new Uint8Array(bytes);
      expect(readPlainAudioFrame(frame)).toBeUndefined();
      expect(() => decodeFrame(frame)).toThrow(FrameDecodeError);
    }
  });

  it('reads no prefix of a frame', () => {
    const pcm = new Uint8Array(300).fill(7);
    const bytes = new Uint8Array(
      new ProtobufFrameSerializer().serializeAudio(pcm.buffer, 16000, 1),
    );
    for (let n = 0; n < bytes.length; n++) {
      expect(readPlainAudioFrame(bytes.subarray(0, n))).toBeUndefined();
    }
  });

  it('leaves a long name to the library', () => {
    const name = 'a'.repeat(200_000);
    const bytes = new Uint8Array([
      ...ld(2, [...ld(2, new TextEncoder().encode(name)), ...ld(3, [1, 2])]),
    ]);
    expect(readPlainAudioFrame(bytes)).toBeUndefined();
    expect(decodeFrame(bytes)).toMatchObject({
      kind: 'audio',
      name,
      audio: new Uint8Array([1, 2]),
    });
  });

  it('never throws on random bytes after an audio frame tag', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (tail) => {
        const bytes = new Uint8Array([0x12, ...tail]);
        const direct = readPlainAudioFrame(bytes);
        if (direct) expect(direct).toEqual(libraryValue(bytes));
      }),
      { numRuns: 5000 },
    );
  });
});
