/**
 * Acceptance: the real `@pipecat-ai/client-js` with `@pipecat-ai/websocket-transport`, in
 * Node, talks to the voice bot. Its microphone is fed Flite speech of twenty user turns (through
 * the transport's own recorder callback, 512-byte chunks); the bot must transcribe them (word
 * error rate <= 10 %), answer each in 24 kHz audio the client's player takes, and fire every
 * voice event, in order, through client-js's callbacks.
 */
import { describe, expect, it } from 'vitest';
import {
  corpusWordErrors,
  createPocketsphinxSpeechToText,
  pcm16ToInt16,
} from '../src/voice/index.js';
import { connectPipecatClient } from '../src/testing/index.js';
import type { RtviArrival } from '../src/testing/index.js';
import {
  USER_TURNS,
  echoReply,
  pocketsphinxTests,
  speak,
  testTts,
  useVoiceServer,
  userTts,
} from './voice-fixtures.js';

const { missing, runs } = await pocketsphinxTests('the Pipecat client voice acceptance test');

/** The RTVI events of one turn, in the order the bot must send them. */
const TURN_EVENTS = [
  'user-started-speaking',
  'user-stopped-speaking',
  'user-transcription',
  'user-llm-text',
  'bot-llm-started',
  'bot-tts-started',
  'bot-started-speaking',
  'bot-tts-text',
  'bot-tts-stopped',
  'bot-stopped-speaking',
];

/** The client-js callbacks the same events fire. */
const TURN_CALLBACKS = [
  'onUserStartedSpeaking',
  'onUserStoppedSpeaking',
  'onUserTranscript',
  'onUserLlmText',
  'onBotLlmStarted',
  'onBotTtsStarted',
  'onBotStartedSpeaking',
  'onBotTtsText',
  'onBotOutput',
  'onBotTtsStopped',
  'onBotStoppedSpeaking',
];

/** Whether `wanted` occurs in `seen` in this order (other items may come between). */
function inOrder(seen: string[], wanted: string[]): boolean {
  let i = 0;
  for (const item of seen) if (item === wanted[i]) i++;
  return i === wanted.length;
}

describe.skipIf(!runs)('the real Pipecat web client talks to the voice bot', () => {
  const suite = useVoiceServer(
    missing,
    () => ({ stt: createPocketsphinxSpeechToText(), tts: testTts(), pacing: 'fast' }),
    userTts,
  );

  it(`transcribes ${USER_TURNS.length} spoken turns and answers each in 24 kHz speech`, async () => {
    const speech = await Promise.all(
      USER_TURNS.map(async (t) => pcm16ToInt16(await speak(suite.tts, t))),
    );
    const client = await connectPipecatClient(suite.server.url, { mic: { pace: 'fast' } });
    try {
      await client.mic.silence(500);
      const heard: string[] = [];
      const turns: RtviArrival[][] = [];
      for (const [i, pcm] of speech.entries()) {
        const from = client.messages.length;
        const callbacksFrom = client.timeline.length;
        await client.mic.play(pcm);
        await client.mic.silence(1200);
        const final = await client.waitForMessage('user-transcription', {
          from,
          match: (m) => (m.data as { final: boolean }).final,
          timeoutMs: 30_000,
        });
        heard.push((final.data as { text: string }).text);
        const stopped = await client.waitForMessage('bot-stopped-speaking', {
          from,
          timeoutMs: 30_000,
        });
        const turn = client.messages.slice(from, client.messages.indexOf(stopped) + 1);
        turns.push(turn);
        const types = turn.map((m) => m.type);
        expect(inOrder(types, TURN_EVENTS), `turn ${i + 1}: ${types.join(', ')}`).toBe(true);
        const callbacks = client.timeline.slice(callbacksFrom).map((c) => c.name);
        expect(inOrder(callbacks, TURN_CALLBACKS), `turn ${i + 1}: ${callbacks.join(', ')}`).toBe(
          true,
        );
        const spoken = turn
          .filter((m) => m.type === 'bot-tts-text')
          .map((m) => (m.data as { text: string }).text)
          .join('');
        expect(spoken).toBe(echoReply(heard[i]!));
      }

      const errors = corpusWordErrors(
        USER_TURNS.map((reference, i) => ({ reference, hypothesis: heard[i]! })),
      );
      console.log(
        `Pipecat client -> voice bot: WER ${(errors.wer * 100).toFixed(1)} % over ${errors.referenceWords} words`,
      );
      expect(errors.wer).toBeLessThanOrEqual(0.1);

      // Every reply reached the client's player: 24 kHz mono frames, sample-exact 40 ms.
      const chunks = client.speaker.chunks;
      expect(chunks.length).toBeGreaterThan(USER_TURNS.length * 20);
      for (const chunk of chunks) {
        expect(chunk.wire).toEqual({ sampleRate: 24_000, numChannels: 1 });
        expect(chunk.samples.length).toBe(960);
      }
      expect(client.errors).toEqual([]);
    } finally {
      await client.disconnect();
    }
  }, 240_000);
});
