// A client that reads is never taken for one that stopped reading because of the server's own
// answers to its burst: 5,000 user texts of 4 KB sent in one go, by a client that then looks
// away for a moment, are all echoed back, and the connection stays open. The server reads a burst at the pace its answers drain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotServer } from '../src/index.js';
import { createConversationEngine, createReferenceAgentModel } from '../src/index.js';
import { listenTestServer } from './fixtures.js';
import { RtviClient, tcpSocketOf } from '../src/testing/index.js';

const TEXTS = 5_000;
const MAX_BUFFERED = 256 * 1024;

let server: BotServer;

beforeAll(async () => {
  server = await listenTestServer({
    conversation: createConversationEngine({ model: createReferenceAgentModel }),
    // Room for every text in the context, and a small output allowance: the echoes of the
    // burst (20 MB) are far more than this at any moment.
    maxContextBytes: 64 * 1024 * 1024,
    maxBufferedBytes: MAX_BUFFERED,
  });
});

afterAll(async () => {
  await server?.close();
});

describe('a client that reads its messages', () => {
  it('is not closed by the echo of its own burst', { timeout: 120_000 }, async () => {
    const client = await RtviClient.ready(server.url);
    expect(await client.call('update_system_prompt', { prompt: 'burst', add_suffix: false })).toBe(
      true,
    );
    const content = 'y'.repeat(4096);
    for (let i = 0; i < TEXTS; i++) {
      client.send({
        label: 'rtvi-ai',
        type: 'send-text',
        id: `t${i}`,
        data: { content, options: { run_immediately: false, audio_response: false } },
      });
    }
    // The client is busy for a moment before it reads what came back.
    const socket = tcpSocketOf(client.ws);
    socket.pause();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    socket.resume();
    const echoes = () => client.messages.filter((m) => m.type === 'user-llm-text').length;
    await client.until(
      () => echoes() === TEXTS || client.closed !== undefined,
      'every echo',
      100_000,
    );
    expect(client.closed).toBeUndefined();
    expect(echoes()).toBe(TEXTS);
    expect(client.messages.filter((m) => m.type === 'error-response')).toEqual([]);
    await client.close();
  });
});
