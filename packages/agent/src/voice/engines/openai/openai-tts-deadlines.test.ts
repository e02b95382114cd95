import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testSpeechPcm } from '../../../testing/openai-audio-test-server.js';
import { startStallingSpeechServer } from '../../../testing/stalling-speech-server.js';
import type { SpeechStall, StallingSpeechServer } from '../../../testing/stalling-speech-server.js';
import { SpeechEngineError } from '../../engine-errors.js';
import { createOpenAITextToSpeech } from './openai-tts.js';
import type { OpenAITtsOptions } from './openai-tts.js';
import { synthesizeAll } from '../../tts.js';

let server: StallingSpeechServer;
beforeAll(async () => {
  server = await startStallingSpeechServer();
});
afterAll(() => server.close());

/** Synthesize `text` with the server answering `stall`; the error, the audio before it, the time. */
async function attempt(stall: SpeechStall, options: OpenAITtsOptions, text = 'Hello there.') {
  server.stall = () => stall;
  server.inputs.length = 0;
  const tts = createOpenAITextToSpeech({ baseURL: server.baseURL, ...options });
  const started = performance.now();
  let bytes = 0;
  let error: unknown;
  try {
    for await (const chunk of tts.synthesize(text)) bytes += chunk.length;
  } catch (err) {
    error = err;
  }
  return { error, bytes, ms: performance.now() - started, requests: server.inputs.length };
}

// Deadlines are short here; the margins allow for a loaded machine, far below the 30 s a hung
// request used to wait per attempt.
const MARGIN_MS = 2500;

describe('OpenAI-compatible TTS deadlines', () => {
  it('tries a request that never answers once more, then fails at the first-byte deadline', async () => {
    const { error, ms, requests } = await attempt('silent', { firstByteTimeoutMs: 300 });
    expect(error).toBeInstanceOf(SpeechEngineError);
    expect(error).toMatchObject({ engine: 'openai-tts', code: 'first_byte_timeout' });
    expect((error as Error).message).toMatch(/no answer within 300 ms/);
    expect(requests).toBe(2);
    expect(ms).toBeGreaterThanOrEqual(550);
    expect(ms).toBeLessThan(600 + MARGIN_MS);
  });

  it('does not try again when retries are off', async () => {
    const { error, requests } = await attempt('silent', {
      firstByteTimeoutMs: 200,
      maxRetries: 0,
    });
    expect(error).toMatchObject({ code: 'first_byte_timeout' });
    expect(requests).toBe(1);
  });

  it('cuts an answer whose headers came but no audio', async () => {
    const { error, bytes, requests } = await attempt('headers', { firstByteTimeoutMs: 300 });
    expect(error).toMatchObject({ code: 'first_byte_timeout' });
    expect(bytes).toBe(0);
    expect(requests).toBe(2);
  });

  it('cuts an answer that stalls mid-body at the total deadline, without trying again', async () => {
    const { error, bytes, ms, requests } = await attempt('mid-body', {
      firstByteTimeoutMs: 300,
      totalTimeoutMs: 800,
    });
    expect(error).toMatchObject({ engine: 'openai-tts', code: 'timeout', retryable: true });
    expect((error as Error).message).toMatch(/waiting over 800 ms/);
    expect(bytes).toBeGreaterThan(0);
    expect(requests).toBe(1);
    expect(ms).toBeGreaterThanOrEqual(750);
    expect(ms).toBeLessThan(800 + MARGIN_MS);
  });

  it('keeps the retry inside the total deadline', async () => {
    const { error, ms, requests } = await attempt('silent', {
      firstByteTimeoutMs: 400,
      totalTimeoutMs: 500,
    });
    expect(error).toMatchObject({ code: 'timeout' });
    expect(requests).toBe(2);
    expect(ms).toBeLessThan(500 + MARGIN_MS);
  });

  it('does not count the time the caller takes between chunks', async () => {
    server.stall = () => 'none';
    const tts = createOpenAITextToSpeech({
      baseURL: server.baseURL,
      firstByteTimeoutMs: 800,
      totalTimeoutMs: 800,
    });
    const text = 'A sentence long enough to come in a few chunks.';
    const started = performance.now();
    const chunks: Uint8Array[] = [];
    for await (const chunk of tts.synthesize(text)) {
      chunks.push(chunk);
      await new Promise((resolve) => setTimeout(resolve, 600));
    }
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    expect(performance.now() - started).toBeGreaterThan(800);
    expect(Buffer.concat(chunks).length).toBe(testSpeechPcm(text).length);
  });

  it('speaks in full when the endpoint answers', async () => {
    server.stall = () => 'none';
    const tts = createOpenAITextToSpeech({ baseURL: server.baseURL, firstByteTimeoutMs: 300 });
    expect(await synthesizeAll(tts, 'All good.')).toEqual(testSpeechPcm('All good.'));
  });
});
