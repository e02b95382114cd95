/**
 * A transcription endpoint that accepts the request and never answers, or sends its headers and
 * stalls, fails the utterance's final within `totalTimeoutMs` (retries included) instead of
 * waiting out the client's 30 s per attempt (or forever on a stalled body).
 */
import { createServer } from 'node:http';
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAISpeechToText } from './openai-stt.js';
import { SpeechEngineError } from '../../engine-errors.js';

type Stall = 'silent' | 'headers';

let server: Server;
let stall: Stall = 'silent';
const hanging: ServerResponse[] = [];
let requests = 0;
let baseURL = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    requests++;
    req.resume();
    req.on('end', () => {
      hanging.push(res);
      if (stall === 'headers') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"te');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  for (const res of hanging) res.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('OpenAI STT deadline', () => {
  for (const how of ['silent', 'headers'] as const) {
    it(`fails the final of an endpoint that goes ${how} within totalTimeoutMs`, async () => {
      stall = how;
      requests = 0;
      const stt = createOpenAISpeechToText({
        baseURL,
        apiKey: 'test',
        totalTimeoutMs: 600,
        maxRetries: 2,
      });
      const session = await stt.openSession();
      session.startUtterance();
      await session.write(new Uint8Array(16_000));
      const started = performance.now();
      const error = await session.endUtterance().then(
        () => undefined,
        (err: unknown) => err,
      );
      const took = performance.now() - started;
      expect(error).toBeInstanceOf(SpeechEngineError);
      expect((error as SpeechEngineError).code).toBe('timeout');
      // Within the deadline and a generous margin for a loaded machine, far from 30 s per attempt.
      expect(took).toBeGreaterThanOrEqual(550);
      expect(took).toBeLessThan(5000);
      expect(requests).toBeGreaterThanOrEqual(1);
      await session.close();
      await stt.close();
    });
  }
});
