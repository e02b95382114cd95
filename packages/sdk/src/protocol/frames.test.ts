import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  FRAME_FIELD_NUMBERS,
  FrameDecodeError,
  decodeFrame,
  decodeRtviFrame,
  encodeFrame,
  encodeRtviFrame,
  tryDecodeFrame,
} from './index.js';
import type { PipecatFrame } from './index.js';
import { create, toBinary } from '@bufbuild/protobuf';
import { FrameSchema } from './generated/frames_pb.js';
import { encodeMessageFrame } from './message-frame.js';
import { ld, varint, vi } from '../test-support/protobuf-wire.js';

// An independent reference encoder for the few protobuf shapes of frames.proto (the wire-format
// rules in test-support), to check the library-backed codec byte for byte.
const utf8 = (s: string) => [...new TextEncoder().encode(s)];

describe('frame codec byte layout', () => {
  it('encodes a MessageFrame as 0x22 len 0x0a len utf8-json', () => {
    const json = '{"label":"rtvi-ai","type":"client-message","id":"a","data":{"t":"reset","d":{}}}';
    const bytes = encodeFrame({ kind: 'message', data: json });
    const inner = ld(1, utf8(json));
    expect([...bytes]).toEqual([0x22, ...varint(inner.length), ...inner]);
    expect(bytes[0]).toBe(0x22);
    expect(bytes[2]).toBe(0x0a);
  });

  it('encodes multi-byte lengths and non-ASCII text', () => {
    const json = JSON.stringify({ text: 'Zoë 東京 😀'.repeat(40) });
    const inner = ld(1, utf8(json));
    expect([...encodeFrame({ kind: 'message', data: json })]).toEqual(ld(4, inner));
    expect(inner.length).toBeGreaterThan(127);
  });

  it('encodes an audio frame like the JS transport sends it', () => {
    const audio = new Uint8Array(640).map((_, i) => i % 256);
    const bytes = encodeFrame({
      kind: 'audio',
      name: 'audio',
      audio,
      sampleRate: 16000,
      numChannels: 1,
    });
    const inner = [...ld(2, utf8('audio')), ...ld(3, [...audio]), ...vi(4, 16000), ...vi(5, 1)];
    expect([...bytes]).toEqual(ld(2, inner));
    expect(vi(4, 16000).slice(1)).toEqual([0x80, 0x7d]);
  });

  it('writes pts only when set, and omits id 0', () => {
    const audio = new Uint8Array([1, 2]);
    const withPts = encodeFrame({
      kind: 'audio',
      id: 300n,
      audio,
      sampleRate: 24000,
      numChannels: 1,
      pts: 0n,
    });
    const inner = [...vi(1, 300), ...ld(3, [1, 2]), ...vi(4, 24000), ...vi(5, 1), ...vi(6, 0)];
    expect([...withPts]).toEqual(ld(2, inner));
    expect(vi(1, 300).slice(1)).toEqual([0xac, 0x02]);
  });

  it('encodes text, transcription and interruption frames', () => {
    expect([...encodeFrame({ kind: 'text', id: 1n, name: 'TextFrame#1', text: 'hi' })]).toEqual(
      ld(1, [...vi(1, 1), ...ld(2, utf8('TextFrame#1')), ...ld(3, utf8('hi'))]),
    );
    expect([
      ...encodeFrame({
        kind: 'transcription',
        text: 'hello',
        userId: 'u1',
        timestamp: '2026-01-01',
      }),
    ]).toEqual(
      ld(3, [...ld(3, utf8('hello')), ...ld(4, utf8('u1')), ...ld(5, utf8('2026-01-01'))]),
    );
    expect([...encodeFrame({ kind: 'interruption', id: 7n, name: 'InterruptionFrame#7' })]).toEqual(
      ld(5, [...vi(1, 7), ...ld(2, utf8('InterruptionFrame#7'))]),
    );
    expect([...encodeFrame({ kind: 'interruption' })]).toEqual([0x2a, 0x00]);
  });

  it('uses the field numbers of frames.proto', () => {
    const oneof = FrameSchema.oneofs.find((o) => o.name === 'frame');
    const fromProto = Object.fromEntries(oneof?.fields.map((f) => [f.name, f.number]) ?? []);
    expect(FRAME_FIELD_NUMBERS).toEqual(fromProto);
  });
});

const frames: PipecatFrame[] = [
  { kind: 'text', id: 12n, name: 'TextFrame#12', text: 'hello' },
  {
    kind: 'audio',
    id: 3n,
    name: 'OutputAudioRawFrame#3',
    audio: new Uint8Array([1, 2, 3, 4]),
    sampleRate: 24000,
    numChannels: 1,
    pts: 99n,
  },
  { kind: 'audio', audio: new Uint8Array(1920), sampleRate: 16000, numChannels: 2 },
  { kind: 'transcription', id: 1n, name: 'T', text: 'hi there', userId: 'user', timestamp: 'now' },
  {
    kind: 'message',
    data: '{"label":"rtvi-ai","type":"bot-ready","id":"x","data":{"version":"2.1.0"}}',
  },
  { kind: 'interruption', id: 5n, name: 'InterruptionFrame#5' },
  { kind: 'interruption' },
];

describe('direct MessageFrame writer', () => {
  const viaLibrary = (data: string) =>
    toBinary(FrameSchema, create(FrameSchema, { frame: { case: 'message', value: { data } } }));
  const paths = [
    ['Node Buffer, own memory', false, Buffer],
    ['Node Buffer, pooled', true, Buffer],
    ['TextEncoder (browser)', false, undefined],
  ] as const;

  it.each(paths)('writes the same bytes as toBinary (%s)', (_name, pooled, buffer) => {
    const samples = [
      '',
      'x',
      'a'.repeat(127 - 2), // inner length 127: the last one-byte varint
      'a'.repeat(126),
      'é'.repeat(8200), // multi-byte lengths on both varints
      'lone \ud800 surrogate \udc00',
      '{"label":"rtvi-ai","type":"server-response","id":"1","data":{"t":"reset","d":true}}',
    ];
    for (const data of samples)
      expect([...encodeMessageFrame(data, pooled, buffer)]).toEqual([...viaLibrary(data)]);
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 3000 }), (data) => {
        expect([...encodeMessageFrame(data, pooled, buffer)]).toEqual([...viaLibrary(data)]);
      }),
      { numRuns: 300 },
    );
  });

  it('returns bytes that own their memory unless pooled is asked for', () => {
    for (const bytes of [
      encodeFrame({ kind: 'message', data: '{"a":1}' }),
      encodeRtviFrame({ label: 'rtvi-ai', type: 'client-ready', id: 'a' }),
    ]) {
      expect(Object.getPrototypeOf(bytes)).toBe(Uint8Array.prototype);
      expect(bytes.byteOffset).toBe(0);
      expect(bytes.buffer.byteLength).toBe(bytes.byteLength);
    }
  });

  it('pooled frames are plain Uint8Array views that never overlap', () => {
    const frames = Array.from({ length: 200 }, (_, i) =>
      encodeRtviFrame({ label: 'rtvi-ai', type: 'client-ready', id: `id-${i}` }, { pooled: true }),
    );
    expect(Object.getPrototypeOf(frames[0])).toBe(Uint8Array.prototype);
    // Small frames share pool memory (that is the point), but never the same bytes.
    expect(frames.some((f) => f.buffer === frames[1]!.buffer && f !== frames[1])).toBe(true);
    frames.forEach((f, i) =>
      expect(decodeRtviFrame(f)).toMatchObject({ ok: true, message: { id: `id-${i}` } }),
    );
  });
});

describe('frame codec round trips', () => {
  it.each(frames.map((f) => [f.kind, f] as const))('round-trips a %s frame', (_kind, frame) => {
    expect(decodeFrame(encodeFrame(frame))).toEqual(frame);
  });

  it('round-trips RTVI envelopes', () => {
    const message = {
      label: 'rtvi-ai' as const,
      type: 'server-response',
      id: 'q',
      data: { t: 'reset', d: true },
    };
    expect(decodeRtviFrame(encodeRtviFrame(message))).toMatchObject({ ok: true, message });
  });

  it('round-trips arbitrary frames', () => {
    const id = fc.option(fc.bigInt({ min: 1n, max: (1n << 64n) - 1n }), { nil: undefined });
    const name = fc.option(fc.string({ minLength: 1 }), { nil: undefined });
    const identity = (r: { id?: bigint | undefined; name?: string | undefined }) => {
      const out: { id?: bigint; name?: string } = {};
      if (r.id !== undefined) out.id = r.id;
      if (r.name !== undefined) out.name = r.name;
      return out;
    };
    const arbitrary: fc.Arbitrary<PipecatFrame> = fc.oneof(
      fc
        .record({ id, name, text: fc.string() })
        .map((r) => ({ kind: 'text' as const, ...identity(r), text: r.text })),
      fc
        .record({
          id,
          name,
          audio: fc.uint8Array({ maxLength: 4000 }),
          sampleRate: fc.integer({ min: 0, max: 0xffffffff }),
          numChannels: fc.integer({ min: 0, max: 8 }),
          pts: fc.option(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), { nil: undefined }),
        })
        .map((r) => {
          const f: PipecatFrame = {
            kind: 'audio',
            ...identity(r),
            audio: r.audio,
            sampleRate: r.sampleRate,
            numChannels: r.numChannels,
          };
          if (r.pts !== undefined) f.pts = r.pts;
          return f;
        }),
      fc.string().map((data) => ({ kind: 'message' as const, data })),
      fc.record({ id, name }).map((r) => ({ kind: 'interruption' as const, ...identity(r) })),
    );
    fc.assert(
      fc.property(arbitrary, (frame) => {
        const decoded = decodeFrame(encodeFrame(frame));
        if (frame.kind === 'message' && /[\ud800-\udfff]/.test(frame.data)) return; // lone surrogates are not UTF-8
        if (frame.kind === 'text' && /[\ud800-\udfff]/.test(frame.text + (frame.name ?? '')))
          return;
        if (frame.kind === 'interruption' && /[\ud800-\udfff]/.test(frame.name ?? '')) return;
        if (frame.kind === 'audio' && /[\ud800-\udfff]/.test(frame.name ?? '')) return;
        expect(decoded).toEqual(frame);
      }),
      { numRuns: 500 },
    );
  });
});

describe('hostile bytes', () => {
  it('rejects an empty frame and unknown oneof fields with FrameDecodeError', () => {
    expect(() => decodeFrame(new Uint8Array())).toThrow(FrameDecodeError);
    expect(() => decodeFrame(new Uint8Array([0x32, 0x00]))).toThrow(/no payload/);
  });

  it('rejects truncated frames', () => {
    const bytes = encodeRtviFrame({ label: 'rtvi-ai', type: 'client-ready', id: 'a' });
    for (let n = 1; n < bytes.length; n++) {
      expect(() => decodeFrame(bytes.subarray(0, n))).toThrow(FrameDecodeError);
    }
  });

  it('never throws anything but FrameDecodeError on random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), (bytes) => {
        try {
          decodeFrame(bytes);
        } catch (err) {
          expect(err).toBeInstanceOf(FrameDecodeError);
        }
        const soft = tryDecodeFrame(bytes);
        if (!soft.ok) expect(soft.error).toBeInstanceOf(FrameDecodeError);
        decodeRtviFrame(bytes);
      }),
      { numRuns: 5000 },
    );
  });

  it('never throws on random bytes after a valid message prefix', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 64 }),
        fc.uint8Array({ maxLength: 64 }),
        (head, tail) => {
          const bytes = new Uint8Array([
            0x22,
            head.length + 2,
            0x0a,
            head.length,
            ...head,
            ...tail,
          ]);
          const result = decodeRtviFrame(bytes);
          expect(typeof result.ok).toBe('boolean');
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('reports non-JSON message frames and non-message frames as reasons', () => {
    expect(decodeRtviFrame(encodeFrame({ kind: 'message', data: 'not json' }))).toMatchObject({
      ok: false,
      reason: 'bad-envelope',
    });
    expect(decodeRtviFrame(encodeFrame({ kind: 'interruption' }))).toMatchObject({
      ok: false,
      reason: 'not-a-message',
    });
    expect(decodeRtviFrame(new Uint8Array([0xff]))).toMatchObject({
      ok: false,
      reason: 'not-a-frame',
    });
  });

  it('refuses a non-Uint8Array input', () => {
    // @ts-expect-error: a string where the bytes belong, on purpose
    expect(() => decodeFrame('x')).toThrow(FrameDecodeError);
  });
});
