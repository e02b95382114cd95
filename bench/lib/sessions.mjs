// Sessions for the socket benchmarks: many RTVI clients (the RtviClient of
// @scenaro/agent/testing, not recording, frames from the shared pool), and a plain `ws` echo
// server to measure them against. The same client talks to the bot server and to the echo
// server (which sends the request bytes back, so the echoed envelope carries the request's id
// and `exchange` matches it like a reply).
import { RtviClient } from '@scenaro/agent/testing';
import { clientMessage, clientReady } from '@scenaro/sdk/protocol';
import { WebSocketServer } from 'ws';

/** A bench client on `url`: no recording, pooled frames, no compression. */
export function openClient(url, timeoutMs = 10_000) {
  return RtviClient.connect(url, {
    record: false,
    pooledFrames: true,
    perMessageDeflate: false,
    requestTimeoutMs: timeoutMs,
    connectTimeoutMs: timeoutMs,
  });
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
    clients.push(...(await Promise.all(Array.from({ length: wave }, () => openClient(url)))));
  }
  await Promise.all(
    clients.map(async (client, s) => {
      const ready = await client.exchange(clientReady(`ready_${s}`, { library: 'bench' }));
      if (ready.type !== (isBot ? 'bot-ready' : 'client-ready')) {
        throw new Error(`unexpected handshake reply ${ready.type}`);
      }
      if (!isBot || !init) return;
      const reply = await client.exchange(
        clientMessage(`init_${s}`, 'apply_initialization', init(s)),
      );
      if (reply.data?.d?.success !== true) throw new Error(`init failed: ${JSON.stringify(reply)}`);
    }),
  );
  return clients;
}
