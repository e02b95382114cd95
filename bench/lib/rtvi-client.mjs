// A raw RTVI client for benchmarks: binary protobuf MessageFrames out, decoded envelopes in,
// replies matched by id. The same class talks to the bot server and to a plain `ws` echo server
// (which sends the request bytes back, so the echoed envelope carries the request's id).
import { WebSocket, WebSocketServer } from 'ws';
import { dist } from './common.mjs';

const { clientMessage, clientReady, decodeRtviFrame, encodeRtviFrame } = await import(
  dist('packages/sdk/dist/protocol/index.js')
);

export { clientMessage, clientReady, encodeRtviFrame };

export class BenchClient {
  #pending = new Map();

  constructor(ws, timeoutMs) {
    this.ws = ws;
    this.timeoutMs = timeoutMs;
    ws.on('message', (data) => {
      const decoded = decodeRtviFrame(new Uint8Array(data.buffer, data.byteOffset, data.length));
      if (!decoded.ok || decoded.message.id === undefined) return;
      const pending = this.#pending.get(decoded.message.id);
      if (!pending) return;
      this.#pending.delete(decoded.message.id);
      clearTimeout(pending.timer);
      pending.resolve(decoded.message);
    });
    ws.on('close', () => {
      for (const { reject, timer } of this.#pending.values()) {
        clearTimeout(timer);
        reject(new Error('connection closed'));
      }
      this.#pending.clear();
    });
    ws.on('error', () => {});
  }

  static async open(url, timeoutMs = 10_000) {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    return new BenchClient(ws, timeoutMs);
  }

  /** Send one envelope and resolve with the reply carrying its id. */
  roundTrip(envelope) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(envelope.id);
        reject(new Error(`no reply to ${envelope.id} in ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.#pending.set(envelope.id, { resolve, reject, timer });
      this.ws.send(encodeRtviFrame(envelope, { pooled: true }), { binary: true });
    });
  }

  close() {
    this.ws.terminate();
  }
}

/** A plain `ws` server that sends every message back as it came. */
export async function startEchoServer() {
  const echo = new WebSocketServer({ host: '127.0.0.1', port: 0, maxPayload: 1024 * 1024 });
  echo.on('connection', (ws) => {
    ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary }));
  });
  await new Promise((resolve) => echo.once('listening', resolve));
  return {
    url: `ws://127.0.0.1:${echo.address().port}`,
    close() {
      for (const client of echo.clients) client.terminate();
      echo.close();
    },
  };
}

/**
 * Open `count` sessions on `url` and complete the handshake. On the bot, `init(s)` (if given)
 * returns the `apply_initialization` arguments of session `s`.
 */
export async function openSessions(url, count, { isBot, init } = {}) {
  const clients = [];
  // Connect in waves so a burst of 500 does not overflow the accept backlog.
  for (let start = 0; start < count; start += 100) {
    const wave = Math.min(100, count - start);
    clients.push(...(await Promise.all(Array.from({ length: wave }, () => BenchClient.open(url)))));
  }
  await Promise.all(
    clients.map(async (client, s) => {
      const ready = await client.roundTrip(clientReady(`ready_${s}`, { library: 'bench' }));
      if (ready.type !== (isBot ? 'bot-ready' : 'client-ready')) {
        throw new Error(`unexpected handshake reply ${ready.type}`);
      }
      if (!isBot || !init) return;
      const reply = await client.roundTrip(
        clientMessage(`init_${s}`, 'apply_initialization', init(s)),
      );
      if (reply.data?.d?.success !== true) throw new Error(`init failed: ${JSON.stringify(reply)}`);
    }),
  );
  return clients;
}
