/**
 * A voice bot whose OpenAI-compatible speech endpoint accepts a request and
 * never answers it: the client is told speech failed within the deadlines
 * (not after the 30 s a hung attempt used to take, retried twice), the
 * sentence still reaches it as text, and the rest of the reply is spoken.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAITextToSpeech } from '../src/voice/index.js';
import type { BotServer } from '../src/index.js';
import { startStallingSpeechServer } from '../src/testing/stalling-speech-server.js';
import type { StallingSpeechServer } from '../src/testing/stalling-speech-server.js';
import { echoConversation, echoReply } from './voice-fixtures.js';
import { listenTestServer, withRtviClient } from './fixtures.js';

const FIRST_BYTE_MS = 300;
/** Slack for a loaded machine; far below the 30 s of a single hung attempt. */
const MARGIN_MS = 3000;

describe('voice bot on a speech endpoint that hangs', () => {
  let endpoint: StallingSpeechServer;
  let server: BotServer;

  beforeAll(async () => {
    endpoint = await startStallingSpeechServer();
    endpoint.stall = (input) => (input.includes('please hang') ? 'silent' : 'none');
    server = await listenTestServer({
      conversation: echoConversation,
      voice: {
        tts: createOpenAITextToSpeech({
          baseURL: endpoint.baseURL,
          firstByteTimeoutMs: FIRST_BYTE_MS,
          totalTimeoutMs: 5000,
        }),
        pacing: 'fast',
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await endpoint?.close();
  });

  it('reports the failure within the deadline and still sends the sentence as text', async () => {
    await withRtviClient(server.url, async (client) => {
      const started = performance.now();
      client.sendText('please hang', { audio_response: true });
      const error = await client.waitFor((m) => m.type === 'error', 'the speech error');
      const waited = performance.now() - started;
      expect((error.data as { error: string; fatal: boolean }).fatal).toBe(false);
      expect((error.data as { error: string }).error).toMatch(
        /^Speech synthesis failed: openai-tts: no answer within 300 ms/,
      );
      expect(waited).toBeGreaterThanOrEqual(2 * FIRST_BYTE_MS - 50);
      expect(waited).toBeLessThan(2 * FIRST_BYTE_MS + MARGIN_MS);

      await client.waitFor((m) => m.type === 'bot-stopped-speaking', 'the rest of the reply');
      const [hung, rest] = echoReply('please hang').split(/(?<=\.) /);
      const outputs = client.messages
        .filter((m) => m.type === 'bot-output')
        .map((m) => m.data as { text: string; spoken: boolean });
      expect(outputs).toMatchObject([
        { text: hung, spoken: false },
        { text: rest, spoken: true },
      ]);
      const spoken = client.messages
        .filter((m) => m.type === 'bot-tts-text')
        .map((m) => (m.data as { text: string }).text);
      expect(spoken).toEqual([rest]);
      expect(endpoint.inputs.filter((input) => input === hung)).toHaveLength(2);
    });
  });
});
