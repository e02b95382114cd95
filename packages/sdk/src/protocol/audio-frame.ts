/**
 * The other hot path of the frame codec: a `Frame` whose oneof is an `AudioRawFrame` with only
 * audio, rate and channels (the bot's speech, a client's microphone). Its layout is fixed
 * (`12 varint(inner) [1a varint(n) <pcm>] [20 varint(rate)] [28 varint(channels)]`), so it is
 * written directly: one buffer, the samples copied into it once. The bytes are identical to
 * `toBinary`'s (the tests compare them).
 *
 * It is read directly too, with an ASCII `name` before the audio as Pipecat's clients send it
 * (`12 varint(inner) [12 varint(n) <name>] [1a ...] [20 ...] [28 ...]`): a client streaming its
 * microphone, or flooding the server, sends dozens of these a second, and the reflection-based
 * `fromBinary` spends most of its time allocating. Any other frame (an id, a pts, a field
 * repeated or out of order, an unknown field, a name that is not ASCII) is left to the library,
 * and the reader agrees with it on every frame it reads (the tests compare them).
 *
 * Internal to the protocol module; {@link encodeFrame}, {@link encodeAudioFrame} and
 * {@link decodeFrame} use it.
 */
import { varintLength, writeVarint } from './message-frame.js';
import type { NodeBufferLike } from './message-frame.js';

/**
 * `AudioRawFrame` is field 2 of `Frame`; its `name` 2 (string), `audio` 3 (bytes), `sample_rate`
 * 4, `num_channels` 5.
 */
const FRAME_AUDIO_TAG = (2 << 3) | 2;
const NAME_TAG = (2 << 3) | 2;
/** Longest `name` read directly (Pipecat's clients send `audio`); a longer one is for the library. */
const MAX_NAME_BYTES = 64;
const AUDIO_TAG = (3 << 3) | 2;
const SAMPLE_RATE_TAG = 4 << 3;
const CHANNELS_TAG = 5 << 3;

const nodeBuffer = (globalThis as { Buffer?: NodeBufferLike }).Buffer;

/** Is `n` a value this writer encodes as protobuf does (a uint32)? */
export function isUint32(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 0xffffffff;
}

/** Bytes of one optional uint32 field (proto3 leaves 0 out). */
function uint32FieldLength(n: number): number {
  return n === 0 ? 0 : 1 + varintLength(n);
}

/**
 * Serialize `Frame { audio: AudioRawFrame { audio, sample_rate, num_channels } }`. `sampleRate`
 * and `numChannels` must pass {@link isUint32}. With `pooled`, a small frame is written into
 * Node's shared allocation pool (see `FrameEncodeOptions`).
 */
export function encodeAudioRawFrame(
  audio: Uint8Array,
  sampleRate: number,
  numChannels: number,
  pooled = false,
  buffer: NodeBufferLike | undefined = nodeBuffer,
): Uint8Array {
  const n = audio.byteLength;
  const inner =
    (n === 0 ? 0 : 1 + varintLength(n) + n) +
    uint32FieldLength(sampleRate) +
    uint32FieldLength(numChannels);
  const length = 1 + varintLength(inner) + inner;
  const out = buffer
    ? pooled
      ? buffer.allocUnsafe(length)
      : buffer.allocUnsafeSlow(length)
    : new Uint8Array(length);
  let offset = 0;
  out[offset++] = FRAME_AUDIO_TAG;
  offset = writeVarint(out, offset, inner);
  if (n > 0) {
    out[offset++] = AUDIO_TAG;
    offset = writeVarint(out, offset, n);
    out.set(audio, offset);
    offset += n;
  }
  if (sampleRate !== 0) {
    out[offset++] = SAMPLE_RATE_TAG;
    offset = writeVarint(out, offset, sampleRate);
  }
  if (numChannels !== 0) {
    out[offset++] = CHANNELS_TAG;
    writeVarint(out, offset, numChannels);
  }
  return buffer ? new Uint8Array(out.buffer, out.byteOffset, out.byteLength) : out;
}

/** A frame {@link readPlainAudioFrame} reads: `decodeFrame`'s value for it. */
export interface PlainAudioFrame {
  kind: 'audio';
  name?: string;
  audio: Uint8Array;
  sampleRate: number;
  numChannels: number;
}

/** Where {@link readPlainAudioFrame} reads (it never re-enters). */
let at = 0;

/** The varint at `at` if it is a uint32 before `end` (`at` moves past it), else -1. */
function uint32At(bytes: Uint8Array, end: number): number {
  let value = 0;
  for (let shift = 0; shift < 28; shift += 7) {
    if (at >= end) return -1;
    const byte = bytes[at++]!;
    value |= (byte & 0x7f) << shift;
    if (byte < 0x80) return value >>> 0;
  }
  // The fifth byte holds the top 4 bits and ends the varint; a longer one is for the library.
  if (at >= end || bytes[at]! > 0x0f) return -1;
  return (value >>> 0) + bytes[at++]! * 0x10000000;
}

/** The length-delimited field's size at `at` if it ends by `end`, else -1. */
function lengthAt(bytes: Uint8Array, end: number): number {
  const n = uint32At(bytes, end);
  return n >= 0 && n <= end - at ? n : -1;
}

/**
 * `bytes` as a plain audio frame (see the module comment), or undefined for the library to
 * decode. The audio is a view into `bytes`, as the library's is.
 */
export function readPlainAudioFrame(bytes: Uint8Array): PlainAudioFrame | undefined {
  const end = bytes.length;
  if (end === 0 || bytes[0] !== FRAME_AUDIO_TAG) return undefined;
  at = 1;
  const inner = lengthAt(bytes, end);
  // The audio must be the frame's only field.
  if (inner < 0 || at + inner !== end) return undefined;
  let name = '';
  let audio: Uint8Array | undefined;
  let sampleRate = 0;
  let numChannels = 0;
  let field = 0;
  while (at < end) {
    const tag = bytes[at++]!;
    // Each field once, in order (a repeated field's last value would win in the library).
    if (tag >> 3 <= field) return undefined;
    field = tag >> 3;
    if (tag === AUDIO_TAG || tag === NAME_TAG) {
      const n = lengthAt(bytes, end);
      if (n < 0) return undefined;
      const start = at;
      at += n;
      if (tag === AUDIO_TAG) audio = bytes.subarray(start, at);
      else if (n > 0) {
        if (n > MAX_NAME_BYTES) return undefined;
        for (let i = start; i < at; i++) {
          if (bytes[i]! > 0x7f) return undefined;
          name += String.fromCharCode(bytes[i]!);
        }
      }
    } else if (tag === SAMPLE_RATE_TAG || tag === CHANNELS_TAG) {
      const n = uint32At(bytes, end);
      if (n < 0) return undefined;
      if (tag === SAMPLE_RATE_TAG) sampleRate = n;
      else numChannels = n;
    } else return undefined;
  }
  const frame: PlainAudioFrame = {
    kind: 'audio',
    audio: audio ?? new Uint8Array(0),
    sampleRate,
    numChannels,
  };
  if (name !== '') frame.name = name;
  return frame;
}
