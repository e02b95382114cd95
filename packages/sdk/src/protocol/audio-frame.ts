/**
 * The other hot path of the frame codec: a `Frame` whose oneof is an `AudioRawFrame` with only
 * audio, rate and channels (the bot's speech, a client's microphone). Its layout is fixed
 * (`12 varint(inner) [1a varint(n) <pcm>] [20 varint(rate)] [28 varint(channels)]`), so it is
 * written directly: one buffer, the samples copied into it once. The bytes are identical to
 * `toBinary`'s (the tests compare them).
 *
 * Internal to the protocol module; {@link encodeFrame} and {@link encodeAudioFrame} use it.
 */
import { varintLength, writeVarint } from './message-frame.js';
import type { NodeBufferLike } from './message-frame.js';

/** `AudioRawFrame` is field 2 of `Frame`; `audio` 3 (bytes), `sample_rate` 4, `num_channels` 5. */
const FRAME_AUDIO_TAG = (2 << 3) | 2;
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
