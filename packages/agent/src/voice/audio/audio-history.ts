/**
 * The recent past of a PCM16 stream, addressed by sample position: chunks
 * are kept with the position they start at, so an utterance can be cut out
 * once its bounds are known, and anything older than needed is dropped.
 */
import { concatBytes } from './pcm.js';

/** A window of a mono PCM16 stream. */
export class AudioHistory {
  private readonly chunks: Array<{ start: number; pcm: Uint8Array }> = [];
  private end = 0;
  private kept = 0;

  /** Stream position after the last appended sample. */
  get samples(): number {
    return this.end;
  }

  /** PCM bytes still kept. */
  get bytes(): number {
    return this.kept;
  }

  /** Append `pcm` at the current end of the stream. */
  append(pcm: Uint8Array): void {
    if (pcm.length === 0) return;
    this.chunks.push({ start: this.end, pcm });
    this.end += pcm.length >> 1;
    this.kept += pcm.length;
  }

  /** The samples in [from, to) that are still kept, as PCM16 bytes. */
  slice(from: number, to = this.end): Uint8Array {
    const parts: Uint8Array[] = [];
    for (const { start, pcm } of this.chunks) {
      const chunkEnd = start + (pcm.length >> 1);
      if (chunkEnd <= from || start >= to) continue;
      const a = Math.max(from, start) - start;
      const b = Math.min(to, chunkEnd) - start;
      parts.push(pcm.subarray(a * 2, b * 2));
    }
    return concatBytes(parts);
  }

  /** Forget whole chunks that end at or before `sample`. */
  dropBefore(sample: number): void {
    let n = 0;
    while (n < this.chunks.length) {
      const { start, pcm } = this.chunks[n]!;
      if (start + (pcm.length >> 1) > sample) break;
      this.kept -= pcm.length;
      n++;
    }
    this.chunks.splice(0, n);
  }
}
