/**
 * Speech the bot's recognizer made nothing of, over a real socket: a conversation whose policy
 * has a reprompt says it (and it is in the context), once the caller spoke for a second or more
 * and the bot was silent; a shorter sound is let go, and a policy without one stays silent (and
 * holds no turn for it in its heard reports).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOracleSpeechToText } from '../src/voice/index.js';
import type { BotServer } from '../src/index.js';
import type { TextToSpeech } from '../src/voice/index.js';
import { createConversationEngine } from '../src/conversation/engine.js';
import { RtviClient } from '../src/testing/index.js';
import { listenTestServer } from './fixtures.js';
import {
  echoConversation,
  echoModel,
  finalTranscripts,
  sendStream,
  silence,
  speak,
  testTts,
  userTts,
} from './voice-fixtures.js';

const REPROMPT = "Sorry, I didn't catch that. Could you say it again?";

function spoken(client: RtviClient): string[] {
  return client.messages
    .filter((m) => m.type === 'bot-tts-text')
    .map((m) => (m.data as { text: string }).text.trim());
}

describe('speech heard as nothing', () => {
  let asking: BotServer;
  let silent: BotServer;
  let tts: TextToSpeech;
  const voices: TextToSpeech[] = [];
  let speech: Uint8Array;
  let short: Uint8Array;

  beforeAll(async () => {
    tts = userTts();
    speech = await speak(tts, 'I want to cancel reservation E, H, G, L, P, three.');
    short = await speak(tts, 'Yes.');
    const voice = () => {
      const botTts = testTts();
      voices.push(botTts);
      return {
        stt: createOracleSpeechToText(),
        tts: botTts,
        pacing: 'fast' as const,
        vad: { stopMs: 600 },
      };
    };
    asking = await listenTestServer({
      conversation: createConversationEngine({
        model: () => ({ ...echoModel(), unheard: () => REPROMPT }),
      }),
      voice: voice(),
    });
    // Its heard reports show whether the utterance was held as a turn.
    silent = await listenTestServer({
      conversation: echoConversation,
      voice: { ...voice(), reportHeard: true },
    });
  });
  afterAll(async () => {
    await Promise.allSettled([
      asking?.close(),
      silent?.close(),
      tts?.close(),
      ...voices.map((v) => v.close()),
    ]);
  });

  it('asks the caller to say it again, and keeps what it said in the context', async () => {
    const client = await RtviClient.connect(asking.url);
    try {
      await client.handshake();
      expect(short.length / 2 / 16_000).toBeLessThan(1);
      sendStream(client, silence(400), short, silence(1500));
      await client.until(() => finalTranscripts(client).length === 1, 'the first final', 15_000);
      expect(finalTranscripts(client)).toEqual(['']);
      expect(speech.length / 2 / 16_000).toBeGreaterThan(1);
      sendStream(client, speech, silence(1500));
      await client.until(() => finalTranscripts(client).length === 2, 'the second final', 15_000);
      expect(finalTranscripts(client)[1]).toBe('');
      await client.until(
        () => client.messages.some((m) => m.type === 'bot-stopped-speaking'),
        'the reprompt spoken',
        15_000,
      );
      expect(spoken(client)).toEqual(["Sorry, I didn't catch that.", 'Could you say it again?']);
      const history = (await client.call('get_context_history', { format: 'json' })) as {
        context: string;
      };
      const messages = JSON.parse(history.context) as { role: string; content: string }[];
      expect(messages.filter((m) => m.role !== 'system')).toEqual([
        { role: 'assistant', content: REPROMPT },
      ]);
    } finally {
      await client.close();
    }
  }, 30_000);

  it('stays silent with a policy that has no reprompt', async () => {
    const client = await RtviClient.connect(silent.url);
    try {
      await client.handshake();
      sendStream(client, silence(400), speech, silence(1500));
      await client.until(() => finalTranscripts(client).length === 1, 'the final', 15_000);
      expect(finalTranscripts(client)).toEqual(['']);
      // Its own ear has settled the utterance: a reply would have started by the next round trip.
      await client.call('get_context_history', { format: 'json' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(client.messages.filter((m) => m.type === 'bot-started-speaking')).toEqual([]);
      // No reply, no turn: no heard report ever waited for one.
      const reports = client.messages
        .filter((m) => m.type === 'server-message')
        .map((m) => m.data as { type?: string; waiting?: boolean })
        .filter((d) => d.type === 'audio-heard');
      expect(reports.length).toBeGreaterThan(0);
      expect(reports.filter((d) => d.waiting)).toEqual([]);
    } finally {
      await client.close();
    }
  }, 30_000);
});
