// Benchmark: control-plane round trip over a real loopback WebSocket.
//
//   npx tsc -b packages/agent && node bench/control-plane.bench.mjs [requests-1] [requests-200]
//
// One client (this thread) sends `get_scenario_summary` client-messages as binary protobuf
// MessageFrames and waits for the reply with the same id; each session sends its requests one
// after another and every round trip is timed. The same client code and the same request bytes
// are sent to a plain `ws` echo server (which replies with the bytes it received), so the ratio
// shows what the bot server adds on top of WebSocket + frame codec. Both servers run together in
// a worker thread, so client and servers do not share an event loop. Each bot session holds a
// small inline db, so every reply computes a db_hash. Loopback only, bounded, exits by itself.
import { Worker, isMainThread, parentPort } from 'node:worker_threads';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { WebSocket, WebSocketServer } from 'ws';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const agentDist = pathToFileURL(path.join(repoRoot, 'packages/agent/dist/index.js')).href;
const protocolDist = pathToFileURL(path.join(repoRoot, 'packages/sdk/dist/protocol/index.js')).href;

const DB = {
  users: [
    { user_id: 'u1', name: 'Ada', balance: 10.5, tags: ['a', 'b'] },
    { user_id: 'u2', name: 'Bob', balance: 0, tags: [] },
  ],
  bills: [{ bill_id: 'B1002', amount_due: 42.1, status: 'AWAITING_PAYMENT' }],
  settings: { currency: 'EUR', roaming: false },
};

if (!isMainThread) {
  // --- servers (worker thread) -------------------------------------------------------------
  const { BotServer, silentLogger } = await import(agentDist);
  const dataRoot = mkdtempSync(path.join(tmpdir(), 'scenaro-bench-'));
  const bot = await new BotServer({
    host: '127.0.0.1',
    port: 0,
    dataRoot,
    logger: silentLogger,
  }).listen();
  const echo = new WebSocketServer({ host: '127.0.0.1', port: 0, maxPayload: 1024 * 1024 });
  echo.on('connection', (ws) => {
    ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary }));
  });
  await new Promise((resolve) => echo.once('listening', resolve));
  parentPort.on('message', async (message) => {
    if (message !== 'stop') return;
    for (const client of echo.clients) client.terminate();
    echo.close();
    await bot.close();
    rmSync(dataRoot, { recursive: true, force: true });
    parentPort.postMessage('stopped');
  });
  parentPort.postMessage({ bot: bot.url, echo: `ws://127.0.0.1:${echo.address().port}` });
} else {
  await main();
}

async function main() {
  const { clientMessage, clientReady, decodeRtviFrame, encodeRtviFrame } = await import(
    protocolDist
  );
  const perSessionOne = positiveInt(process.argv[2], 3000);
  const perSessionMany = positiveInt(process.argv[3], 50);
  const REQUEST_TIMEOUT_MS = 10_000;
  const watchdog = setTimeout(() => {
    console.error('control-plane bench: gave up after 180 s');
    process.exit(2);
  }, 180_000);
  watchdog.unref();

  /** A raw RTVI client: binary MessageFrames out, decoded envelopes in, replies matched by id. */
  class BenchClient {
    #pending = new Map();
    constructor(ws) {
      this.ws = ws;
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
    }
    static async open(url) {
      const ws = new WebSocket(url, { perMessageDeflate: false });
      await new Promise((resolve, reject) => {
        ws.once('open', resolve);
        ws.once('error', reject);
      });
      return new BenchClient(ws);
    }
    /** Send one envelope and resolve with the reply carrying its id. */
    roundTrip(envelope) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          this.#pending.delete(envelope.id);
          reject(new Error(`no reply to ${envelope.id} in ${REQUEST_TIMEOUT_MS} ms`));
        }, REQUEST_TIMEOUT_MS);
        this.#pending.set(envelope.id, { resolve, reject, timer });
        this.ws.send(encodeRtviFrame(envelope), { binary: true });
      });
    }
    close() {
      this.ws.terminate();
    }
  }

  const worker = new Worker(new URL(import.meta.url));
  const urls = await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });

  /** Open `count` sessions on `url`: handshake, and on the bot an inline-db initialization. */
  async function openSessions(url, count, isBot) {
    const clients = await Promise.all(Array.from({ length: count }, () => BenchClient.open(url)));
    await Promise.all(
      clients.map(async (client, s) => {
        const ready = await client.roundTrip(clientReady(`ready_${s}`, { library: 'bench' }));
        if (ready.type !== (isBot ? 'bot-ready' : 'client-ready')) {
          throw new Error(`unexpected handshake reply ${ready.type}`);
        }
        if (!isBot) return;
        const init = await client.roundTrip(
          clientMessage(`init_${s}`, 'apply_initialization', {
            shared_state_init: JSON.stringify({ db: DB }),
          }),
        );
        if (init.data?.d?.success !== true) throw new Error(`init failed: ${JSON.stringify(init)}`);
      }),
    );
    return clients;
  }

  /** Each client sends `perSession` sequential requests; returns every round trip in µs. */
  async function measure(clients, perSession, isBot, tag) {
    const samples = [];
    await Promise.all(
      clients.map(async (client, s) => {
        for (let i = 0; i < perSession; i++) {
          const request = clientMessage(`${tag}_${s}_${i}`, 'get_scenario_summary', {
            include_db: false,
          });
          const start = process.hrtime.bigint();
          const reply = await client.roundTrip(request);
          samples.push(Number(process.hrtime.bigint() - start) / 1000);
          const expected = isBot ? 'server-response' : 'client-message';
          if (reply.type !== expected) throw new Error(`unexpected reply ${JSON.stringify(reply)}`);
        }
      }),
    );
    return samples;
  }

  async function scenario(sessions, perSession) {
    const result = { sessions, requests: sessions * perSession };
    const warmup = Math.max(5, Math.ceil(500 / sessions));
    for (const [name, url, isBot] of [
      ['ours', urls.bot, true],
      ['echo', urls.echo, false],
    ]) {
      const clients = await openSessions(url, sessions, isBot);
      await measure(clients, warmup, isBot, 'warm');
      const samples = await measure(clients, perSession, isBot, 'req');
      samples.sort((x, y) => x - y);
      result[name] = { p50: percentile(samples, 0.5), p99: percentile(samples, 0.99) };
      for (const client of clients) client.close();
    }
    return result;
  }

  const rows = [await scenario(1, perSessionOne), await scenario(200, perSessionMany)];

  const sample = encodeRtviFrame(
    clientMessage('req_0_0', 'get_scenario_summary', { include_db: false }),
  );
  console.log(
    `control-plane round trip: get_scenario_summary over loopback WebSocket ` +
      `(request ${sample.byteLength} bytes; node ${process.version}, ${process.platform}/${process.arch})`,
  );
  const header = [
    'sessions',
    'requests',
    'ours p50 µs',
    'ours p99 µs',
    'echo p50 µs',
    'echo p99 µs',
    'ratio p50',
  ];
  const table = rows.map((r) => [
    String(r.sessions),
    String(r.requests),
    r.ours.p50.toFixed(0),
    r.ours.p99.toFixed(0),
    r.echo.p50.toFixed(0),
    r.echo.p99.toFixed(0),
    `${(r.ours.p50 / r.echo.p50).toFixed(2)}x`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
  const line = (cells) => `| ${cells.map((c, i) => c.padStart(widths[i])).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 1) + ':').join('|')}|`);
  for (const row of table) console.log(line(row));

  worker.postMessage('stop');
  await new Promise((resolve) => {
    const timer = setTimeout(resolve, 3000);
    worker.once('message', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  await worker.terminate();
}

function positiveInt(text, fallback) {
  const n = Number(text ?? fallback);
  if (!Number.isInteger(n) || n <= 0) {
    console.error(`expected a positive integer, got ${text}`);
    process.exit(1);
  }
  return n;
}

function percentile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
