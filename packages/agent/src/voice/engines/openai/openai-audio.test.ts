import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startOpenAIAudioTestServer,
  testSpeechPcm,
} from '../../../testing/openai-audio-test-server.js';
import type { OpenAIAudioTestServer } from '../../../testing/openai-audio-test-server.js';
import { SpeechEngineError } from '../../engine-errors.js';
import { createOpenAISpeechToText } from './openai-stt.js';
import { createOpenAITextToSpeech } from './openai-tts.js';
import { int16ToPcm16, msToSamples, silencePcm16 } from '../../audio/pcm.js';
import { resamplePcm16 } from '../../audio/resampler.js';
import { synthesizeAll } from '../../tts.js';
import { decodeWav } from '../../audio/wav.js';

let server: OpenAIAudioTestServer;
beforeAll(async () => {
  server = await startOpenAIAudioTestServer();
});
afterAll(() => server.close());

describe('OpenAI-compatible TTS (/audio/speech)', () => {
  it('posts model, voice, input and pcm format, and streams the PCM back whole', async () => {
    const tts = createOpenAITextToSpeech({
      baseURL: server.baseURL,
      apiKey: 'sk-test',
      voice: 'nova',
    });
    const chunks: Uint8Array[] = [];
    for await (const chunk of tts.synthesize('Your booking is confirmed.')) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.every((c) => c.length % 2 === 0)).toBe(true);
    const pcm = Buffer.concat(chunks);
    expect(new Uint8Array(pcm)).toEqual(testSpeechPcm('Your booking is confirmed.'));
    const request = server.requests.at(-1)!;
    expect(request.path).toBe('/v1/audio/speech');
    expect(request.headers.authorization).toBe('Bearer sk-test');
    expect(request.fields).toEqual({
      model: 'tts-1',
      voice: 'nova',
      input: 'Your booking is confirmed.',
      response_format: 'pcm',
    });
  });

  it('resamples endpoints that answer another rate', async () => {
    const tts = createOpenAITextToSpeech({ baseURL: server.baseURL, endpointSampleRate: 16_000 });
    const pcm = await synthesizeAll(tts, 'Hello.');
    expect(pcm.length).toBe(Math.round((testSpeechPcm('Hello.').length / 2) * 1.5) * 2);
  });

  it('reports the endpoint error with its status and code, retrying 429 and 5xx', async () => {
    const tts = createOpenAITextToSpeech({ baseURL: server.baseURL, maxRetries: 0 });
    server.failNext(401, 'Incorrect API key provided');
    const error = await synthesizeAll(tts, 'Hello.').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpeechEngineError);
    expect(error).toMatchObject({ status: 401, code: 'invalid_request_error', retryable: false });
    expect((error as Error).message).toMatch(/401.*Incorrect API key/);

    const before = server.requests.length;
    server.failNext(429, 'Rate limit reached');
    server.failNext(503, 'overloaded');
    const retrying = createOpenAITextToSpeech({ baseURL: server.baseURL, maxRetries: 2 });
    expect((await synthesizeAll(retrying, 'Hi.')).length).toBe(testSpeechPcm('Hi.').length);
    expect(server.requests.length - before).toBe(3);

    const missingModel = createOpenAITextToSpeech({ baseURL: server.baseURL, model: '' });
    await expect(synthesizeAll(missingModel, 'Hi.')).rejects.toMatchObject({
      status: 400,
      code: 'missing_required_parameter',
    });
  });

  it('sends nothing for blank text and stops on abort', async () => {
    const tts = createOpenAITextToSpeech({ baseURL: server.baseURL });
    const before = server.requests.length;
    expect(await synthesizeAll(tts, '   ')).toEqual(new Uint8Array(0));
    expect(server.requests.length).toBe(before);
    const controller = new AbortController();
    const chunks: Uint8Array[] = [];
    const reading = (async () => {
      for await (const chunk of tts.synthesize('A long answer. '.repeat(40), {
        signal: controller.signal,
      })) {
        chunks.push(chunk);
        controller.abort(new Error('barge-in'));
      }
    })();
    await expect(reading).rejects.toThrow('barge-in');
    expect(chunks).toHaveLength(1);
  });
});

describe('OpenAI-compatible STT (/audio/transcriptions)', () => {
  it('uploads each utterance as a 16 kHz WAV with padding and returns the text as final', async () => {
    const uploads: Uint8Array[] = [];
    server.transcribe = (file) => {
      uploads.push(file);
      return ` utterance ${uploads.length} `;
    };
    const stt = createOpenAISpeechToText({
      baseURL: server.baseURL,
      model: 'whisper-large-v3',
      language: 'en',
    });
    const session = await stt.openSession();
    const finals: string[] = [];
    session.onTranscript((t) => finals.push(`${t.final ? 'final' : 'interim'}:${t.text}`));
    const tone = await resamplePcm16(
      int16ToPcm16(new Int16Array(24_000).fill(1000)),
      24_000,
      16_000,
    );
    await session.write(silencePcm16(msToSamples(2000, 16_000)));
    session.startUtterance(msToSamples(2000, 16_000));
    await session.write(tone); // 1 s
    await session.write(silencePcm16(msToSamples(800, 16_000)));
    const first = await session.endUtterance(msToSamples(3000, 16_000));
    expect(first).toEqual({
      utterance: 1,
      text: 'utterance 1',
      final: true,
      startSample: 32_000,
      endSample: 48_000,
    });
    const wav = decodeWav(uploads[0]!);
    expect(wav.sampleRate).toBe(16_000);
    expect(wav.channels).toBe(1);
    expect(wav.pcm.length / 2).toBe(16_000 + 2 * msToSamples(300, 16_000)); // 1 s + 300 ms each side
    const request = server.requests.at(-1)!;
    expect(request.fields).toMatchObject({
      model: 'whisper-large-v3',
      response_format: 'json',
      language: 'en',
    });
    expect(request.file?.name).toBe('utterance-1.wav');
    expect(request.file?.type).toBe('audio/wav');

    session.startUtterance();
    await session.write(tone);
    await expect(session.endUtterance()).resolves.toMatchObject({
      utterance: 2,
      text: 'utterance 2',
    });
    expect(finals).toEqual(['final:utterance 1', 'final:utterance 2']);
    await expect(session.endUtterance()).rejects.toThrow(/no utterance/);
    await session.close();
  });

  it('keeps only the last maxUtteranceMs of an utterance that is never ended', async () => {
    const uploads: Uint8Array[] = [];
    server.transcribe = (file) => {
      uploads.push(decodeWav(file).pcm);
      return 'the end';
    };
    const stt = createOpenAISpeechToText({ baseURL: server.baseURL, maxUtteranceMs: 1000 });
    const session = await stt.openSession();
    session.startUtterance();
    let held = 0;
    for (let second = 0; second < 10; second++) {
      const pcm = int16ToPcm16(new Int16Array(16_000).fill(second + 1));
      for (let i = 0; i < pcm.length; i += 640) {
        await session.write(pcm.subarray(i, i + 640));
        held = Math.max(held, session.bufferedBytes ?? Infinity);
      }
    }
    // At most the maximum, the padding on both sides and the second kept between utterances.
    expect(held).toBeLessThanOrEqual((1 + 0.6 + 1) * 32_000 + 640);
    await expect(session.endUtterance()).resolves.toMatchObject({ text: 'the end' });
    // What is sent is the end of the utterance: its last second at least, nothing older.
    const sent = new Int16Array(uploads[0]!.buffer, uploads[0]!.byteOffset, uploads[0]!.length / 2);
    expect(sent.length).toBeGreaterThanOrEqual(16_000);
    expect(sent.at(-1)).toBe(10);
    expect(Math.min(...sent)).toBeGreaterThanOrEqual(8);
    await session.close();
  });

  it('rejects the final with the endpoint error', async () => {
    const stt = createOpenAISpeechToText({ baseURL: server.baseURL, maxRetries: 0 });
    const session = await stt.openSession();
    session.startUtterance();
    await session.write(silencePcm16(1600));
    server.failNext(500, 'model crashed');
    await expect(session.endUtterance()).rejects.toMatchObject({
      status: 500,
      retryable: true,
      engine: 'openai-stt',
    });
  });
});
