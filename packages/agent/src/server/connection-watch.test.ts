// The frame deadline of a ConnectionWatch over a real WebSocket: a message left half-sent by the
// client is dropped, but not while the server itself has stopped reading the connection (a full
// audio queue or too many waiting messages), which leaves the rest of the message unread.
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import { ConnectionWatch } from './connection-watch.js';
import { silentLogger } from './logger.js';

const FRAME_MS = 100;
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** A WebSocket server whose one connection is watched, and a raw client that sent half a frame. */
async function halfSentMessage(): Promise<{
  ws: WebSocket;
  watch: ConnectionWatch;
  closed: Promise<number>;
}> {
  const watch = new ConnectionWatch({
    handshakeTimeoutMs: 60_000,
    pingIntervalMs: 60_000,
    frameTimeoutMs: FRAME_MS,
  });
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const accepted = new Promise<WebSocket>((resolve) =>
    server.once('connection', (ws, req) => {
      watch.add(ws, req.socket, () => true, silentLogger);
      resolve(ws);
    }),
  );
  const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
  socket.on('error', () => {});
  cleanups.push(() => {
    socket.destroy();
    watch.stop();
    server.close();
  });
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(
    'GET / HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
  );
  const ws = await accepted;
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  // A masked binary frame announcing 1 MiB, then 1 KiB of it.
  const header = Buffer.alloc(14);
  header[0] = 0x82;
  header[1] = 0x80 | 127;
  header.writeBigUInt64BE(BigInt(1024 * 1024), 2);
  socket.write(Buffer.concat([header, Buffer.alloc(1024, 7)]));
  const receiver = (ws as unknown as { _receiver: { _bufferedBytes: number } })._receiver;
  for (let i = 0; i < 200 && receiver._bufferedBytes === 0; i++)
    await new Promise((r) => setTimeout(r, 5));
  expect(receiver._bufferedBytes).toBeGreaterThan(0);
  return { ws, watch, closed };
}

const settled = (p: Promise<unknown>, ms: number) =>
  Promise.race([p.then(() => true), new Promise((r) => setTimeout(() => r(false), ms))]);

describe('ConnectionWatch frame deadline', () => {
  it('drops a connection whose message stays half-sent', async () => {
    const { closed } = await halfSentMessage();
    expect(await settled(closed, FRAME_MS * 20)).toBe(true);
  });

  it('does not count the time the server was not reading, and counts again once it reads', async () => {
    const { ws, watch, closed } = await halfSentMessage();
    ws.pause();
    watch.setPaused(ws, true);
    await new Promise((r) => setTimeout(r, FRAME_MS * 6));
    // Not even closing (a close would wait for the paused socket, so 'close' comes late).
    expect(ws.readyState).toBe(ws.OPEN);
    ws.resume();
    watch.setPaused(ws, false);
    expect(await settled(closed, FRAME_MS * 20)).toBe(true);
  });
});
