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
// SIGKILLed: only a process whose parent is the server process and whose name is
// pocketsphinx_continuous (checked just before the kill). Every 100 ms this process counts the
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
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { setImmediate } from 'node:timers';
import { WebSocket } from 'ws';
import { DEFAULT_MAX_MESSAGE_BYTES, encodeWav } from '@scenaro/agent';
import {
  clientMessage,
  clientReady,
  decodeRtviFrame,
  encodeFrame,
  encodeRtviFrame,
} from '@scenaro/sdk/protocol';
import {
  emitResult,
  jsonLineChannel,
  machineInfo,
  machineLine,
  percentile,
  positiveInt,
  printTable,
  repoRoot,
  watchdog,
} from './lib/common.mjs';
import { cpuBetween, treeCpu } from './lib/proc-cpu.mjs';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const TTS = !process.argv.includes('--no-tts');
const FRAMES = positiveInt(args[0], 100_000);
const CONNECTIONS = positiveInt(args[1], 12);
const MAX = positiveInt(args[2], 4);
/** Recognizers the pool keeps started and waiting (PocketsphinxOptions.poolSize's default). */
const POOL_SPARES = 2;
const ANSWER_MS = 2000;
const BYSTANDER_P99_MS = 50;
const MAX_OUTSTANDING = 8;
/** The warm-up runs the fuzz's own mix (floods included) on every connection at once. */
const WARMUP_CONNECTIONS = CONNECTIONS;
const WARMUP_FRAMES = 1000;
/** Phase 2 stops sending at this point (the frames check then fails), so phase 3 still runs. */
const FUZZ_DEADLINE_S = 240;
const BYTES_PER_SECOND = 16_000 * 2;
/** A request sent this soon after its connection began a flood is counted apart. */
const AFTER_FLOOD_MS = 15_000;
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
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const started = await ask();
if (started.skip) {
  console.log(`voice-fuzz skipped: ${started.skip}`);
  emitResult({ skipped: started.skip });
  process.exit(0);
}
const serverPid = started.pid;

// --- the server's recognizers (/proc) ----------------------------------------------------------
function childrenOf(pid) {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8')
        .split(' ')
        .filter(Boolean)
        .map(Number),
    );
  } catch {
    return [];
  }
}
function procStat(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    return { comm, state: fields[0], ppid: Number(fields[1]) };
  } catch {
    return undefined;
  }
}
/** The kernel keeps 15 characters of a process name. */
const RECOGNIZER = 'pocketsphinx_continuous'.slice(0, 15);
const isRecognizer = (stat) => stat !== undefined && stat.comm === RECOGNIZER && stat.state !== 'Z';
/** Live recognizers among the server's children and grandchildren, and all its descendants. */
function serverProcesses() {
  const pids = [];
  for (const pid of childrenOf(serverPid)) pids.push(pid, ...childrenOf(pid));
  return { all: pids.length, recognizers: pids.filter((pid) => isRecognizer(procStat(pid))) };
}
const recognizerCounts = { max: 0, maxDescendants: 0, samples: 0, sum: 0 };
const sampler = setInterval(() => {
  const { all, recognizers } = serverProcesses();
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
  const { recognizers } = serverProcesses();
  if (recognizers.length > 0) {
    const pid = pick(recognizers, killRandom);
    const stat = procStat(pid);
    // Only the server's own recognizer, checked again right before the signal.
    if (isRecognizer(stat) && stat.ppid === serverPid) {
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

// --- fuzz input --------------------------------------------------------------------------------
/** A seeded generator of numbers in [0, 1) (mulberry32). */
function prng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = prng(0x5eed);
const pick = (items, next = random) => items[Math.floor(next() * items.length)];
const int = (n, next = random) => Math.floor(next() * n);
/** `bytes` of 16-bit noise at about -20 dBFS, or silence. */
function pcm(bytes, noise = true) {
  const out = new Uint8Array(bytes);
  if (!noise) return out;
  const view = new DataView(out.buffer);
  for (let i = 0; i + 1 < bytes; i += 2) view.setInt16(i, int(6554) - 3277, true);
  return out;
}
const audioFrame = (audio, sampleRate = 16_000, numChannels = 1) =>
  encodeFrame({ kind: 'audio', audio, sampleRate, numChannels });
/** Pre-encoded valid 16 ms frames: silence and 15 kinds of noise. */
const VALID = [
  audioFrame(pcm(512, false)),
  ...Array.from({ length: 15 }, () => audioFrame(pcm(512))),
];
const validFrame = () => (random() < 0.3 ? VALID[0] : pick(VALID));
const CHANNELS = [0, 1, 2, 3, 9, 4096];
const RATES = [0, 1, 7999, 8000, 16_000, 44_100, 48_000, 192_000, 192_001, 2 ** 31, 2 ** 32 - 1];
/** Noise to cut frames of random length from. */
const NOISE = pcm(65_536);

function wavFrame() {
  const kind = int(6);
  const channels = 1 + int(2);
  const rate = pick([8000, 16_000, 48_000]);
  const wav = encodeWav({
    pcm: NOISE.subarray(0, 256 + 2 * int(2048)),
    sampleRate: rate,
    channels,
  });
  const view = new DataView(wav.buffer);
  if (kind === 1) return audioFrame(wav.subarray(0, 12 + int(40))); // truncated header
  if (kind === 2) view.setUint16(34, 8, true); // 8-bit
  if (kind === 3) view.setUint16(22, pick([0, 3, 4096]), true); // channels
  if (kind === 4) view.setUint32(24, pick([0, 1, 7999, 192_001, 2 ** 32 - 1]), true); // rate
  if (kind === 5) view.setUint32(40, 0xfffffff0, true); // data longer than the frame
  return audioFrame(wav, pick([0, 16_000]), pick([0, 1]));
}

/** One fuzzed audio or junk frame. */
function hostileFrame() {
  const roll = random();
  if (roll < 0.25) return validFrame();
  if (roll < 0.4) return audioFrame(NOISE.subarray(0, 512), 16_000, pick(CHANNELS));
  if (roll < 0.55) return audioFrame(NOISE.subarray(0, 512), pick(RATES));
  if (roll < 0.7) {
    const length = pick([0, 1, 2 * int(2048) + 1, 2 * int(32_769)]);
    return audioFrame(NOISE.subarray(0, length), 16_000, pick([1, 1, 2]));
  }
  if (roll < 0.85) return wavFrame();
  if (roll < 0.95) {
    const length = pick([3, 512, 2 * int(16_384)]);
    return audioFrame(NOISE.subarray(0, length), pick(RATES), pick(CHANNELS));
  }
  return new Uint8Array(Array.from({ length: 1 + int(64) }, () => int(256)));
}

/** A control request that must be answered: [bytes, id]. */
function controlRequest(id) {
  const t = pick([
    'no_such_handler',
    'no_such_handler',
    'get_scenario_summary',
    'get_context_history',
    'no-such-type',
  ]);
  if (t === 'no-such-type')
    return [encodeRtviFrame({ label: 'rtvi-ai', type: t, id, data: {} }), t];
  return [encodeRtviFrame(clientMessage(id, t, t === 'no_such_handler' ? { x: int(10) } : {})), t];
}
const disconnectBot = encodeRtviFrame({
  label: 'rtvi-ai',
  type: 'disconnect-bot',
  id: 'bye',
  data: {},
});

// --- clients -----------------------------------------------------------------------------------
const ERROR_KINDS = [
  ['voice_limit', /listening to as many sessions/],
  ['bad_audio', /^Audio frame not heard/],
  ['shed', /^Audio arrives faster than real time/],
  ['recognizer', /^Speech recognition failed|^Speech input is unavailable/],
  ['bad_frame', /^Undecodable frame|^Invalid RTVI/],
];
const stats = {
  latencies: [],
  late: [],
  lateIds: [],
  answered: 0,
  errors: Object.fromEntries([...ERROR_KINDS.map(([k]) => [k, 0]), ['other', 0]]),
  otherErrors: new Set(),
  /** Most errors of each kind one connection got. */
  maxPerConnection: {},
  closes: {},
  connections: 0,
  /** Requests (answered or given up on) and late ones, sent soon after a flood on their connection or not. */
  byFlood: { after: { requests: 0, late: 0 }, other: { requests: 0, late: 0 } },
  /** Frames of the bot's speech received, final user transcripts received. */
  botAudio: 0,
  finals: 0,
};
let requestId = 0;
let connectionCount = 0;

/** One WebSocket connection with its unanswered requests. */
class Connection {
  constructor(latencies = stats.latencies) {
    this.latencies = latencies;
    this.outstanding = new Map();
    this.closed = false;
    this.errorCounts = {};
    /** Frames sent; the frames before the last answered request; when it last flooded. */
    this.frames = 0;
    this.framesAnswered = 0;
    this.floodedAt = undefined;
    this.n = ++connectionCount;
    /** Messages received from the server. */
    this.received = 0;
    this.ws = new WebSocket(started.url, { maxPayload: 64 * 1024 * 1024 });
    this.ws.on('message', (data) => this.#receive(new Uint8Array(data)));
    this.ws.on('error', () => {});
    this.ws.on('close', (code) => {
      this.closed = true;
      this.closeCode = code;
      stats.closes[code] = (stats.closes[code] ?? 0) + 1;
    });
  }

  async open() {
    stats.connections++;
    if (this.ws.readyState !== WebSocket.CONNECTING) return this.ws.readyState === WebSocket.OPEN;
    await new Promise((resolve) => {
      this.ws.once('open', resolve);
      this.ws.once('close', resolve);
    });
    return !this.closed;
  }

  #receive(bytes) {
    this.received++;
    const decoded = decodeRtviFrame(bytes);
    if (!decoded.ok) {
      if (decoded.reason === 'not-a-message' && decoded.frame.kind === 'audio') stats.botAudio++;
      return;
    }
    if (decoded.message.type === 'user-transcription' && decoded.message.data?.final) {
      stats.finals++;
    }
    const { id, type, data } = decoded.message;
    if (type === 'error') {
      const text = String(data?.error);
      const kind = ERROR_KINDS.find(([, re]) => re.test(text))?.[0] ?? 'other';
      stats.errors[kind]++;
      if (kind === 'other' && stats.otherErrors.size < 10) stats.otherErrors.add(text);
      this.errorCounts[kind] = (this.errorCounts[kind] ?? 0) + 1;
      stats.maxPerConnection[kind] = Math.max(
        stats.maxPerConnection[kind] ?? 0,
        this.errorCounts[kind],
      );
      return;
    }
    const entry = this.outstanding.get(id);
    if (
      entry !== undefined &&
      (type === 'server-response' || type === 'error-response' || type === 'bot-ready')
    ) {
      this.outstanding.delete(id);
      this.framesAnswered = Math.max(this.framesAnswered, entry.frame);
      const ms = performance.now() - entry.at;
      this.latencies.push(ms);
      stats.answered++;
      stats.byFlood[entry.afterFlood ? 'after' : 'other'].requests++;
      if (ms > ANSWER_MS) {
        stats.late.push(ms);
        stats.byFlood[entry.afterFlood ? 'after' : 'other'].late++;
      }
    }
  }

  send(frame) {
    if (this.closed) return;
    this.ws.send(frame, { binary: true });
    this.frames++;
  }

  request([frame, what], id) {
    const at = performance.now();
    const afterFlood = this.floodedAt !== undefined && at - this.floodedAt < AFTER_FLOOD_MS;
    const entry = { at, what, received: this.received, frame: this.frames, afterFlood };
    this.outstanding.set(id, entry);
    this.send(frame);
  }

  handshake() {
    const id = `ready${++requestId}`;
    this.request([encodeRtviFrame(clientReady(id, { library: 'voice-fuzz' })), 'client-ready'], id);
  }

  /** Wait until the socket has sent most of what is queued. */
  async drain(bytes = 512 * 1024) {
    while (!this.closed && this.ws.bufferedAmount > bytes) await sleep(2);
  }

  /** Wait (at most 2 x ANSWER_MS) for what is owed; count what never came. */
  async settle() {
    const deadline = performance.now() + ANSWER_MS * 2;
    while (!this.closed && this.outstanding.size > 0 && performance.now() < deadline) {
      await sleep(5);
    }
    this.#giveUp(0);
  }

  /** Requests unanswered for longer than `ms` count as late and are forgotten. */
  #giveUp(ms) {
    for (const [id, { at, what, received, frame, afterFlood }] of this.outstanding) {
      if (performance.now() - at > ms) {
        stats.late.push(performance.now() - at);
        stats.byFlood[afterFlood ? 'after' : 'other'].requests++;
        stats.byFlood[afterFlood ? 'after' : 'other'].late++;
        // What was ahead of it on its connection, and whether the server still wrote to it.
        const flooded = afterFlood
          ? `sent ${Math.round(at - this.floodedAt)} ms after a flood began on it`
          : 'no flood before it';
        const closed = this.closed ? `, closed ${this.closeCode}` : '';
        stats.lateIds.push(
          `${id} (${what}, connection ${this.n}, ${flooded}, ${frame - this.framesAnswered} ` +
            `frames sent before it since the last answered request, ${this.received - received} ` +
            `messages received since${closed})`,
        );
        this.outstanding.delete(id);
      }
    }
  }

  /** Wait while MAX_OUTSTANDING requests are unanswered (giving up on any after 2 x ANSWER_MS). */
  async room() {
    while (!this.closed && this.outstanding.size >= MAX_OUTSTANDING) {
      await sleep(1);
      this.#giveUp(ANSWER_MS * 2);
    }
  }

  async leave(how) {
    if (this.closed) return;
    if (how === 'disconnect-bot') this.send(disconnectBot);
    if (how === 'terminate') this.ws.terminate();
    else this.ws.close();
    while (!this.closed) await sleep(5);
  }
}

/**
 * Send `seconds` of audio at once (512-byte frames), as fast as the socket takes it; this
 * process's other connections are read every 32 frames (their latencies are not this loop's).
 */
async function flood(conn, seconds, count) {
  conn.floodedAt = performance.now();
  const frames = Math.round((seconds * BYTES_PER_SECOND) / 512);
  for (let i = 0; i < frames && !conn.closed; i++) {
    conn.send(validFrame());
    count();
    if (i % 32 === 31) {
      await conn.drain(4 * 1024 * 1024);
      await new Promise((r) => setImmediate(r));
    }
  }
}

let sent = 0;
let floods = 0;
let reconnects = 0;
let neverReady = 0;
const fuzzStop = { at: Number.POSITIVE_INFINITY };

/** One connection's life: maybe early audio, maybe the handshake, the mix, maybe a flood. */
async function lifetime(limit, leaveAs) {
  const conn = new Connection();
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
      const id = `c${++requestId}`;
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

// --- phase 3: a bystander's control requests while two sessions flood --------------------------
/** Audio bytes of the largest audio frame the server takes (the frame within the message limit). */
function largestAudioBytes() {
  let bytes = DEFAULT_MAX_MESSAGE_BYTES & ~1;
  while (audioFrame(new Uint8Array(bytes)).length > DEFAULT_MAX_MESSAGE_BYTES) bytes -= 2;
  return bytes;
}

/** Machine-wide CPU jiffies (busy, total) from /proc/stat. */
function machineJiffies() {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1);
  const values = fields.map(Number);
  const idle = values[3] + (values[4] ?? 0);
  const total = values.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
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

const STAGE_NAMES = {
  before: 'the 3 s before the floods',
  small: 'the 512-byte-frame flood',
  large: 'the largest-frame flood',
  after: 'the 5 s after the floods',
};

async function floodPhase() {
  const bystanderLatencies = [];
  const bystander = new Connection(bystanderLatencies);
  await bystander.open();
  bystander.handshake();
  await bystander.settle();
  const small = new Connection();
  const large = new Connection();
  for (const conn of [small, large]) {
    await conn.open();
    conn.handshake();
    await conn.settle();
  }
  let running = true;
  /** The bystander's latencies by what the floods were doing. */
  const stages = { before: [], small: [], large: [], after: [] };
  const load = {};
  let stage = 'before';
  const asking = (async () => {
    while (running && !bystander.closed) {
      const id = `b${++requestId}`;
      const answers = bystanderLatencies.length;
      bystander.request(controlRequest(id), id);
      await bystander.settle();
      if (bystanderLatencies.length > answers) stages[stage].push(bystanderLatencies.at(-1));
      await sleep(20);
    }
  })();
  // A baseline: the same requests for 3 s before any flood.
  let mark = await stageMark();
  await sleep(3000);
  load.before = await mark.end();
  const result = { small_frames: 0, large_frames: 0, large_frame_bytes: largestAudioBytes() };
  // 10 minutes of audio at once in 16 ms frames.
  stage = 'small';
  mark = await stageMark();
  const t0 = performance.now();
  await flood(small, 600, () => result.small_frames++);
  await small.drain(0);
  result.small_flood_s = (performance.now() - t0) / 1000;
  load.small = await mark.end();
  // 10 minutes of audio in frames of the largest message.
  const big = audioFrame(pcm(result.large_frame_bytes));
  stage = 'large';
  mark = await stageMark();
  const t1 = performance.now();
  for (let sentBytes = 0; sentBytes < 600 * BYTES_PER_SECOND && !large.closed;) {
    large.send(big);
    result.large_frames++;
    sentBytes += result.large_frame_bytes;
    await large.drain(2 * 1024 * 1024);
    await new Promise((r) => setImmediate(r));
  }
  await large.drain(0);
  result.large_flood_s = (performance.now() - t1) / 1000;
  result.large_closed = large.closed;
  load.large = await mark.end();
  // The server works off the queues (10 s each at most) while the bystander goes on.
  stage = 'after';
  mark = await stageMark();
  await sleep(5000);
  load.after = await mark.end();
  running = false;
  await asking;
  await bystander.leave('disconnect-bot');
  await small.leave('disconnect-bot');
  await large.leave('disconnect-bot');
  for (const list of Object.values(stages)) list.sort((a, b) => a - b);
  // What the check is on: from the first flood's start to 5 s after the last.
  const flooded = [...stages.small, ...stages.large, ...stages.after].sort((a, b) => a - b);
  return { ...result, bystander: flooded, stages, load };
}

// --- run ---------------------------------------------------------------------------------------
console.log(machineLine());
const round = (x) => Math.round(x * 10) / 10;
const mb = (bytes) => round(bytes / 2 ** 20);
killer = setTimeout(killOneRecognizer, 2000);

// 1. Warm-up: JIT, buffer pools, the first recognizers and the pool; every session ends.
await Promise.all(
  Array.from({ length: WARMUP_CONNECTIONS }, () =>
    lifetime(WARMUP_CONNECTIONS * WARMUP_FRAMES, 'disconnect-bot'),
  ),
);
await sessionsGone(40_000);
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
const floodResult = await floodPhase();
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
const finalProcesses = serverProcesses();
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
  sessions_after: after0.sessions + after0.detached,
  crashed: crashed ?? false,
  machine: machineInfo(),
};
printTable(
  `voice-fuzz: ${fuzzFrames} hostile frames over ${CONNECTIONS} connections (${MAX} may listen), then a 2 x 10 min flood beside a bystander`,
  ['measure', 'value'],
  [
    ['frames (fuzz phase)', `${fuzzFrames} in ${result.fuzz_seconds} s (${result.frames_per_s}/s)`],
    ['frames (warm-up / flood phase)', `${warmupFrames} / ${result.flood_phase_frames}`],
    ['connections opened (never ready)', `${stats.connections} (${neverReady})`],
    ['30 s floods in the fuzz phase', floods],
    [
      'fuzz phase: server loop p99 / max, CPU',
      `${round(fuzzLoad.server_loop_p99_ms)} / ${round(fuzzLoad.server_loop_max_ms)} ms; server ${fuzzLoad.server_cpu_pct} %, ` +
        `recognizers ${fuzzLoad.recognizers_cpu_pct} %, machine ${fuzzLoad.machine_busy_pct} %`,
    ],
    ['requests answered (late or unanswered)', `${stats.answered} (${stats.late.length})`],
    [
      'late: requests sent <= 15 s after a flood on their connection / others',
      `${stats.byFlood.after.late} of ${stats.byFlood.after.requests} / ${stats.byFlood.other.late} of ${stats.byFlood.other.requests}`,
    ],
    [
      'request latency p50 / p99 / max',
      `${result.p50_ms} / ${result.p99_ms} / ${result.max_ms} ms`,
    ],
    [
      'bystander requests during the floods, p50 / p99 / max',
      `${bystander.length}, ${result.bystander_p50_ms} / ${result.bystander_p99_ms} / ${result.bystander_max_ms} ms`,
    ],
    ...Object.entries(result.bystander_by_stage).map(([name, s]) => [
      `  ${STAGE_NAMES[name]}`,
      `${s.requests}, ${s.p50_ms} / ${s.p99_ms} / ${s.max_ms} ms; server loop p99 ${round(s.server_loop_p99_ms)} ms, ` +
        `CPU: server ${s.server_cpu_pct} %, recognizers ${s.recognizers_cpu_pct} %, machine ${s.machine_busy_pct} %`,
    ]),
    [
      'flood: 512-byte frames (time to send)',
      `${floodResult.small_frames} (${result.small_flood_s} s)`,
    ],
    [
      'flood: largest frames (audio bytes, time to send)',
      `${floodResult.large_frames} x ${floodResult.large_frame_bytes} B (${result.large_flood_s} s)` +
        (floodResult.large_closed ? ', connection closed' : ''),
    ],
    ['final transcripts / bot audio frames received', `${stats.finals} / ${stats.botAudio}`],
    ['recognizers killed', kills],
    [
      'live recognizers max / mean (limit)',
      `${recognizerCounts.max} / ${result.recognizers_mean} (${MAX + POOL_SPARES})`,
    ],
    ['server descendants max', recognizerCounts.maxDescendants],
    ['audio dropped by the server (shed)', `${result.server_metrics.audio_dropped_s} s`],
    [
      'errors: voice limit / bad audio / shed',
      `${stats.errors.voice_limit} / ${stats.errors.bad_audio} / ${stats.errors.shed}`,
    ],
    [
      'errors: recognizer / bad frame / other',
      `${stats.errors.recognizer} / ${stats.errors.bad_frame} / ${stats.errors.other}`,
    ],
    [
      'most errors on one connection: bad audio / shed / recognizer',
      ['bad_audio', 'shed', 'recognizer'].map((k) => stats.maxPerConnection[k] ?? 0).join(' / '),
    ],
    [
      'server RSS idle / start / peak',
      `${result.rss_idle_mb} / ${result.rss_start_mb} / ${result.rss_peak_mb} MB`,
    ],
    [
      'server RSS after fuzz / after all left',
      `${result.rss_after_fuzz_mb} / ${result.rss_after_mb} MB (${result.rss_growth_pct} %)`,
    ],
    [
      'server JS heap / external: start, after all left',
      `${result.heap_start_mb} / ${result.external_start_mb} MB, ${result.heap_after_mb} / ${result.external_after_mb} MB`,
    ],
  ],
);
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
