/**
 * Cutting a PCM16 byte stream into frames of a fixed duration (16 ms in,
 * 40 ms out): bytes are carried over between pushes, so frames never split a
 * sample whatever sizes the stream arrives in.
 */
import { pcm16FrameBytes } from './pcm.js';

/** Splits a stream of PCM16 bytes into frames of `frameBytes` bytes. */
export class PcmChunker {
  readonly frameBytes: number;
  private pending: Uint8Array = new Uint8Array(0);

  constructor(frameBytes: number) {
    if (!Number.isInteger(frameBytes) || frameBytes <= 0 || frameBytes % 2 !== 0) {
      throw new RangeError(`frame size must be a positive even number of bytes, got ${frameBytes}`);
    }
    this.frameBytes = frameBytes;
  }

  /** A chunker for frames of `ms` milliseconds of `channels`-channel audio at `sampleRate`. */
  static forDuration(ms: number, sampleRate: number, channels = 1): PcmChunker {
    return new PcmChunker(pcm16FrameBytes(ms, sampleRate, channels));
  }

  /** Bytes waiting for a full frame. */
  get pendingBytes(): number {
    return this.pending.length;
  }

  /** The whole frames completed by `bytes` (each a fresh copy). */
  push(bytes: Uint8Array): Uint8Array[] {
    let data = bytes;
    if (this.pending.length > 0) {
      data = new Uint8Array(this.pending.length + bytes.length);
      data.set(this.pending);
      data.set(bytes, this.pending.length);
    }
    const frames: Uint8Array[] = [];
    let offset = 0;
    for (; offset + this.frameBytes <= data.length; offset += this.frameBytes) {
      frames.push(data.slice(offset, offset + this.frameBytes));
    }
    this.pending = data.slice(offset);
    return frames;
  }

  /**
   * The rest of the stream: the pending bytes as a last frame, padded with
   * silence to a full frame when `pad` is true (an odd byte is dropped), or
   * nothing when no byte is pending.
   */
  flush(pad = true): Uint8Array[] {
    const rest = this.pending.subarray(0, this.pending.length - (this.pending.length % 2));
    this.pending = new Uint8Array(0);
    if (rest.length === 0) return [];
    if (!pad) return [rest.slice()];
    const frame = new Uint8Array(this.frameBytes);
    frame.set(rest);
    return [frame];
  }

  /** Drop the pending bytes. */
  reset(): void {
    this.pending = new Uint8Array(0);
  }
}
