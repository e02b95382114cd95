// Connections cannot hold the server's memory without doing anything: deadlines on the
// handshake, on a half-sent upgrade request or message, pings that must be answered, and limits
// on how many connections (and not yet handshaken ones) there may be. Short deadlines here; the
// defaults are seconds.
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BotServer, silentLogger } from '../src/index.js';
import type { BotServerOptions } from '../src/index.js';
import { RtviClient, pollUntil, tcpSocketOf, upgradeStatus } from '../src/testing/index.js';

const servers: BotServer[] = [];
const clients: RtviClient[] = [];
const sockets: Socket[] = [];

async function start(options: BotServerOptions): Promise<BotServer> {
  const server = await new BotServer({ port: 0, logger: silentLogger, ...options }).listen();
  servers.push(server);
  return server;
}

async function open(server: BotServer, ready: boolean): Promise<RtviClient> {
  const client = ready ? await RtviClient.ready(server.url) : await RtviClient.connect(server.url);
  clients.push(client);
  return client;
}

/** A raw TCP connection to the server, and a promise that settles when the server closes it. */
async function rawSocket(server: BotServer): Promise<{ socket: Socket; ended: Promise<void> }> {
  const socket = connect(server.address.port, '127.0.0.1');
  sockets.push(socket);
  socket.on('error', () => {});
  socket.resume();
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise((resolve) => socket.once('connect', resolve));
  return { socket, ended };
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms),
    ),
  ]);
}

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('handshake deadline', () => {
  it('closes a connection that sends no client-ready in time, not one that did', async () => {
    const server = await start({ handshakeTimeoutMs: 200 });
    const silent = await open(server, false);
    const ready = await open(server, true);
    const closed = await silent.waitForClose(3000);
    expect(closed.code).toBe(1008);
    expect(closed.reason).toContain('client-ready');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ready.isOpen).toBe(true);
    expect((await ready.request('get_scenario_summary', {})).type).toBe('server-response');
  });
});

describe('connection limits', () => {
  it('answers 503 past the limit of connections not yet handshaken', async () => {
    const server = await start({ maxPendingHandshakes: 3 });
    const waiting = await Promise.all([1, 2, 3].map(() => open(server, false)));
    expect(await upgradeStatus(server.url)).toBe(503);
    await waiting[0]?.handshake();
    expect(await upgradeStatus(server.url)).toBe(101);
  });

  it('answers 503 past the limit of connections', async () => {
    const server = await start({ maxConnections: 4 });
    await Promise.all([1, 2, 3, 4].map(() => open(server, true)));
    expect(await upgradeStatus(server.url)).toBe(503);
    await clients[0]?.close();
    await pollUntil(() => server.sessionCount === 3, 'a connection to close');
    expect(await upgradeStatus(server.url)).toBe(101);
  });
});

describe('idle connections', () => {
  it('drops a connection that answers no ping; keeps one that does', async () => {
    const server = await start({ pingIntervalMs: 100 });
    const deaf = await open(server, true);
    const live = await open(server, true);
    // The deaf client stops reading: it never sees the pings, so never answers them.
    tcpSocketOf(deaf.ws).pause();
    await pollUntil(() => server.sessionCount === 1, 'the deaf connection to be dropped', 3000);
    expect(live.isOpen).toBe(true);
    expect((await live.request('get_scenario_summary', {})).type).toBe('server-response');
  });
});

describe('half-sent data', () => {
  it('drops an upgrade request that is never finished', async () => {
    const server = await start({ upgradeTimeoutMs: 200 });
    const { socket, ended } = await rawSocket(server);
    socket.write('GET / HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n');
    await within(ended, 3000, 'the half-sent upgrade to be dropped');
  });

  it('drops a connection whose message is never finished; others are served', async () => {
    const server = await start({ frameTimeoutMs: 200 });
    const stuck = await open(server, true);
    const other = await open(server, true);
    // A binary frame announcing 1 MiB (masked, as from a client), then 1 KiB of it, then nothing.
    const header = Buffer.alloc(14);
    header[0] = 0x82;
    header[1] = 0x80 | 127;
    header.writeBigUInt64BE(BigInt(1024 * 1024), 2);
    const socket = tcpSocketOf(stuck.ws);
    socket.write(Buffer.concat([header, Buffer.alloc(1024, 7)]));
    await pollUntil(() => server.sessionCount === 1, 'the stuck connection to be dropped', 3000);
    expect(other.isOpen).toBe(true);
    expect((await other.request('get_scenario_summary', {})).type).toBe('server-response');
  });
});
