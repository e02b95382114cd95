/**
 * What the voice server tests share: an echo policy, flite speech at the
 * input rate, a stream of 16 ms chunks, and whether PocketSphinx is here.
 */
import {
  INPUT_CHUNK_MS,
  INPUT_SAMPLE_RATE,
  PcmChunker,
  createFliteTextToSpeech,
  msToSamples,
  silencePcm16,
} from '../src/index.js';
import type { TextToSpeech } from '../src/index.js';
import type { RtviClient } from '../src/testing/index.js';

export { echoConversation, echoModel, echoReply } from '../src/testing/index.js';
export { SPOKEN_USER_TURNS as USER_TURNS } from '../src/testing/index.js';
export { pocketsphinxMissing, speak } from '../src/testing/index.js';

/** The bot's test voice: Flite's `slt`. */
export function testTts(): TextToSpeech {
  return createFliteTextToSpeech({ voice: 'slt' });
}

/** The user's test voice: Flite's `kal16` (a 16 kHz diphone voice, what users sound like here). */
export function userTts(): TextToSpeech {
  return createFliteTextToSpeech({ voice: 'kal16' });
}

/** `ms` of silence at the input rate. */
export function silence(ms: number): Uint8Array {
  return silencePcm16(msToSamples(ms, INPUT_SAMPLE_RATE));
}

/** Send `parts` as the browser does: 16 ms frames (512 bytes), as fast as the socket takes them. */
export function sendStream(client: RtviClient, ...parts: Uint8Array[]): void {
  const chunker = PcmChunker.forDuration(INPUT_CHUNK_MS, INPUT_SAMPLE_RATE);
  for (const part of parts) for (const chunk of chunker.push(part)) client.sendAudio(chunk);
  for (const chunk of chunker.flush()) client.sendAudio(chunk);
}
