// Benchmark: voice sessions per core. N clients at once (default 2, 4 and 8) each talk to one
// voice bot server in real time: a spoken request (Flite, 16 kHz, sent in 16 ms frames at the
// pace it plays), then silence while the bot answers in speech (real-time pacing), for a few
// turns. The server runs in a child process (bench/lib/voice-capacity-child.mjs) with
// PocketSphinx, the WebRTC VAD and Flite; its CPU (its own and its recognizers') over the wall
// time of the conversations gives the cores one voice session keeps busy, and its RSS growth
// the memory per session. The reply latency (user-stopped-speaking to bot-started-speaking)
// shows whether the server kept up.
//
//   npm run build && node bench/voice-capacity.bench.mjs [sessions...]
//
// Loopback only, bounded (a watchdog, a fixed number of turns).
import { fork } from 'node:child_process';
import * as path from 'node:path';
import { percentile, printTable, emitMeasured, repoRoot, watchdog } from './lib/common.mjs';

watchdog('voice-capacity bench', 600);
const { INPUT_SAMPLE_RATE, RtviClient, createFliteTextToSpeech, resamplePcm16, synthesizeAll } =
  await import('@scenaro/agent').then(async (agent) => ({
    ...agent,
    RtviClient: (await import('@scenaro/agent/testing')).RtviClient,
  }));

const LEVELS = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const levels = LEVELS.length > 0 ? LEVELS : [2, 4, 8];
const TURNS = 3;
const FRAME_MS = 16;
const SAID = 'I would like to change my flight to tomorrow morning please.';

const voice = createFliteTextToSpeech({ voice: 'kal16' });
const speech = await resamplePcm16(
  await synthesizeAll(voice, SAID),
  voice.sampleRate,
  INPUT_SAMPLE_RATE,
);
await voice.close();
const frameBytes = (INPUT_SAMPLE_RATE * FRAME_MS * 2) / 1000;
const silence = (ms) => new Uint8Array(Math.round((INPUT_SAMPLE_RATE * ms) / 1000) * 2);

/** Send `pcm` in 16 ms frames at the pace it plays. */
async function stream(client, pcm) {
  const start = performance.now();
  for (let offset = 0, n = 0; offset < pcm.byteLength; offset += frameBytes, n++) {
    client.sendAudio(pcm.subarray(offset, offset + frameBytes), INPUT_SAMPLE_RATE);
    const due = start + (n + 1) * FRAME_MS;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/** Keep the microphone open (silence) until the bot sends a message `accept` takes. */
async function silenceUntil(client, accept, what, from) {
  let at = 0;
  const seen = client
    .waitFor(accept, what, { from, timeoutMs: 120_000 })
    .then((message) => ((at = performance.now()), message));
  let done = false;
  const settle = () => (done = true);
  seen.then(settle, settle);
  while (!done) await stream(client, silence(160));
  return { message: await seen, at };
}

const is = (type) => (m) => m.type === type;

/**
 * One session: TURNS spoken requests, each answered in speech. Returns the reply latencies and
 * the turns not answered (the recognizer heard nothing).
 */
async function converse(url) {
  const client = await RtviClient.ready(url);
  const latencies = [];
  let missed = 0;
  try {
    for (let turn = 0; turn < TURNS; turn++) {
      const from = client.messages.length;
      await stream(client, speech);
      const stopped = await silenceUntil(
        client,
        is('user-stopped-speaking'),
        'end of speech',
        from,
      );
      const final = await silenceUntil(
        client,
        (m) => m.type === 'user-transcription' && m.data.final,
        'the transcript',
        from,
      );
      if (!final.message.data.text.trim()) {
        missed++;
        continue;
      }
      const started = await silenceUntil(client, is('bot-started-speaking'), 'the reply', from);
      await silenceUntil(client, is('bot-stopped-speaking'), 'the end of the reply', from);
      latencies.push(started.at - stopped.at);
    }
  } finally {
    await client.close();
  }
  return { latencies, missed };
}

const rows = [];
const results = [];
for (const sessions of levels) {
  const child = fork(path.join(repoRoot, 'bench/lib/voice-capacity-child.mjs'), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = () => new Promise((resolve) => child.once('message', resolve));
  const { url } = await next();
  child.send('report');
  const before = await next();
  const t0 = performance.now();
  const conversations = await Promise.all(Array.from({ length: sessions }, () => converse(url)));
  const latencies = conversations.flatMap((c) => c.latencies);
  const missed = conversations.reduce((sum, c) => sum + c.missed, 0);
  const wall = (performance.now() - t0) / 1000;
  // The sessions end with their connections (no resume grace): their recognizers exit and are
  // reaped, so their CPU is in the child's count.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  child.send('report');
  const after = await next();
  child.send('stop');
  await new Promise((resolve) => child.once('exit', resolve));
  const cpuS = (after.cpu_ms - before.cpu_ms) / 1000;
  const coresPerSession = cpuS / wall / sessions;
  const sorted = [...latencies].sort((a, b) => a - b);
  const result = {
    sessions,
    wall_s: wall,
    server_cpu_s: cpuS,
    cores_per_session: coresPerSession,
    sessions_per_core: 1 / coresPerSession,
    rss_growth_mb_per_session: (after.rss - before.rss) / 2 ** 20 / sessions,
    reply_latency_p50_ms: percentile(sorted, 0.5),
    reply_latency_p95_ms: percentile(sorted, 0.95),
    turns_unanswered: missed,
  };
  console.log(JSON.stringify(result));
  results.push(result);
  rows.push([
    sessions,
    wall.toFixed(1),
    cpuS.toFixed(1),
    coresPerSession.toFixed(3),
    (1 / coresPerSession).toFixed(1),
    result.rss_growth_mb_per_session.toFixed(1),
    result.reply_latency_p50_ms.toFixed(0),
    result.reply_latency_p95_ms.toFixed(0),
    `${missed}/${sessions * TURNS}`,
  ]);
}
printTable(
  `${TURNS} spoken turns per session, real time`,
  [
    'sessions',
    'wall s',
    'server CPU s',
    'cores/session',
    'sessions/core',
    'MB/session',
    'reply p50 ms',
    'reply p95 ms',
    'unheard turns',
  ],
  rows,
);
emitMeasured({ turns: TURNS, results });
