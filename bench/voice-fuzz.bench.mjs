// Hostile-audio fuzz of one voice bot server, over loopback.
//
//   npm run build && node bench/voice-fuzz.bench.mjs [frames] [connections] [max-voice-sessions]
//       [--no-tts]
//
// The server runs in its own process (bench/lib/voice-fuzz-server.mjs, `--expose-gc`): a tiny
// test domain, the echo policy of @scenaro/agent/testing, PocketSphinx ears, Flite `slt` (none
// with --no-tts), real-time pacing, `maxVoiceSessions` MAX (default 4), the default audio backlog
// and every other option at its default (a session whose socket dropped waits 30 s for a resume).
// SCENARO_LOG_LEVEL=info makes it log to stderr. Three phases:
//
// 1. Warm-up: CONNECTIONS connections, 1,000 frames each of the mix below (its floods included),
//    each leaving with disconnect-bot, so the server's memory pools reach their working size.
//    The server's starting RSS is taken after it (all sessions ended, after a GC).
// 2. Fuzz: CONNECTIONS clients (default 12, more than MAX) send FRAMES frames (default 100,000)
//    in all, a seeded mix of valid 16 kHz mono 512-byte audio (silence and noise), audio with
//    0/1/2/3/9/4096 channels, sample rates 0 to 2^32-1, lengths 0, 1, odd, up to 64 KiB,
//    WAV-wrapped frames (valid, truncated, unreadable), random bytes, and control requests
//    (`client-message` of an unknown `t` or a real read-only control message, an unknown RTVI
//    type). A connection lives 200-2,700 frames: 15 % never send `client-ready` (audio only),
//    half send audio before it, a quarter floods 30 s of audio at once; then it leaves
//    (disconnect-bot, a clean close or a dropped socket, whose session waits for a resume) and
//    the client connects again.
// 3. Flood: a bystander session sends only control requests (one at a time, 20 ms apart) while
//    one session floods 10 minutes of audio at once in 512-byte frames, then another 10 minutes
//    in frames of the server's largest message (DEFAULT_MAX_MESSAGE_BYTES, 1 MiB with the frame
//    around the audio). Per stage (3 s before the floods, each flood, the 5 s after) it reports
//    the bystander's latency, the server's event-loop delay and CPU, its recognizers' CPU and
//    the whole machine's busy share (other jobs on the machine count there).
//
// All along, every 2-4 s, one live pocketsphinx_continuous process started by the server is
// SIGKILLed: only a process whose parent is the server process or its process launcher and whose
// name is pocketsphinx_continuous (checked just before the kill). Every 100 ms this process counts the
// server's live recognizers: processes named pocketsphinx_continuous, not zombies, among the
// server's children and grandchildren (/proc/<pid>/task/*/children; the recognizer is the bash
// that started it, after its exec; its `cat` is not counted).
//
// Every control request (and `client-ready`) is timed until its answer; each must come within
// 2 s (a client keeps at most 8 unanswered, gives up on one after 4 s, and waits for them before
// it leaves). A late or unanswered request is reported with what was ahead of it on its
// connection (a flood, the frames sent before it), split by whether its connection had begun
// a flood in the 15 s before.
// Checks (exit 1 if one fails): the server process never exits; every request answered within
// 2 s; at least FRAMES frames sent in phase 2; live recognizers never more than MAX + 2 (the
// listening sessions' own, plus the RecognizerPool's 2 waiting spares); the server's RSS after
// every client left (sessions ended, GC, 3 s) within 20 % of its starting RSS; the bystander's
// p99 under 50 ms while 10 minutes of audio arrive at once in 512-byte frames (the figure over
// both floods and the 5 s after is reported beside it). Bounded: a watchdog stops everything after 420 s.
//
// The pieces: bench/lib/voice-fuzz-input.mjs (the seeded input), voice-fuzz-client.mjs (a timed
// connection, the run's counters), voice-fuzz-procs.mjs (/proc), voice-fuzz-flood.mjs (phase 3),
// voice-fuzz-report.mjs (the table); this file runs the phases and checks the result.
import { spawn } from 'node:child_process';
import { setImmediate } from 'node:timers';
import {
  emitResult,
  jsonLineChannel,
  machineInfo,
  machineLine,
  percentile,
  positiveInt,
  repoRoot,
  watchdog,
} from './lib/common.mjs';
import { cpuBetween, treeCpu } from './lib/proc-cpu.mjs';
import {
  ANSWER_MS,
  Connection,
  flood,
  nextRequestId,
  sleep,
  stats,
} from './lib/voice-fuzz-client.mjs';
import {
  controlRequest,
  hostileFrame,
  int,
  pick,
  prng,
  random,
  validFrame,
} from './lib/voice-fuzz-input.mjs';
import {
  isRecognizer,
  machineJiffies,
  procStat,
  serverProcesses,
} from './lib/voice-fuzz-procs.mjs';
import { floodPhase } from './lib/voice-fuzz-flood.mjs';
import { printFuzzTable, round } from './lib/voice-fuzz-report.mjs';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const TTS = !process.argv.includes('--no-tts');
const FRAMES = positiveInt(args[0], 100_000);
const CONNECTIONS = positiveInt(args[1], 12);
const MAX = positiveInt(args[2], 4);
/** Recognizers the pool keeps started and waiting (PocketsphinxOptions.poolSize's default). */
const POOL_SPARES = 2;
const BYSTANDER_P99_MS = 50;
/** The warm-up runs the fuzz's own mix (floods included) on every connection at once. */
const WARMUP_CONNECTIONS = CONNECTIONS;
const WARMUP_FRAMES = 1000;
/** Phase 2 stops sending at this point (the frames check then fails), so phase 3 still runs. */
const FUZZ_DEADLINE_S = 240;
watchdog('voice-fuzz', 420);

// --- the server process (bench/lib/voice-fuzz-server.mjs) -------------------------------------
const child = spawn(
  process.execPath,
  ['--expose-gc', 'bench/lib/voice-fuzz-server.mjs', JSON.stringify({ max: MAX, tts: TTS })],
  {
    cwd: repoRoot,
    stdio: ['pipe', 'pipe', 'inherit'],
  },
);
// A failed run (the watchdog, an exception) must not leave the server running.
const killServer = () => child.kill('SIGKILL');
process.once('exit', killServer);
let crashed;
let closing = false;
child.on('exit', (code, signal) => {
  if (!closing || code !== 0) crashed = signal ?? `exit code ${code}`;
});
const ask = jsonLineChannel(child, () => crashed);
const started = await ask();
if (started.skip) {
  console.log(`voice-fuzz skipped: ${started.skip}`);
  emitResult({ skipped: started.skip });
  process.exit(0);
}
const serverPid = started.pid;

// --- the server's recognizers (/proc) ----------------------------------------------------------
const recognizerCounts = { max: 0, maxDescendants: 0, samples: 0, sum: 0 };
const sampler = setInterval(() => {
  const { all, recognizers } = serverProcesses(serverPid);
  recognizerCounts.max = Math.max(recognizerCounts.max, recognizers.length);
  recognizerCounts.maxDescendants = Math.max(recognizerCounts.maxDescendants, all);
  recognizerCounts.samples++;
  recognizerCounts.sum += recognizers.length;
}, 100);
let kills = 0;
let killer;
/** The killer's own sequence, so the fuzz input does not depend on when kills happen. */
const killRandom = prng(0xdead);
function killOneRecognizer() {
  const { recognizers } = serverProcesses(serverPid);
  if (recognizers.length > 0) {
    const pid = pick(recognizers, killRandom);
    const stat = procStat(pid);
    // Only the server's own recognizer (started by it or by its launcher), checked again right
    // before the signal.
    if (
      isRecognizer(stat) &&
      (stat.ppid === serverPid || procStat(stat.ppid)?.ppid === serverPid)
    ) {
      try {
        process.kill(pid, 'SIGKILL');
        kills++;
      } catch {
        // it ended meanwhile
      }
    }
  }
  killer = setTimeout(killOneRecognizer, 2000 + int(2000, killRandom));
}

let sent = 0;
let floods = 0;
let reconnects = 0;
let neverReady = 0;
const fuzzStop = { at: Number.POSITIVE_INFINITY };

/** One connection's life: maybe early audio, maybe the handshake, the mix, maybe a flood. */
async function lifetime(limit, leaveAs) {
  const conn = new Connection(started.url);
  if (!(await conn.open())) return;
  const handshake = random() >= 0.15;
  if (!handshake) neverReady++;
  const frames = 200 + int(2500);
  const floodAt = random() < 0.25 ? int(frames) : -1;
  const leave = leaveAs ?? pick(['disconnect-bot', 'disconnect-bot', 'close', 'terminate']);
  if (random() < 0.5 || !handshake) {
    for (let i = int(40); i > 0 && sent < limit; i--, sent++)
      conn.send(random() < 0.5 ? validFrame() : hostileFrame());
  }
  if (handshake) conn.handshake();
  for (let i = 0; i < frames && sent < limit && !conn.closed; i++) {
    if (performance.now() > fuzzStop.at) break;
    if (i === floodAt) {
      floods++;
      await flood(conn, 30, () => sent++);
      continue;
    }
    const roll = random();
    if (handshake && roll < 0.15) {
      await conn.room();
      const id = `c${nextRequestId()}`;
      conn.request(controlRequest(id), id);
    } else if (roll < 0.55) conn.send(validFrame());
    else conn.send(hostileFrame());
    sent++;
    if (sent % 32 === 0) {
      await conn.drain();
      await new Promise((r) => setImmediate(r));
    }
  }
  await conn.settle();
  await conn.leave(leave);
}

async function runClient(limit) {
  while (sent < limit && performance.now() < fuzzStop.at) {
    await lifetime(limit);
    if (sent < limit) reconnects++;
  }
}

/** Wait until the server has no session, connected or waiting for a resume (at most `ms`). */
async function sessionsGone(ms) {
  const deadline = performance.now() + ms;
  let report = await ask('report');
  while (report.sessions + report.detached > 0 && performance.now() < deadline) {
    await sleep(1000);
    report = await ask('report');
  }
  return report;
}

/**
 * Marks the start of a stage; `end()` gives what the server did during it: its event-loop delay,
 * its CPU (all its threads) and its live recognizers' CPU, and the whole machine's busy share.
 */
async function stageMark() {
  await ask('stage');
  const tree = treeCpu(serverPid);
  const jiffies = machineJiffies();
  const t = performance.now();
  return {
    async end() {
      const server = await ask('stage');
      const cpu = cpuBetween(tree, treeCpu(serverPid));
      const now = machineJiffies();
      const wall = performance.now() - t;
      const pct = (x) => Math.round((x / wall) * 100);
      return {
        seconds: round(wall / 1000),
        server_loop_p99_ms: server.loop_p99_ms,
        server_loop_max_ms: server.loop_max_ms,
        server_cpu_pct: pct(server.cpu_ms),
        recognizers_cpu_pct: pct(cpu.children_ms),
        machine_busy_pct: Math.round(
          ((now.busy - jiffies.busy) / (now.total - jiffies.total)) * 100,
        ),
      };
    },
  };
}

// --- run ---------------------------------------------------------------------------------------
console.log(machineLine());
const mb = (bytes) => round(bytes / 2 ** 20);
killer = setTimeout(killOneRecognizer, 2000);

// 1. Warm-up: JIT, buffer pools, the first recognizers and the pool; every session ends.
await Promise.all(
  Array.from({ length: WARMUP_CONNECTIONS }, () =>
    lifetime(WARMUP_CONNECTIONS * WARMUP_FRAMES, 'disconnect-bot'),
  ),
);
await sessionsGone(40_000);
// Taken as the figure after the run is (sessions gone, 3 s idle, a GC), so the two compare.
await sleep(3000);
const warm = await ask('report');
const warmupFrames = sent;
sent = 0;
const latenciesWarmup = stats.latencies.length;

// 2. Fuzz.
const fuzzMark = await stageMark();
const t0 = performance.now();
fuzzStop.at = t0 + FUZZ_DEADLINE_S * 1000;
const progress = setInterval(
  () =>
    console.log(
      `  ... ${sent} frames sent, ${stats.answered} answered, ${stats.late.length} late, ` +
        `${kills} recognizers killed, at most ${recognizerCounts.max} live`,
    ),
  10_000,
);
await Promise.all(Array.from({ length: CONNECTIONS }, () => runClient(FRAMES)));
const fuzzSeconds = (performance.now() - t0) / 1000;
const fuzzFrames = sent;
const fuzzLoad = await fuzzMark.end();
const during = await ask('report');
const between = await sessionsGone(40_000);

// 3. Flood with a bystander.
const floodResult = await floodPhase(started.url, stageMark);
clearInterval(progress);
clearTimeout(killer);
const after0 = await sessionsGone(40_000);
await sleep(3000);
const after = await ask('report');
clearInterval(sampler);
let metrics = '';
try {
  metrics = await (await globalThis.fetch(started.metricsUrl)).text();
} catch {
  // reported as absent
}
const finalProcesses = serverProcesses(serverPid);
closing = true;
const exited = new Promise((resolve) => child.once('exit', resolve));
child.stdin.write('close\n');
await exited;

/** Sum of a Prometheus metric's samples whose labels include `labels`. */
function metricSum(name, labels = '') {
  let sum = 0;
  for (const line of metrics.split('\n')) {
    if (!line.startsWith(name) || (line[name.length] !== '{' && line[name.length] !== ' '))
      continue;
    if (labels && !line.includes(labels)) continue;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

const latencies = stats.latencies.slice(latenciesWarmup).sort((a, b) => a - b);
const bystander = floodResult.bystander;
const growth = after.rss / warm.rss - 1;
const ms = (sorted, q) => round(percentile(sorted, q) ?? 0);
const result = {
  frames: fuzzFrames,
  warmup_frames: warmupFrames,
  flood_phase_frames: floodResult.small_frames + floodResult.large_frames,
  connections: CONNECTIONS,
  max_voice_sessions: MAX,
  tts: TTS ? 'flite slt' : 'none',
  connects: stats.connections,
  reconnects,
  never_ready: neverReady,
  floods_30s: floods,
  fuzz_seconds: round(fuzzSeconds),
  fuzz_load: fuzzLoad,
  frames_per_s: Math.round(fuzzFrames / fuzzSeconds),
  requests_answered: stats.answered,
  late: stats.late.length,
  unanswered: stats.lateIds.slice(0, 50),
  requests_after_a_flood: stats.byFlood.after,
  requests_without_a_flood: stats.byFlood.other,
  p50_ms: ms(latencies, 0.5),
  p99_ms: ms(latencies, 0.99),
  max_ms: round(latencies.at(-1) ?? 0),
  bystander_requests: bystander.length,
  bystander_p50_ms: ms(bystander, 0.5),
  bystander_p99_ms: ms(bystander, 0.99),
  bystander_max_ms: round(bystander.at(-1) ?? 0),
  bystander_by_stage: Object.fromEntries(
    Object.entries(floodResult.stages).map(([name, list]) => [
      name,
      {
        requests: list.length,
        p50_ms: ms(list, 0.5),
        p99_ms: ms(list, 0.99),
        max_ms: round(list.at(-1) ?? 0),
        ...floodResult.load[name],
      },
    ]),
  ),
  small_flood_frames: floodResult.small_frames,
  small_flood_s: round(floodResult.small_flood_s),
  large_flood_frames: floodResult.large_frames,
  large_frame_audio_bytes: floodResult.large_frame_bytes,
  large_flood_s: round(floodResult.large_flood_s),
  recognizers_killed: kills,
  recognizers_max: recognizerCounts.max,
  recognizers_mean: round(recognizerCounts.sum / Math.max(1, recognizerCounts.samples)),
  recognizers_limit: MAX + POOL_SPARES,
  descendants_max: recognizerCounts.maxDescendants,
  recognizers_at_end: finalProcesses.recognizers.length,
  final_transcripts: stats.finals,
  bot_audio_frames: stats.botAudio,
  errors_received: stats.errors,
  other_errors: [...stats.otherErrors],
  max_errors_per_connection: stats.maxPerConnection,
  large_flood_connection_closed: floodResult.large_closed,
  closes_seen: stats.closes,
  server_metrics: {
    audio_received_s: round(metricSum('scenaro_audio_received_seconds_total')),
    audio_dropped_s: round(metricSum('scenaro_audio_dropped_seconds_total')),
    audio_before_ready_frames: metricSum('scenaro_audio_before_ready_frames_total'),
    bad_audio: metricSum('scenaro_errors_total', 'kind="bad_audio"'),
    voice_limit: metricSum('scenaro_errors_total', 'kind="voice_limit"'),
    internal: metricSum('scenaro_errors_total', 'kind="internal"'),
  },
  rss_idle_mb: mb(started.rss),
  rss_start_mb: mb(warm.rss),
  rss_after_fuzz_mb: mb(between.rss),
  rss_peak_mb: mb(Math.max(during.peak, after.peak)),
  rss_after_mb: mb(after.rss),
  rss_growth_pct: round(growth * 100),
  heap_start_mb: mb(warm.heap),
  heap_after_mb: mb(after.heap),
  external_start_mb: mb(warm.external),
  external_after_mb: mb(after.external),
  heap_total_start_mb: mb(warm.heap_total),
  heap_total_after_mb: mb(after.heap_total),
  resident_start_mb: Object.fromEntries(Object.entries(warm.resident).map(([k, v]) => [k, mb(v)])),
  resident_after_mb: Object.fromEntries(Object.entries(after.resident).map(([k, v]) => [k, mb(v)])),
  sessions_after: after0.sessions + after0.detached,
  crashed: crashed ?? false,
  machine: machineInfo(),
};
printFuzzTable(result);
emitResult(result);
const failures = [];
if (crashed) failures.push(`the server process exited (${crashed})`);
if (fuzzFrames < FRAMES) failures.push(`only ${fuzzFrames} frames sent in ${FUZZ_DEADLINE_S} s`);
if (stats.late.length > 0) {
  const answeredLate = stats.late.length - stats.lateIds.length;
  failures.push(
    `${stats.late.length} requests not answered within ${ANSWER_MS} ms: ${answeredLate} answered late, ` +
      `${stats.lateIds.length} not answered within ${2 * ANSWER_MS} ms: ${stats.lateIds.slice(0, 12).join('; ')}`,
  );
}
if (recognizerCounts.max > MAX + POOL_SPARES) {
  failures.push(`${recognizerCounts.max} live recognizers at once (limit ${MAX} + ${POOL_SPARES})`);
}
if (result.sessions_after !== 0) failures.push(`${result.sessions_after} sessions still open`);
if (growth > 0.2) failures.push(`RSS grew ${result.rss_growth_pct} % (limit 20 %)`);
const duringFlood = result.bystander_by_stage.small.p99_ms;
if (!(duringFlood < BYSTANDER_P99_MS)) {
  failures.push(
    `bystander p99 during the 10 min flood of 512-byte frames ${duringFlood} ms (limit ${BYSTANDER_P99_MS} ms)`,
  );
}
for (const failure of failures) console.error(`voice-fuzz: FAILED: ${failure}`);
process.exit(failures.length > 0 ? 1 : 0);
