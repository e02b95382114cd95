/**
 * The hot path of the frame codec: a `Frame` whose oneof is a `MessageFrame`, i.e. every RTVI
 * envelope on the wire. Its layout is fixed (`22 varint(inner) [0a varint(n) <n utf-8 bytes>]`),
 * so it is written directly instead of through the reflection-based `toBinary`, which spends most
 * of its time allocating. The bytes are identical (the tests compare them with `toBinary`).
 *
 * Internal to the protocol module; {@link encodeFrame} and {@link encodeRtviFrame} use it.
 */

type WritableBytes = Uint8Array & {
  write(text: string, offset: number, encoding: 'utf8'): number;
};

/** The part of Node's `Buffer` used here; absent in browsers. */
export interface NodeBufferLike {
  byteLength(text: string, encoding: 'utf8'): number;
  allocUnsafe(size: number): WritableBytes;
  allocUnsafeSlow(size: number): WritableBytes;
}

const nodeBuffer = (globalThis as { Buffer?: NodeBufferLike }).Buffer;
const utf8 = new TextEncoder();

/** `MessageFrame` is field 4 of `Frame`, `data` field 1 of `MessageFrame`; both length-delimited. */
const FRAME_MESSAGE_TAG = (4 << 3) | 2;
const MESSAGE_DATA_TAG = (1 << 3) | 2;

/** Bytes of the base-128 varint of `n` (an integer in [0, 2^32)). */
export function varintLength(n: number): number {
  let length = 1;
  while (n >= 0x80) {
    n >>>= 7;
    length++;
  }
  return length;
}

/** Writes the varint of `n` (an integer in [0, 2^32)) at `offset`; returns the offset after it. */
export function writeVarint(bytes: Uint8Array, offset: number, n: number): number {
  while (n >= 0x80) {
    bytes[offset++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  bytes[offset++] = n;
  return offset;
}

/** Writes the header for `n` data bytes into `bytes`; returns where the data starts. */
function writeHeader(bytes: Uint8Array, n: number): number {
  // proto3 leaves an empty string out, so an empty MessageFrame is `22 00`.
  const inner = n === 0 ? 0 : 1 + varintLength(n) + n;
  let offset = 0;
  bytes[offset++] = FRAME_MESSAGE_TAG;
  offset = writeVarint(bytes, offset, inner);
  if (n === 0) return offset;
  bytes[offset++] = MESSAGE_DATA_TAG;
  return writeVarint(bytes, offset, n);
}

function frameLength(n: number): number {
  const inner = n === 0 ? 0 : 1 + varintLength(n) + n;
  return 1 + varintLength(inner) + inner;
}

/**
 * Serialize `Frame { message: { data } }`. `buffer` is Node's `Buffer` when there is one. With
 * `pooled`, small frames are written into Node's shared allocation pool, several times faster
 * than a buffer of their own; the result is then a view into memory other frames share (see
 * {@link FrameEncodeOptions}). Otherwise the result owns its whole `ArrayBuffer`. Lone surrogates
 * become U+FFFD, as with `toBinary`.
 */
export function encodeMessageFrame(
  data: string,
  pooled = false,
  buffer: NodeBufferLike | undefined = nodeBuffer,
): Uint8Array {
  if (buffer) {
    const n = buffer.byteLength(data, 'utf8');
    const length = frameLength(n);
    const out = pooled ? buffer.allocUnsafe(length) : buffer.allocUnsafeSlow(length);
    const start = writeHeader(out, n);
    if (n > 0) out.write(data, start, 'utf8');
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  }
  const text = utf8.encode(data);
  const out = new Uint8Array(frameLength(text.length));
  out.set(text, writeHeader(out, text.length));
  return out;
}
