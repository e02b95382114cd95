/**
 * What the speech synthesizer tests share: the loudness of PCM16, a sentence spoken in 40 ms
 * frames at 24 kHz, and how a synthesizer stops when aborted and after close.
 */
import { expect } from 'vitest';
import { pcm16ToInt16 } from '../voice/audio/pcm.js';
import { synthesizeAll } from '../voice/tts.js';
import type { TextToSpeech } from '../voice/tts.js';

/** Root mean square of PCM16 samples. */
export function rms(pcm: Uint8Array): number {
  const samples = pcm16ToInt16(pcm);
  let sum = 0;
  for (const s of samples) sum += s * s;
  return Math.sqrt(sum / Math.max(1, samples.length));
}

/**
 * Speak `text`, expecting 40 ms frames at 24 kHz (the last may be short) and audible speech;
 * the frames are returned.
 */
export async function expectSpokenFrames(tts: TextToSpeech, text: string): Promise<Uint8Array[]> {
  expect(tts.sampleRate).toBe(24_000);
  const chunks: Uint8Array[] = [];
  for await (const chunk of tts.synthesize(text)) chunks.push(chunk);
  expect(chunks.slice(0, -1).every((c) => c.length === 1920)).toBe(true);
  expect(Math.max(...chunks.map(rms))).toBeGreaterThan(1000);
  return chunks;
}

/**
 * `tts` rejects with the signal's reason when aborted before or during a sentence, and `closed`
 * (a synthesizer of the same kind) rejects once closed.
 */
export async function expectStopsWhenAbortedAndClosed(
  tts: TextToSpeech,
  closed: TextToSpeech,
): Promise<void> {
  const controller = new AbortController();
  controller.abort(new Error('user barged in'));
  await expect(synthesizeAll(tts, 'Hello there.', { signal: controller.signal })).rejects.toThrow(
    'user barged in',
  );
  const late = new AbortController();
  const pending = synthesizeAll(tts, 'A much longer sentence that takes a while to say.', {
    signal: late.signal,
  });
  late.abort(new Error('interrupted'));
  await expect(pending).rejects.toThrow('interrupted');
  await closed.close();
  await expect(synthesizeAll(closed, 'Hello.')).rejects.toThrow(/closed/);
}
