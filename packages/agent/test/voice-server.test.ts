/**
 * The bot server as a voice bot over a real socket: it hears Flite speech
 * sent as 16 kHz `AudioRawFrame`s (VAD, PocketSphinx), answers with 24 kHz
 * audio in 40 ms frames, and emits Pipecat's RTVI voice events in order.
 * Audio runs on the fast clock (sent as fast as it is synthesized).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { RTVIMessage } from '@scenaro/sdk/protocol';
import {
  OUTPUT_SAMPLE_RATE,
  createPocketsphinxSpeechToText,
  wordErrors,
} from '../src/voice/index.js';
import type { VoiceOptions } from '../src/voice/index.js';
import { metricValue, scrapeMetrics } from '../src/testing/index.js';
import type { RtviClient } from '../src/testing/index.js';
import { withRtviClient } from './fixtures.js';
import {
  echoReply,
  pocketsphinxTests,
  sendStream,
  silence,
  speak,
  testTts,
  useVoiceServer,
} from './voice-fixtures.js';

const { missing, runs } = await pocketsphinxTests('the voice server tests');
const spans = new InMemorySpanExporter();
const tracing = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });

/** The bot's voice: PocketSphinx hearing, Flite speaking at `pacing`, and `extra`. */
function flite(pacing: 'fast' | 'realtime', extra: Partial<VoiceOptions> = {}): () => VoiceOptions {
  return () => ({ stt: createPocketsphinxSpeechToText(), tts: testTts(), pacing, ...extra });
}

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
  beforeAll(() => {
    if (!missing) trace.setGlobalTracerProvider(tracing);
  });
  afterAll(() => {
    trace.disable();
  });
  const suite = useVoiceServer(missing, flite('fast', { vad: { stopMs: 600 } }));

  it('hears an utterance, answers in speech, and emits the voice events in order', async () => {
    await withRtviClient(suite.server.url, async (client) => {
      const said = 'I would like to cancel my reservation.';
      sendStream(client, silence(500), await speak(suite.tts, said), silence(1500));
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
      expect(spoken.join('')).toBe(echoReply(heard));
      const outputs = m
        .filter((x) => x.type === 'bot-output')
        .map((x) => x.data as Record<string, unknown>);
      expect(outputs.map((o) => o['text'])).toEqual(spoken.map((t) => t.trim()));
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

      // The same stages in the server's Prometheus metrics, with the audio both ways.
      const { text } = await scrapeMetrics(suite.server.metricsUrl);
      const count = (stage: string, processor: string) =>
        metricValue(text, `scenaro_${stage}_ttfb_seconds_count`, { processor }) ?? 0;
      expect(count('stt', 'pocketsphinx-stt')).toBeGreaterThanOrEqual(1);
      expect(count('tts', 'flite-tts')).toBeGreaterThanOrEqual(1);
      expect(count('llm', 'EchoPolicy')).toBeGreaterThanOrEqual(1);
      expect(metricValue(text, 'scenaro_audio_received_seconds_total')).toBeGreaterThan(2);
      expect(metricValue(text, 'scenaro_audio_sent_seconds_total')).toBeCloseTo(
        (client.audio.length * 40) / 1000,
        1,
      );
      expect(metricValue(text, 'scenaro_frames_sent_total', { kind: 'audio' })).toBe(
        client.audio.length,
      );

      // The turn's spans: speech to text, the model call and text to speech, under one turn.
      await expect
        .poll(() => spans.getFinishedSpans().filter((x) => x.name === 'scenaro.tts').length)
        .toBe(1);
      const turn = spans.getFinishedSpans().find((x) => x.name === 'scenaro.turn');
      expect(turn?.attributes['scenaro.turn.trigger']).toBe('speech');
      const children = spans
        .getFinishedSpans()
        .filter((x) => x.parentSpanContext?.spanId === turn?.spanContext().spanId)
        .map((x) => x.name);
      expect(children.sort()).toEqual(['scenaro.llm', 'scenaro.stt', 'scenaro.tts']);
    });
  }, 60_000);
});

/** `rpc-call` of a composer method, as the browser's RTVI transport sends it. */
function dictation(client: RtviClient, action: 'start' | 'end' | 'cancel', dictationId: string) {
  return client.call<{ payload: string }>('rpc-call', {
    method: `composer_${action}_dictation`,
    payload: JSON.stringify({ dictationId, sentAt: Date.now() }),
    responseTimeoutMs: 15_000,
  });
}

describe.skipIf(!runs)('voice bot server: audio_response and dictation', () => {
  const suite = useVoiceServer(missing, flite('fast'));

  it('answers send-text in speech when audio_response is true, in text only when false', async () => {
    await withRtviClient(suite.server.url, async (client) => {
      client.sendText('Hello', { audio_response: true });
      await client.waitFor((m) => m.type === 'bot-stopped-speaking', 'the spoken reply');
      const spoken = client.messages
        .filter((m) => m.type === 'bot-tts-text')
        .map((m) => (m.data as { text: string }).text);
      expect(spoken.join('')).toBe(echoReply('Hello'));
      expect(client.audio.length).toBeGreaterThan(10);

      const from = client.messages.length;
      const framesBefore = client.audio.length;
      client.sendText('Goodbye', { audio_response: false });
      const done = await client.waitFor(
        (m) =>
          m.type === 'server-message' && (m.data as { type?: string }).type === 'turn-complete',
        'the text reply',
        { from },
      );
      expect((done.data as { text: string }).text).toBe(echoReply('Goodbye'));
      const later = client.messages.slice(from);
      const output = later.find((m) => m.type === 'bot-output')?.data as Record<string, unknown>;
      expect(output).toMatchObject({
        text: echoReply('Goodbye'),
        spoken: false,
        will_be_spoken: false,
      });
      expect(
        later.some((m) => m.type === 'bot-tts-text' || m.type === 'bot-started-speaking'),
      ).toBe(false);
      expect(client.audio.length).toBe(framesBefore);
    });
  }, 30_000);

  it('dictation hands back the transcript without taking a turn; cancel discards it', async () => {
    await withRtviClient(suite.server.url, async (client) => {
      const said = 'Please send the confirmation to my phone.';
      const speech = await speak(suite.tts, said);
      sendStream(client, silence(300));
      const started = await dictation(client, 'start', 'd1');
      expect(JSON.parse(started.payload)).toEqual({ dictationId: 'd1', status: 'started' });
      sendStream(client, speech, silence(800));
      // The microphone keeps streaming after the end, as a browser's does.
      const ending = dictation(client, 'end', 'd1');
      sendStream(client, silence(1000));
      const ended = JSON.parse((await ending).payload) as {
        transcript: string;
        status: string;
      };
      expect(ended.status).toBe('ended');
      expect(wordErrors(said, ended.transcript).wer).toBeLessThanOrEqual(0.35);

      await dictation(client, 'start', 'd2');
      sendStream(client, speech, silence(800));
      const cancelled = JSON.parse((await dictation(client, 'cancel', 'd2')).payload);
      expect(cancelled).toEqual({ dictationId: 'd2', status: 'cancelled' });
      // Ending a dictation that is not open is an application error saying so.
      const refused = await client.request('rpc-call', {
        method: 'composer_end_dictation',
        payload: JSON.stringify({ dictationId: 'd2', sentAt: Date.now() }),
        responseTimeoutMs: 15_000,
      });
      expect(refused.type).toBe('error-response');
      expect(refused.data).toMatchObject({ code: 1500, data: 'no dictation is open (got d2)' });

      // Neither dictation took a turn or produced a conversational transcript.
      sendStream(client, silence(1500));
      await client.repliesTo(() => undefined);
      const kinds = types(client.messages);
      expect(kinds).not.toContain('user-llm-text');
      expect(kinds).not.toContain('bot-started-speaking');
      expect(
        client.messages.some(
          (m) => m.type === 'user-transcription' && (m.data as { final: boolean }).final,
        ),
      ).toBe(false);
    });
  }, 60_000);
});

describe.skipIf(!runs)('voice bot server: barge-in (real-time pacing)', () => {
  const suite = useVoiceServer(missing, flite('realtime', { vad: { stopMs: 600 } }));

  it('user speech while the bot speaks stops its audio at once and takes the next turn', async () => {
    await withRtviClient(suite.server.url, async (client) => {
      // A long reply, paced in real time (about 6 s of speech).
      client.sendText(
        'I booked the flight last week for a family trip and I would like to know every option.',
        { audio_response: true },
      );
      await client.waitFor((m) => m.type === 'bot-started-speaking', 'the bot speaking');
      await client.until(() => client.audio.length >= 10, '400 ms of the reply');
      const from = client.messages.length;
      const said = 'Yes, that is correct.';
      sendStream(client, await speak(suite.tts, said), silence(1200));
      const interrupted = await client.waitFor((m) => m.type === 'bot-interrupted', 'barge-in', {
        from,
      });
      const at = client.messages.indexOf(interrupted);
      const stopped = await client.waitFor((m) => m.type === 'bot-stopped-speaking', 'silence', {
        from,
      });
      const framesAtStop = client.audio.filter(
        (a) => a.afterMessages <= client.messages.indexOf(stopped),
      ).length;
      // Paced audio: far less than the whole reply had gone out (6 s = 150 frames).
      expect(framesAtStop).toBeLessThan(80);
      expect(client.messages.indexOf(stopped)).toBeGreaterThan(at);
      expect(types(client.messages.slice(from, at))).toContain('user-started-speaking');
      // No audio of the interrupted reply follows: the next audio belongs to the new turn.
      const next = await client.waitFor((m) => m.type === 'bot-started-speaking', 'the answer', {
        from: at,
        timeoutMs: 30_000,
      });
      const between = client.audio.filter(
        (a) =>
          a.afterMessages > client.messages.indexOf(stopped) &&
          a.afterMessages <= client.messages.indexOf(next),
      );
      expect(between).toEqual([]);
      const userText = client.messages.slice(at).find((m) => m.type === 'user-llm-text')!.data as {
        text: string;
      };
      expect(wordErrors(said, userText.text).wer).toBeLessThanOrEqual(0.35);
      // The interrupted sentence was never reported as spoken.
      const spoken = client.messages
        .slice(0, at)
        .filter((m) => m.type === 'bot-tts-text')
        .map((m) => (m.data as { text: string }).text);
      expect(spoken).toEqual([]);
    });
  }, 60_000);
});
