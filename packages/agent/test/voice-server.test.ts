/**
 * The bot server as a voice bot over a real socket: it hears Flite speech
 * sent as 16 kHz `AudioRawFrame`s (VAD, PocketSphinx), answers with 24 kHz
 * audio in 40 ms frames, and emits Pipecat's RTVI voice events in order.
 * Audio runs on the fast clock (sent as fast as it is synthesized).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RTVIMessage } from '@scenaro/sdk/protocol';
import { OUTPUT_SAMPLE_RATE, createPocketsphinxSpeechToText, wordErrors } from '../src/index.js';
import type { BotServer, TextToSpeech } from '../src/index.js';
import { RtviClient } from '../src/testing/index.js';
import { listenTestServer } from './fixtures.js';
import {
  echoConversation,
  echoReply,
  pocketsphinxMissing,
  sendStream,
  silence,
  speak,
  testTts,
} from './voice-fixtures.js';

const missing = await pocketsphinxMissing('the voice server tests');
const runs = missing === undefined || process.env['CI'] === 'true';

function types(messages: RTVIMessage[]): string[] {
  return messages.map((m) => m.type);
}

/** Index of the first message of `type` (after `from`), failing when there is none. */
function indexOf(messages: RTVIMessage[], type: string, from = 0): number {
  const i = messages.findIndex((m, n) => n >= from && m.type === type);
  expect(i, `${type} after #${from} in ${types(messages).join(', ')}`).toBeGreaterThanOrEqual(0);
  return i;
}

describe.skipIf(!runs)('voice bot server (fast clock)', () => {
  let server: BotServer;
  let tts: TextToSpeech;

  beforeAll(async () => {
    if (missing) throw missing; // under CI the engine must be installed
    tts = testTts();
    server = await listenTestServer({
      conversation: echoConversation,
      voice: {
        stt: createPocketsphinxSpeechToText(),
        tts: testTts(),
        pacing: 'fast',
        vad: { stopMs: 600 },
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await tts?.close();
  });

  it('hears an utterance, answers in speech, and emits the voice events in order', async () => {
    const client = await RtviClient.connect(server.url);
    try {
      await client.handshake();
      const said = 'I would like to cancel my reservation.';
      sendStream(client, silence(500), await speak(tts, said), silence(1500));
      const final = await client.waitFor(
        (m) => m.type === 'user-transcription' && (m.data as { final: boolean }).final,
        'the final transcript',
        { timeoutMs: 30_000 },
      );
      const heard = (final.data as { text: string }).text;
      expect(wordErrors(said, heard).wer).toBeLessThanOrEqual(0.35);
      await client.waitFor((m) => m.type === 'bot-stopped-speaking', 'the end of the reply', {
        timeoutMs: 30_000,
      });

      const m = client.messages;
      const started = indexOf(m, 'user-started-speaking');
      const stopped = indexOf(m, 'user-stopped-speaking', started);
      const transcript = m.indexOf(final);
      expect(transcript).toBeGreaterThan(started);
      const userText = indexOf(m, 'user-llm-text', stopped);
      expect((m[userText]!.data as { text: string }).text).toBe(heard);
      const ttsStarted = indexOf(m, 'bot-tts-started', userText);
      const speaking = indexOf(m, 'bot-started-speaking', ttsStarted);
      const ttsText = indexOf(m, 'bot-tts-text', speaking);
      const ttsStopped = indexOf(m, 'bot-tts-stopped', ttsText);
      const botStopped = indexOf(m, 'bot-stopped-speaking', ttsStopped);
      expect(botStopped).toBeGreaterThan(ttsStopped);

      // Every sentence of the reply is spoken, in order, and reported as spoken.
      const spoken = m
        .filter((x) => x.type === 'bot-tts-text')
        .map((x) => (x.data as { text: string }).text);
      expect(spoken.join(' ')).toBe(echoReply(heard));
      const outputs = m
        .filter((x) => x.type === 'bot-output')
        .map((x) => x.data as Record<string, unknown>);
      expect(outputs.map((o) => o['text'])).toEqual(spoken);
      expect(outputs.every((o) => o['spoken'] === true && o['aggregated_by'] === 'sentence')).toBe(
        true,
      );

      // The reply's audio: 24 kHz mono in 40 ms frames, all between started and stopped speaking.
      expect(client.audio.length).toBeGreaterThan(10);
      for (const { frame, afterMessages } of client.audio) {
        expect(frame.sampleRate).toBe(OUTPUT_SAMPLE_RATE);
        expect(frame.numChannels).toBe(1);
        expect(frame.audio.byteLength).toBe(1920);
        expect(afterMessages).toBeGreaterThan(speaking);
        expect(afterMessages).toBeLessThanOrEqual(botStopped);
      }
      const first = client.audio[0]!.frame.audio;
      expect(first.some((b) => b !== 0)).toBe(true);

      // Metrics: STT ttfb and usage, TTS ttfb and characters, LLM ttfb.
      const metrics = m
        .filter((x) => x.type === 'metrics')
        .map((x) => x.data as Record<string, { processor: string }[]>);
      const processors = (key: string) =>
        metrics.flatMap((x) => x[key] ?? []).map((v) => v.processor);
      expect(processors('ttfb')).toEqual(
        expect.arrayContaining(['pocketsphinx-stt', 'flite-tts', 'EchoPolicy']),
      );
      expect(processors('stt_usage')).toContain('pocketsphinx-stt');
      expect(processors('characters')).toContain('flite-tts');
    } finally {
      await client.close();
    }
  }, 60_000);
});
