/**
 * What voice tests share: whether PocketSphinx is here (a test without it skips loudly, except
 * on CI, which installs it and must fail instead), and speech at the recognizer's input rate.
 */
import { createPocketsphinxSpeechToText } from '../voice/engines/pocketsphinx/pocketsphinx-stt.js';
import { INPUT_SAMPLE_RATE } from '../voice/audio/pcm.js';
import { resamplePcm16 } from '../voice/audio/resampler.js';
import { synthesizeAll } from '../voice/tts.js';
import type { TextToSpeech } from '../voice/tts.js';

/** Why the PocketSphinx tests cannot run here (undefined when they can). */
export async function pocketsphinxMissing(what: string): Promise<Error | undefined> {
  const missing = await createPocketsphinxSpeechToText()
    .check()
    .then(
      () => undefined,
      (error: Error) => error,
    );
  if (missing && process.env['CI'] !== 'true') {
    console.warn(`\n!!! SKIPPING ${what}: ${missing.message}\n`);
  }
  return missing;
}

/** The speech of `text` by `tts` at the recognizer's input rate (16 kHz mono). */
export async function speak(tts: TextToSpeech, text: string): Promise<Uint8Array> {
  return resamplePcm16(await synthesizeAll(tts, text), tts.sampleRate, INPUT_SAMPLE_RATE);
}
