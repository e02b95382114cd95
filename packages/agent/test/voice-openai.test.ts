/**
 * The voice bot on OpenAI-compatible speech endpoints (the production
 * setup), against the local audio test server: each utterance the VAD cuts
 * is posted as one 16 kHz WAV to `/audio/transcriptions`, and each sentence
 * of the reply is fetched as 24 kHz PCM from `/audio/speech`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOpenAISpeechToText,
  createOpenAITextToSpeech,
  decodeWav,
} from '../src/voice/index.js';
import {
  startOpenAIAudioTestServer,
  testSpeechPcm,
} from '../src/testing/openai-audio-test-server.js';
import type { OpenAIAudioTestServer } from '../src/testing/openai-audio-test-server.js';
import { withRtviClient } from './fixtures.js';
import { echoReply, sendStream, silence, speak, useVoiceServer } from './voice-fixtures.js';

describe('voice bot on OpenAI-compatible speech endpoints', () => {
  let endpoint: OpenAIAudioTestServer;
  beforeAll(async () => {
    endpoint = await startOpenAIAudioTestServer();
  });
  afterAll(async () => {
    await endpoint?.close();
  });
  const suite = useVoiceServer(undefined, () => {
    const options = { baseURL: endpoint.baseURL, apiKey: 'test-key' };
    return {
      stt: createOpenAISpeechToText(options),
      tts: createOpenAITextToSpeech(options),
      pacing: 'fast',
      vad: { stopMs: 500 },
    };
  });

  it('posts each utterance as a WAV and speaks the reply fetched as PCM', async () => {
    const uploads: { sampleRate: number; channels: number; seconds: number }[] = [];
    endpoint.transcribe = (file) => {
      const wav = decodeWav(file);
      uploads.push({
        sampleRate: wav.sampleRate,
        channels: wav.channels,
        seconds: wav.pcm.length / 2 / wav.sampleRate,
      });
      return 'I want to change my flight';
    };
    await withRtviClient(suite.server.url, async (client) => {
      const speech = await speak(suite.tts, 'I want to change my flight to next Friday.');
      sendStream(client, silence(300), speech, silence(1000));
      await client.waitFor((m) => m.type === 'bot-stopped-speaking', 'the spoken reply');

      expect(uploads).toHaveLength(1);
      const seconds = speech.length / 2 / 16_000;
      expect(uploads[0]).toMatchObject({ sampleRate: 16_000, channels: 1 });
      // The utterance the VAD cut: the speech, give or take its onset and hangover.
      expect(Math.abs(uploads[0]!.seconds - seconds)).toBeLessThan(0.4);

      const reply = echoReply('I want to change my flight');
      const spoken = client.messages
        .filter((m) => m.type === 'bot-tts-text')
        .map((m) => (m.data as { text: string }).text);
      expect(spoken.join('')).toBe(reply);
      const asked = endpoint.requests
        .filter((r) => r.path.endsWith('/audio/speech'))
        .map((r) => r.fields['input']);
      expect(asked).toEqual(spoken.map((t) => t.trim()));
      // The endpoint's audio in 40 ms frames: each sentence padded to whole frames, then one frame
      // of silence ending the reply.
      const received = client.audio.reduce((n, a) => n + a.frame.audio.length, 0);
      const expected = spoken.reduce(
        (n, text) => n + Math.ceil(testSpeechPcm(text).length / 1920) * 1920,
        0,
      );
      expect(received).toBe(expected + 1920);
      expect(client.audio.every((a) => a.frame.sampleRate === 24_000)).toBe(true);
    });
  }, 30_000);
});
