// Soak: at least 100,000 fuzzed frames against one bot server process, over loopback.
//
//   npm run build && node bench/fuzz-soak.bench.mjs [frames] [connections]
//
// The server runs in its own process (default options, a test domain, the reference-agent
// conversation); CONNECTIONS clients send a seeded mix of valid requests (all six control
// messages with random arguments, send-text, unknown handlers) and junk (random bytes,
// mutated and truncated frames, text frames, JSON that is not an envelope, foreign labels,
// deep nesting). Every request that must be answered (a well-formed client-message or
// send-text refused by a limit) is timed: it must be answered within 2 s. A client keeps at
// most 8 such requests unanswered. Reports: frames sent, requests answered, p50/p99/max
// latency, frames per second, and the server's RSS at start, at peak and after every
// connection closed (after a GC): it must come back within 20 % of the start (taken after a
// warm-up of 2,000 frames on 4 connections: JIT code, buffer pools). Exits 1 if any check fails. Bounded: a watchdog stops it after 300 s.
import { spawn } from 'node:child_process';
import { setImmediate } from 'node:timers';
import { WebSocket } from 'ws';
import {
  emitResult,
  jsonLineChannel,
  machineInfo,
  machineLine,
  percentile,
  positiveInt,
  watchdog,
} from './lib/common.mjs';

const FRAMES = positiveInt(process.argv[2], 100_000);
const CONNECTIONS = positiveInt(process.argv[3], 16);
const ANSWER_MS = 2000;
const WARMUP = 2000;
const MAX_OUTSTANDING = 8;
watchdog('fuzz-soak', 300);

const { clientMessage, clientReady, encodeRtviFrame, encodeFrame, decodeRtviFrame } =
  await import('@scenaro/sdk/protocol');
const agentUrl = import.meta.resolve('@scenaro/agent');
const scenarioUrl = import.meta.resolve('@scenaro/agent/scenario');

// --- the server process ------------------------------------------------------------------------
const SERVER = `
import { createInterface } from 'node:readline';
import { BotServer, createConversationEngine, createReferenceAgentModel, silentLogger } from ${JSON.stringify(agentUrl)};
import { DomainRegistry } from ${JSON.stringify(scenarioUrl)};
const registry = new DomainRegistry().register({
  name: 'soak',
  tools: [{ name: 'get_user', description: 'Look up a user.', kind: 'read',
    parameters: { type: 'object', properties: { user_id: { type: 'string' } } },
    execute: (args, { state }) => (state.db?.users ?? []).find((u) => u.user_id === args.user_id) ?? null }],
  initializationFunctions: { set_balance(db, args) { const u = (db.users ?? []).find((x) => x.user_id === args.user_id); if (u) u.balance = args.balance; } },
});
const server = await new BotServer({ port: 0, logger: silentLogger, registry,
  conversation: createConversationEngine({ model: createReferenceAgentModel }) }).listen();
const rss = () => { globalThis.gc?.(); globalThis.gc?.(); return process.memoryUsage().rss; };
console.log(JSON.stringify({ url: server.url, rss: rss() }));
let peak = 0;
setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 100).unref();
createInterface({ input: process.stdin }).on('line', async (line) => {
  if (line === 'rss') { await new Promise((r) => setTimeout(r, 200)); console.log(JSON.stringify({ rss: rss(), peak, sessions: server.sessionCount })); }
  if (line === 'close') { await server.close(); process.exit(0); }
});
`;
const child = spawn(process.execPath, ['--expose-gc', '--input-type=module', '-e', SERVER], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
let crashed;
child.on('exit', (code) => {
  if (code !== 0) crashed = `exit code ${code}`;
});
const ask = jsonLineChannel(child, () => crashed);
const started = await ask();

// --- fuzz input --------------------------------------------------------------------------------
let seed = 0x5eed;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (items) => items[Math.floor(random() * items.length)];
const int = (n) => Math.floor(random() * n);
const text = (n) =>
  Array.from({ length: n }, () => pick(['a', 'é', '"', "'", '\\', ' ', '😀', '\n', 'z'])).join('');
const value = (depth = 0) =>
  depth > 3
    ? pick([null, true, int(1000), text(4)])
    : pick([
        () => null,
        () => random() < 0.5,
        () => int(1e6) - 5e5,
        () => random() * 1e3,
        () => text(int(12)),
        () => Array.from({ length: int(4) }, () => value(depth + 1)),
        () =>
          Object.fromEntries(
            Array.from({ length: int(4) }, () => [text(int(6) + 1), value(depth + 1)]),
          ),
      ])();
const DB = {
  users: [
    { user_id: 'u1', balance: 1 },
    { user_id: 'u2', balance: 2 },
  ],
  settings: { x: 1 },
};
const requests = {
  reset: () => pick([{}, value()]),
  update_system_prompt: () =>
    pick([
      { prompt: text(20), tools: '{"get_user": {}}', tool_domain: 'soak', add_suffix: false },
      { prompt: text(5), tools: pick(['{', '[]', '{"nope": {}}']) },
      value(),
    ]),
  get_context_history: () => pick([{}, { format: 'json' }, { format: 'xml' }, value()]),
  get_scenario_summary: () => pick([{}, { include_db: true }, value()]),
  apply_initialization: () =>
    pick([
      {
        domain: 'soak',
        shared_state_init: JSON.stringify({ db: DB }),
        actions: [{ func_name: 'set_balance', arguments: { user_id: 'u1', balance: int(100) } }],
      },
      {
        domain: 'soak',
        shared_state_init: JSON.stringify({
          db_path: pick(['../x', 'nope.json', '/etc/passwd', text(8)]),
        }),
      },
      { domain: 'soak', shared_state_init: pick(['{', '[]', JSON.stringify({ flag: value() })]) },
      value(),
    ]),
  apply_sync_delta: () =>
    pick([
      {
        domain: 'soak',
        delta: {
          [pick(['users[u1].balance', 'settings.x', 'settings.y', '__proto__.x', 'a..b'])]: value(),
        },
      },
      value(),
    ]),
  no_such_handler: () => value(),
};
const deep = (n) => `${'['.repeat(n)}${']'.repeat(n)}`;
const validFrame = encodeRtviFrame(clientMessage('m', 'get_scenario_summary', {}));

/** One fuzzed frame: [bytes or text, the id to expect an answer for (or undefined)]. */
function nextFrame(n) {
  const roll = random();
  if (roll < 0.55) {
    const t = pick(Object.keys(requests));
    const id = `r${n}`;
    return [encodeRtviFrame(clientMessage(id, t, requests[t]())), id];
  }
  if (roll < 0.65) {
    const id = `s${n}`;
    const frame = encodeRtviFrame({
      label: 'rtvi-ai',
      type: 'send-text',
      id,
      data: {
        content: text(int(200)),
        options: { run_immediately: random() < 0.3, audio_response: false },
      },
    });
    return [frame, undefined];
  }
  if (roll < 0.72)
    return [new Uint8Array(Array.from({ length: int(64) }, () => int(256))), undefined];
  if (roll < 0.79) {
    const bytes = new Uint8Array(validFrame);
    for (let i = 0; i < 3; i++) bytes[int(bytes.length)] = int(256);
    return [bytes.subarray(0, int(bytes.length) + 1), undefined];
  }
  if (roll < 0.84) return [text(int(40)), undefined];
  if (roll < 0.9) {
    const data = pick([
      '{not json',
      JSON.stringify(value()),
      JSON.stringify({ label: 'other', type: 'x', id: 'f' }),
      JSON.stringify({ label: 'rtvi-ai', type: 'client-message', data: { t: 'reset' } }),
      JSON.stringify({ label: 'rtvi-ai', type: 'error', data: value() }),
    ]);
    return [encodeFrame({ kind: 'message', data }), undefined];
  }
  if (roll < 0.93) {
    const id = `d${n}`;
    const data = `{"label":"rtvi-ai","type":"client-message","id":"${id}","data":{"t":"apply_sync_delta","d":{"delta":{"x":${deep(1 + int(3000))}}}}}`;
    return [encodeFrame({ kind: 'message', data }), id];
  }
  const id = `u${n}`;
  return [
    encodeRtviFrame({
      label: 'rtvi-ai',
      type: pick(['no-such-type', 'append-to-context']),
      id,
      data: {},
    }),
    id,
  ];
}

// --- clients -----------------------------------------------------------------------------------
const latencies = [];
const late = [];
/** Ids of requests still unanswered when their client left (named in the report). */
const lateIds = [];
let sent = 0;
let answered = 0;
let reconnects = 0;

async function runClient(limit) {
  while (sent < limit) {
    const ws = new WebSocket(started.url, { maxPayload: 64 * 1024 * 1024 });
    const outstanding = new Map();
    let closed = false;
    ws.on('message', (data) => {
      const decoded = decodeRtviFrame(new Uint8Array(data));
      if (!decoded.ok) return;
      const { id, type } = decoded.message;
      const at = outstanding.get(id);
      if (
        at !== undefined &&
        (type === 'server-response' || type === 'error-response' || type === 'bot-ready')
      ) {
        outstanding.delete(id);
        const ms = performance.now() - at;
        latencies.push(ms);
        answered++;
        if (ms > ANSWER_MS) late.push(ms);
      }
    });
    ws.on('error', () => {});
    ws.on('close', () => (closed = true));
    await new Promise((resolve) => {
      ws.once('open', resolve);
      ws.once('close', resolve);
    });
    if (closed) continue;
    outstanding.set('ready', performance.now());
    ws.send(encodeRtviFrame(clientReady('ready', { library: 'fuzz-soak' })));
    while (!closed && sent < limit) {
      if (outstanding.size >= MAX_OUTSTANDING || ws.bufferedAmount > 1 << 20) {
        await new Promise((r) => setTimeout(r, 1));
        for (const [id, at] of outstanding) {
          if (performance.now() - at > ANSWER_MS * 2) {
            late.push(performance.now() - at);
            lateIds.push(id);
            outstanding.delete(id);
          }
        }
        continue;
      }
      const [frame, id] = nextFrame(sent);
      sent++;
      if (id !== undefined) outstanding.set(id, performance.now());
      ws.send(frame, { binary: typeof frame !== 'string' });
      if (sent % 64 === 0) await new Promise((r) => setImmediate(r));
    }
    // Wait for what is still owed, then leave.
    const deadline = performance.now() + ANSWER_MS * 2;
    while (!closed && outstanding.size > 0 && performance.now() < deadline) {
      await new Promise((r) => setTimeout(r, 5));
    }
    for (const [id, at] of outstanding) {
      late.push(performance.now() - at);
      lateIds.push(id);
    }
    if (!closed) {
      ws.close();
      await new Promise((r) => ws.once('close', r));
    }
    if (sent < limit) reconnects++;
  }
}

console.log(machineLine());
// Warm up (JIT, buffer pools, the db cache) before taking the server's starting RSS.
await Promise.all(Array.from({ length: 4 }, () => runClient(WARMUP)));
const warm = await ask('rss');
const t0 = performance.now();
const progress = setInterval(
  () => console.log(`  ... ${sent} frames sent, ${answered} answered, ${late.length} late`),
  10_000,
);
progress.unref();
await Promise.all(Array.from({ length: CONNECTIONS }, () => runClient(WARMUP + FRAMES)));
const seconds = (performance.now() - t0) / 1000;
const during = await ask('rss');
await new Promise((r) => setTimeout(r, 1000));
const after = await ask('rss');
const exited = new Promise((resolve) => child.once('exit', resolve));
child.stdin.write('close\n');
await exited;

latencies.sort((a, b) => a - b);
const mb = (bytes) => (bytes / 2 ** 20).toFixed(1);
const growth = after.rss / warm.rss - 1;
const result = {
  frames: sent,
  connections: CONNECTIONS,
  reconnects,
  seconds: Math.round(seconds * 10) / 10,
  frames_per_s: Math.round(sent / seconds),
  answered,
  late: late.length,
  p50_ms: Math.round(percentile(latencies, 0.5) * 10) / 10,
  p99_ms: Math.round(percentile(latencies, 0.99) * 10) / 10,
  max_ms: Math.round((latencies.at(-1) ?? 0) * 10) / 10,
  rss_idle_mb: Number(mb(started.rss)),
  rss_start_mb: Number(mb(warm.rss)),
  rss_peak_mb: Number(mb(Math.max(during.peak, after.peak))),
  rss_after_mb: Number(mb(after.rss)),
  rss_growth_pct: Math.round(growth * 1000) / 10,
  crashed,
  machine: machineInfo(),
};
console.log(
  `fuzz-soak: ${sent} frames (${WARMUP} of them warm-up) over ${CONNECTIONS} connections (${reconnects} reconnects) in ` +
    `${result.seconds} s (${result.frames_per_s} frames/s); ${answered} requests answered, ` +
    `${late.length} late or unanswered; latency p50 ${result.p50_ms} ms, p99 ${result.p99_ms} ms, ` +
    `max ${result.max_ms} ms; server RSS idle ${mb(started.rss)} MB, after warm-up ${mb(warm.rss)} MB, peak ` +
    `${result.rss_peak_mb} MB, after close ${mb(after.rss)} MB (${result.rss_growth_pct} %)`,
);
emitResult(result);
const failures = [];
if (crashed) failures.push('the server process crashed');
if (sent < WARMUP + FRAMES) failures.push(`only ${sent} frames sent`);
if (late.length > 0) {
  failures.push(
    `${late.length} requests not answered within ${ANSWER_MS} ms (ids: ${lateIds.join(', ') || 'none'})`,
  );
}
if (after.sessions !== 0) failures.push(`${after.sessions} sessions still open`);
if (growth > 0.2) failures.push(`RSS grew ${result.rss_growth_pct} % (limit 20 %)`);
for (const failure of failures) console.error(`fuzz-soak: FAILED: ${failure}`);
process.exit(failures.length > 0 ? 1 : 0);
