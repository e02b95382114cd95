/**
 * A bot whose recognizer is the oracle, over a real socket: `client-message oracle-said` tells it
 * what the other side said, in order with the audio sent before it, and the VAD's utterance
 * turns it into the user's turn; a bot whose recognizer hears for itself answers the message as
 * an unknown one. And a bot that asks for a spelling tells its recognizer session so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createNoneSpeechToText,
  createOracleSpeechToText,
  ORACLE_SAID_MESSAGE,
} from '../src/voice/index.js';
import type { BotServer } from '../src/index.js';
import type { SpeechToText, TextToSpeech } from '../src/voice/index.js';
import { RtviClient } from '../src/testing/index.js';
import { listenTestServer } from './fixtures.js';
import {
  echoConversation,
  echoReply,
  finalTranscripts,
  sendStream,
  silence,
  speak,
  testTts,
  userTts,
} from './voice-fixtures.js';

function pushedTexts(client: RtviClient): string[] {
  return client.messages
    .filter(
      (m) => m.type === 'server-message' && (m.data as { type?: string }).type === 'turn-complete',
    )
    .map((m) => (m.data as { text: string }).text);
}

describe('oracle-said', () => {
  let oracle: BotServer;
  let hearing: BotServer;
  let prompting: BotServer;
  let tts: TextToSpeech;
  let botTts: TextToSpeech;
  /** What the prompting bot told its recognizer sessions to expect. */
  const expected: string[] = [];
  let speech: Uint8Array;
  const said = 'I want to cancel reservation E, H, G, L, P, three.';

  beforeAll(async () => {
    tts = userTts();
    speech = await speak(tts, said);
    oracle = await listenTestServer({
      conversation: echoConversation,
      voice: { stt: createOracleSpeechToText(), pacing: 'fast', vad: { stopMs: 600 } },
    });
    hearing = await listenTestServer({
      conversation: echoConversation,
      voice: { stt: createNoneSpeechToText(), pacing: 'fast' },
    });
    // An oracle whose sessions record what the bot tells them to expect, and a voice.
    const told = createOracleSpeechToText();
    const recording: SpeechToText = {
      ...told,
      openSession: async (options) => {
        const session = await told.openSession(options);
        session.expect = (speech) => void expected.push(speech);
        return session;
      },
    };
    prompting = await listenTestServer({
      conversation: echoConversation,
      voice: { stt: recording, tts: (botTts = testTts()), pacing: 'fast', vad: { stopMs: 600 } },
    });
  });
  afterAll(async () => {
    await Promise.allSettled([
      oracle?.close(),
      hearing?.close(),
      prompting?.close(),
      tts?.close(),
      botTts?.close(),
    ]);
  });

  it('is heard on the audio timeline: the utterance it ends in is its turn', async () => {
    const client = await RtviClient.connect(oracle.url);
    try {
      await client.handshake();
      sendStream(client, silence(400), speech);
      // Told once its audio is sent, as the evaluation bridge tells it; answered at once.
      await expect(client.call(ORACLE_SAID_MESSAGE, { text: said })).resolves.toBe(true);
      sendStream(client, silence(1500));
      await client.until(
        () => finalTranscripts(client).length === 1,
        'the final transcript',
        15_000,
      );
      const heard = 'i want to cancel reservation e h g l p three';
      expect(finalTranscripts(client)).toEqual([heard]);
      await client.until(() => pushedTexts(client).length === 1, 'the reply', 15_000);
      expect(pushedTexts(client)).toEqual([echoReply(heard)]);
      // Speech nobody told the words of is heard as nothing: no turn.
      sendStream(client, speech, silence(1500));
      await client.until(() => finalTranscripts(client).length === 2, 'the second final', 15_000);
      expect(finalTranscripts(client)[1]).toBe('');
      await expect(client.call(ORACLE_SAID_MESSAGE, { said })).rejects.toThrow(
        'oracle-said needs d.text, a string',
      );
      expect(pushedTexts(client)).toHaveLength(1);
    } finally {
      await client.close();
    }
  }, 30_000);

  it('is an unknown message to a bot whose recognizer hears for itself', async () => {
    const client = await RtviClient.connect(hearing.url);
    try {
      await client.handshake();
      await expect(client.call(ORACLE_SAID_MESSAGE, { text: said })).rejects.toThrow(
        'unknown message type: oracle-said',
      );
    } finally {
      await client.close();
    }
  });

  it('tells the recognizer a spelling is expected when the bot asks for one, and only then', async () => {
    const client = await RtviClient.connect(prompting.url);
    try {
      await client.handshake();
      const turn = async (said: string, replies: number): Promise<void> => {
        sendStream(client, silence(400), await speak(tts, said));
        await client.call(ORACLE_SAID_MESSAGE, { text: said });
        sendStream(client, silence(1500));
        await client.until(() => pushedTexts(client).length === replies, 'the reply', 15_000);
        await client.until(
          () => client.messages.some((m) => m.type === 'bot-stopped-speaking'),
          'the reply spoken',
          15_000,
        );
      };
      await turn('I want to cancel my trip.', 1);
      expect(expected).toEqual([]);
      // The echo says it back: "You said please spell it letter by letter. ..."
      await turn('Please spell it letter by letter.', 2);
      await client.until(() => expected.length === 1, 'the expectation', 15_000);
      expect(expected).toEqual(['spelling']);
    } finally {
      await client.close();
    }
  }, 60_000);
});
