import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { create, toBinary } from '@bufbuild/protobuf';
import { encodeAudioRawFrame } from './audio-frame.js';
import { FrameSchema } from './generated/frames_pb.js';
import {
  decodeClientFrame,
  decodeRtviFrame,
  encodeAudioFrame,
  encodeFrame,
  encodeRtviFrame,
  parseClientToServer,
  readClientMessage,
} from './index.js';

const viaLibrary = (audio: Uint8Array, sampleRate: number, numChannels: number) =>
  toBinary(
    FrameSchema,
    create(FrameSchema, {
      frame: { case: 'audio', value: { audio, sampleRate, numChannels } },
    }),
  );

describe('audio frame encoding', () => {
  it('writes the same bytes as the protobuf library, pooled or not', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 5000 }),
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.integer({ min: 0, max: 8 }),
        fc.boolean(),
        (audio, sampleRate, numChannels, pooled) => {
          const want = [...viaLibrary(audio, sampleRate, numChannels)];
          expect([...encodeAudioFrame(audio, sampleRate, numChannels, { pooled })]).toEqual(want);
          const frame = { kind: 'audio' as const, audio, sampleRate, numChannels };
          expect([...encodeFrame(frame, { pooled })]).toEqual(want);
          // Without Node's Buffer (a browser).
          const plain = encodeAudioRawFrame(audio, sampleRate, numChannels, pooled, undefined);
          expect([...plain]).toEqual(want);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('encodes the 40 ms frame of 24 kHz speech the server sends', () => {
    const pcm = new Uint8Array(1920).map((_, i) => i % 251);
    const bytes = encodeAudioFrame(pcm, 24_000, 1, { pooled: true });
    expect([...bytes]).toEqual([...viaLibrary(pcm, 24_000, 1)]);
    expect(decodeClientFrame(bytes)).toEqual({
      kind: 'audio',
      frame: { kind: 'audio', audio: pcm, sampleRate: 24_000, numChannels: 1 },
    });
  });

  it('leaves a rate that is not a uint32 to the library (which refuses it alike)', () => {
    const pcm = new Uint8Array(4);
    for (const rate of [-1, 1.5, 2 ** 32]) {
      let direct: unknown;
      let library: unknown;
      try {
        direct = [...encodeAudioFrame(pcm, rate, 1)];
      } catch (err) {
        direct = String(err);
      }
      try {
        library = [...viaLibrary(pcm, rate, 1)];
      } catch (err) {
        library = String(err);
      }
      expect(direct).toEqual(library);
    }
  });
});

describe('decodeClientFrame', () => {
  it('gives audio as a frame of its own kind', () => {
    const audio = new Uint8Array([1, 2, 3, 4]);
    const bytes = encodeFrame({ kind: 'audio', audio, sampleRate: 16_000, numChannels: 1 });
    expect(decodeClientFrame(bytes)).toMatchObject({ kind: 'audio', frame: { audio } });
  });

  it('gives a valid message once decoded and validated', () => {
    const message = { label: 'rtvi-ai' as const, type: 'client-ready', id: 'a', data: {} };
    expect(decodeClientFrame(encodeRtviFrame(message))).toEqual({ kind: 'message', message });
  });

  it('names each failure', () => {
    const envelope = (value: object) =>
      encodeFrame({ kind: 'message', data: JSON.stringify(value) });
    expect(decodeClientFrame(new Uint8Array([0xff]))).toMatchObject({
      kind: 'error',
      reason: 'not-a-frame',
    });
    expect(decodeClientFrame(encodeFrame({ kind: 'message', data: 'not json' }))).toMatchObject({
      kind: 'error',
      reason: 'bad-envelope',
      error: { kind: 'invalid' },
    });
    expect(decodeClientFrame(envelope({ label: 'other', type: 'x' }))).toMatchObject({
      kind: 'error',
      reason: 'bad-envelope',
      error: { kind: 'foreign-label' },
    });
    expect(decodeClientFrame(envelope({ label: 'rtvi-ai', type: 'nope', id: 'q' }))).toEqual({
      kind: 'error',
      reason: 'invalid-message',
      envelope: { label: 'rtvi-ai', type: 'nope', id: 'q' },
      error: expect.objectContaining({ kind: 'unknown-type', id: 'q' }),
    });
    expect(
      decodeClientFrame(envelope({ label: 'rtvi-ai', type: 'send-text', id: 'q', data: {} })),
    ).toMatchObject({ kind: 'error', reason: 'invalid-message', error: { kind: 'invalid-data' } });
    expect(decodeClientFrame(encodeFrame({ kind: 'interruption' }))).toEqual({
      kind: 'frame',
      frame: { kind: 'interruption' },
    });
    expect(decodeClientFrame(encodeFrame({ kind: 'text', text: 'hi' }))).toEqual({
      kind: 'frame',
      frame: { kind: 'text', text: 'hi' },
    });
  });

  it('agrees with decoding the envelope and parsing it again', () => {
    const type = fc.constantFrom('client-ready', 'client-message', 'send-text', 'action', 'x');
    const data = fc.oneof(
      fc.constant(undefined),
      fc.record({ t: fc.string(), d: fc.jsonValue() }),
      fc.record({ content: fc.oneof(fc.string(), fc.integer()) }),
      fc.jsonValue(),
    );
    const label = fc.constantFrom('rtvi-ai', 'rtvi-ai', 'other');
    const id = fc.option(fc.string(), { nil: undefined });
    fc.assert(
      fc.property(label, type, id, data, (l, t, i, d) => {
        const bytes = encodeRtviFrame({ label: l, type: t, id: i, data: d } as never);
        const once = decodeClientFrame(bytes);
        const twice = decodeRtviFrame(bytes);
        if (!twice.ok) {
          expect(once).toMatchObject({ kind: 'error', reason: twice.reason });
          return;
        }
        const parsed = parseClientToServer(twice.message);
        if (parsed.ok) expect(once).toEqual({ kind: 'message', message: parsed.value });
        else {
          expect(once).toEqual({
            kind: 'error',
            reason: 'invalid-message',
            envelope: twice.message,
            error: parsed.error,
          });
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('readClientMessage', () => {
  it('reads JSON text from a transport without frames', () => {
    const message = { label: 'rtvi-ai', type: 'client-message', id: '1', data: { t: 'reset' } };
    expect(readClientMessage(JSON.stringify(message))).toEqual({ kind: 'message', message });
    expect(readClientMessage('[')).toMatchObject({ kind: 'error', reason: 'bad-envelope' });
  });
});
