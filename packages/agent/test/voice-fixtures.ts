/**
 * What the voice server tests share: an echo policy, flite speech at the
 * input rate, a stream of 16 ms chunks, the final transcripts a client was sent, whether PocketSphinx is here, and a
 * voice bot server for a suite.
 */
import { afterAll, beforeAll } from 'vitest';
import {
  INPUT_CHUNK_MS,
  INPUT_SAMPLE_RATE,
  PcmChunker,
  createFliteTextToSpeech,
  msToSamples,
  silencePcm16,
} from '../src/voice/index.js';
import type { BotServer } from '../src/index.js';
import type { TextToSpeech, VoiceOptions } from '../src/voice/index.js';
import { echoConversation } from '../src/testing/index.js';
import type { RtviClient } from '../src/testing/index.js';
import { listenTestServer } from './fixtures.js';

export { echoConversation, echoModel, echoReply } from '../src/testing/index.js';
export { SPOKEN_USER_TURNS as USER_TURNS } from '../src/testing/index.js';
import { pocketsphinxMissing } from '../src/testing/index.js';
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

/** The final transcripts the client was sent, in order. */
export function finalTranscripts(client: RtviClient): string[] {
  return client.messages
    .filter((m) => m.type === 'user-transcription' && (m.data as { final: boolean }).final)
    .map((m) => (m.data as { text: string }).text);
}

/**
 * Whether the PocketSphinx tests of `what` run: where the engine is, and always under CI (where
 * a missing engine fails them; see {@link useVoiceServer}).
 */
export async function pocketsphinxTests(
  what: string,
): Promise<{ missing: Error | undefined; runs: boolean }> {
  const missing = await pocketsphinxMissing(what);
  return { missing, runs: missing === undefined || process.env['CI'] === 'true' };
}

/** What a voice suite runs against. */
export interface VoiceSuite {
  /** The bot server: the echo policy, with the suite's voice options. */
  readonly server: BotServer;
  /** The voice the suite's user speaks with. */
  readonly tts: TextToSpeech;
}

/**
 * For the enclosing suite: a voice bot server with the echo policy and `voice()` (built when the
 * suite starts), and a user voice (`testTts()` unless given), both closed after the suite.
 * Throws before the suite when an engine it needs is `missing`.
 */
export function useVoiceServer(
  missing: Error | undefined,
  voice: () => VoiceOptions,
  userVoice: () => TextToSpeech = testTts,
): VoiceSuite {
  let server: BotServer | undefined;
  let tts: TextToSpeech | undefined;
  beforeAll(async () => {
    if (missing) throw missing; // under CI the engine must be installed
    tts = userVoice();
    server = await listenTestServer({ conversation: echoConversation, voice: voice() });
  });
  afterAll(async () => {
    await server?.close();
    await tts?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the voice suite has not started');
    return value;
  };
  return {
    get server() {
      return started(server);
    },
    get tts() {
      return started(tts);
    },
  };
}
