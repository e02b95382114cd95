/**
 * The bot server runs real sessions over any Transport: here an in-memory one, with no
 * WebSocket anywhere between the client and the session.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { clientMessage, clientReady } from '@scenaro/sdk/protocol';
import type { RTVIMessage } from '@scenaro/sdk/protocol';
import { BotServer, silentLogger } from '../src/index.js';
import { makeDataRoot, testRegistry } from './fixtures.js';
import { MemoryTransport } from './memory-transport.js';

const ABOUT = { library: 'memory-test' };

describe('a bot server over an in-memory transport', () => {
  let server: BotServer | undefined;
  let cleanup: (() => void) | undefined;
  afterEach(async () => {
    await server?.close();
    cleanup?.();
    server = undefined;
    cleanup = undefined;
  });

  async function start(): Promise<{ server: BotServer; transport: MemoryTransport }> {
    const data = makeDataRoot();
    cleanup = data.cleanup;
    const transport = new MemoryTransport();
    server = await new BotServer({
      port: 0,
      registry: testRegistry(),
      logger: silentLogger,
      dataRoot: data.root,
      transport,
    }).listen();
    return { server, transport };
  }

  it('answers client-ready with bot-ready and a control message with its result', async () => {
    const { server, transport } = await start();
    expect(transport.calls).toEqual(['start']);
    const client = transport.connect();
    expect(server.sessionCount).toBe(1);

    client.send(clientReady('hello', ABOUT));
    const ready = await client.next((m) => m.type === 'bot-ready');
    expect(ready).toMatchObject({ label: 'rtvi-ai', type: 'bot-ready', id: 'hello' });
    expect(server.sessions[0]!.ready).toBe(true);

    client.send(clientMessage('r1', 'reset', {}));
    expect(await client.reply('r1')).toEqual({
      label: 'rtvi-ai',
      type: 'server-response',
      id: 'r1',
      data: { t: 'reset', d: true },
    });
    expect(client.closed).toBeUndefined();
  });

  it('answers what it cannot use as it does over WebSocket, and keeps the session', async () => {
    const { transport } = await start();
    const client = transport.connect();
    client.send(clientReady('a', ABOUT));
    await client.next((m) => m.type === 'bot-ready');

    client.send({ label: 'rtvi-ai', type: 'nope', id: 'q1' });
    expect(await client.reply('q1')).toMatchObject({
      type: 'error-response',
      data: { error: 'Unsupported type nope' },
    });
    client.send({ label: 'rtvi-ai', type: 'client-message', id: 'q2', data: { t: 'nope' } });
    expect(await client.reply('q2')).toMatchObject({
      type: 'error-response',
      data: { error: 'unknown message type: nope' },
    });
    client.send({ label: 'rtvi-ai', type: 'error', data: { error: 'peer says no' } });
    client.send(clientMessage('q3', 'reset', {}));
    expect(await client.reply('q3')).toMatchObject({ type: 'server-response' });
    // The peer's error was not answered.
    expect(client.received.filter((m: RTVIMessage) => m.type === 'error')).toEqual([]);
  });

  it('closes the connection on disconnect-bot, and every connection on shutdown', async () => {
    const { server, transport } = await start();
    const leaving = transport.connect();
    const staying = transport.connect();
    for (const client of [leaving, staying]) client.send(clientReady('r', ABOUT));
    await staying.next((m) => m.type === 'bot-ready');

    leaving.send({ label: 'rtvi-ai', type: 'disconnect-bot', id: 'bye' });
    expect(leaving.closed).toEqual({ code: 1000, reason: 'disconnect-bot' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(server.sessionCount).toBe(1);
    expect(server.detachedSessionCount).toBe(0);

    await server.close();
    expect(staying.received.at(-1)).toMatchObject({
      type: 'server-message',
      data: { type: 'server-draining' },
    });
    expect(staying.closed).toEqual({ code: 1001, reason: 'server shutting down' });
    expect(transport.calls).toEqual(['start', 'drain', 'close']);
    expect(server.sessionCount).toBe(0);
  });

  it('continues a session on a new connection that presents its resume token', async () => {
    const { server, transport } = await start();
    const first = transport.connect();
    first.send(clientReady('r1', ABOUT));
    const ready = await first.next((m) => m.type === 'bot-ready');
    const token = (ready.data as { session?: { resume_token?: string } }).session?.resume_token;
    expect(token).toEqual(expect.any(String));
    const session = server.sessions[0];

    first.connection.terminate();
    await new Promise((resolve) => setImmediate(resolve));
    expect(server.detachedSessionCount).toBe(1);

    const second = transport.connect(`/?resume=${token}`);
    expect(server.sessions).toEqual([session]);
    second.send(clientReady('r2', ABOUT));
    expect(await second.next((m) => m.type === 'bot-ready')).toMatchObject({
      data: { session: { resumed: true } },
    });
  });
});
