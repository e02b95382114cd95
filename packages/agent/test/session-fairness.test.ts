// One session cannot stall the others. A client floods its session with 150 user texts kept in
// the context (run_immediately: false) and then 600 get_context_history requests, all without
// waiting — ten times a flood that used to hold other sessions up for seconds — while other
// sessions keep asking for their summaries: they are answered within 50 ms at p99. The flooding
// session holds at most its context limit and is refused what is over its limits, with an error
// naming the limit.
//
// The flooder runs in a child process (as a real client would), so that its own work (masking
// 150 MB, receiving the replies) is not counted against the server.
import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotServer } from '../src/index.js';
import { createConversationEngine, createReferenceAgentModel } from '../src/index.js';
import { listenTestServer } from './fixtures.js';
import { RtviClient } from '../src/testing/index.js';

const TEXTS = 150;
/**
 * Each text is a sixteenth of the default context limit (256 KiB): the first ones fill the
 * context to its limit, the rest are refused, and every get_context_history reply is as big as
 * the server allows a context to get.
 */
const TEXT_BYTES = 16 * 1024;
const HISTORIES = 600;
/** Sessions asking for their summary meanwhile, one request at a time each. */
const PROBES = 4;
const PROBE_EVERY_MS = 10;
const ATTEMPTS = 3;
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

// Writes RTVI MessageFrames by hand (Frame field 4 { data field 1 }), reads replies' ids and
// types from their first bytes, and prints one JSON summary line once every history request
// has an answer.
const FLOODER = `
import { WebSocket } from 'ws';
const [url, texts, histories, textBytes] = process.argv.slice(1);
const varint = (n) => { const out = []; while (n >= 0x80) { out.push((n & 0x7f) | 0x80); n >>>= 7; } out.push(n); return out; };
const frame = (message) => {
  const data = Buffer.from(JSON.stringify(message));
  const inner = Buffer.concat([Buffer.from([0x0a, ...varint(data.length)]), data]);
  return Buffer.concat([Buffer.from([0x22, ...varint(inner.length)]), inner]);
};
const ws = new WebSocket(url, { maxPayload: 64 * 1024 * 1024 });
const answered = new Set();
const errors = [];
let ready = false;
ws.on('message', (bytes) => {
  const head = bytes.subarray(0, 300).toString('latin1');
  if (head.includes('"type":"bot-ready"')) ready = true;
  const id = /"type":"(?:server|error)-response","id":"([^"]*)"/.exec(head)?.[1];
  if (id === undefined) return;
  answered.add(id);
  if (head.includes('"type":"error-response"')) {
    const json = bytes.subarray(bytes.indexOf('{')).toString('utf8');
    errors.push({ id, error: JSON.parse(json).data.error });
  }
});
let done = false;
ws.on('close', (code) => { if (!done) { console.log(JSON.stringify({ closed: code })); process.exit(1); } });
await new Promise((r) => ws.once('open', r));
ws.send(frame({ label: 'rtvi-ai', type: 'client-ready', id: 'ready', data: { version: '2.1.0', about: { library: 'flooder' } } }));
while (!ready) await new Promise((r) => setTimeout(r, 5));
console.log(JSON.stringify({ open: true }));
await new Promise((r) => setTimeout(r, 50));
const message = (id, t, d) => frame({ label: 'rtvi-ai', type: 'client-message', id, data: { t, d } });
ws.send(message('prompt', 'update_system_prompt', { prompt: 'flood', add_suffix: false }));
const content = 'x'.repeat(Number(textBytes));
for (let i = 0; i < Number(texts); i++) {
  ws.send(frame({ label: 'rtvi-ai', type: 'send-text', id: 'text' + i, data: { content, options: { run_immediately: false, audio_response: false } } }));
}
for (let i = 0; i < Number(histories); i++) ws.send(message('history' + i, 'get_context_history', {}));
console.log(JSON.stringify({ sent: true }));
const ids = Array.from({ length: Number(histories) }, (_, i) => 'history' + i);
while (!ids.every((id) => answered.has(id))) await new Promise((r) => setTimeout(r, 10));
done = true;
console.log(JSON.stringify({ done: true, errors }));
process.exit(0);
`;

interface FloodResult {
  done: true;
  errors: { id: string; error: string }[];
}

let server: BotServer;

/**
 * Each client asks for its summary every `PROBE_EVERY_MS`, whether or not earlier requests have
 * been answered, until `done()`. A request's latency counts from when it was due, so time the
 * server spent unable to take it (not even its timer could fire) counts as well.
 */
async function probe(clients: RtviClient[], done: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  const start = performance.now();
  const pending: Promise<void>[] = [];
  for (let n = 0; !done(); n++) {
    const due = start + n * PROBE_EVERY_MS;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const client = clients[n % clients.length] as RtviClient;
    pending.push(
      client.request('get_scenario_summary', {}, { timeoutMs: 90_000 }).then((reply) => {
        latencies.push(performance.now() - due);
        expect(reply.type).toBe('server-response');
      }),
    );
  }
  await Promise.all(pending);
  return latencies;
}

function percentiles(values: number[]): { p50: number; p99: number; max: number } {
  const sorted = [...values].sort((x, y) => x - y);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * q) - 1)] ?? 0;
  return { p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? 0 };
}

beforeAll(async () => {
  server = await listenTestServer({
    conversation: createConversationEngine({ model: createReferenceAgentModel }),
  });
});

afterAll(async () => {
  await server?.close();
});

interface Attempt {
  flooded: ReturnType<typeof percentiles>;
  baseline: ReturnType<typeof percentiles>;
  samples: number;
}

/** Quiet probes, then probes while a child process floods its own session. */
async function attempt(others: RtviClient[]): Promise<Attempt> {
  // The machine's own noise: the same probes with nothing else going on.
  const quietStart = Date.now();
  const quiet = await probe(others, () => Date.now() - quietStart > 1500);
  const child = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      FLOODER,
      server.url,
      String(TEXTS),
      String(HISTORIES),
      String(TEXT_BYTES),
    ],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<number | null>((r) => child.once('exit', r));
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  const lines = () =>
    output
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as object);

  while (!lines().some((l) => 'open' in l) && exitCode === undefined) {
    await new Promise((r) => setTimeout(r, 5));
  }
  const started = Date.now();
  // At least 1.5 s of probes (150 samples): on an idle machine the flood is over in a few
  // hundred milliseconds; a server held up by it makes every probe due meanwhile late.
  const latencies = await probe(
    others,
    () => (exitCode !== undefined && Date.now() - started > 1500) || Date.now() - started > 90_000,
  );
  const floodMs = Date.now() - started;
  expect(await exited).toBe(0);
  const result = lines().find((l): l is FloodResult => 'done' in l);
  expect(result, 'every history request was answered').toBeDefined();

  // What the session would not hold was refused with an error naming the limit.
  const errors = (result as FloodResult).errors;
  const refusedTexts = errors.filter((e) => e.id.startsWith('text'));
  expect(refusedTexts.length).toBeGreaterThanOrEqual(TEXTS - 16);
  expect(refusedTexts.some((e) => e.error.includes('maxContextBytes'))).toBe(true);
  for (const { error } of errors) expect(error).toMatch(/maxContextBytes|maxPendingRequests/);

  const flooded = percentiles(latencies);
  const baseline = percentiles(quiet);
  console.log(
    `other sessions while flooded: ${latencies.length} requests, p50 ${flooded.p50.toFixed(1)} ms, ` +
      `p99 ${flooded.p99.toFixed(1)} ms, max ${flooded.max.toFixed(1)} ms; flood answered in ` +
      `${floodMs} ms (${errors.length} refused); quiet: p50 ${baseline.p50.toFixed(1)} ms, ` +
      `p99 ${baseline.p99.toFixed(1)} ms`,
  );
  return { flooded, baseline, samples: latencies.length };
}

describe('one session flooding', () => {
  it('leaves other sessions answered within 50 ms at p99', { timeout: 180_000 }, async () => {
    const others = await Promise.all(
      Array.from({ length: PROBES }, () => RtviClient.ready(server.url)),
    );
    for (const other of others) {
      expect(await other.call('update_system_prompt', { prompt: 'other', add_suffix: false })).toBe(
        true,
      );
    }
    // 50 ms at p99 on top of what the machine itself adds (nothing on an idle machine; tens of
    // milliseconds on a 2-core machine shared with other test runs). Other processes can only
    // make a run slower, so the best of a few runs is the server's own figure; a server that
    // lets one session hold the others up fails every run.
    const attempts: Attempt[] = [];
    for (let i = 0; i < ATTEMPTS; i++) {
      const run = await attempt(others);
      attempts.push(run);
      if (run.samples >= 100 && run.flooded.p99 < 50 + run.baseline.p99) break;
    }
    const best = attempts.reduce((a, b) =>
      a.flooded.p99 - a.baseline.p99 <= b.flooded.p99 - b.baseline.p99 ? a : b,
    );
    expect(best.samples).toBeGreaterThanOrEqual(100);
    expect(best.flooded.p99).toBeLessThan(50 + best.baseline.p99);
    await Promise.all(others.map((other) => other.close()));
  });
});
