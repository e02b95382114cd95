/**
 * The tail shared by synthesizers that produce a whole WAV per sentence: decode it, resample it to
 * the rate asked for and yield it in output frames.
 */
import { PcmChunker } from './chunker.js';
import { OUTPUT_CHUNK_MS } from './pcm.js';
import { Resampler } from './resampler.js';
import { decodeWav } from './wav.js';
import { abortReason } from '../engine-errors.js';

/**
 * The audio of `wav` at `sampleRate`, in `OUTPUT_CHUNK_MS` frames (the last one may be short).
 * Throws the signal's reason when `signal` aborts between frames.
 */
export async function* wavToOutputFrames(
  wav: Uint8Array,
  sampleRate: number,
  signal: AbortSignal | undefined,
): AsyncIterable<Uint8Array> {
  const audio = decodeWav(wav);
  const resampler = await Resampler.create({ inputRate: audio.sampleRate, outputRate: sampleRate });
  const chunker = PcmChunker.forDuration(OUTPUT_CHUNK_MS, sampleRate);
  try {
    const frames = [
      ...chunker.push(resampler.processPcm16(audio.pcm)),
      ...chunker.push(resampler.flushPcm16()),
      ...chunker.flush(false),
    ];
    for (const frame of frames) {
      if (signal?.aborted) throw abortReason(signal);
      yield frame;
    }
  } finally {
    resampler.destroy();
  }
}
