// Benchmark: the bot server as a real-time voice bot with the offline engines (WebRTC VAD,
// PocketSphinx, Flite) and a scripted policy (the echo policy of @scenaro/agent/testing: "You
// said <what it heard>. What else can I do for you?", streamed two words per delta).
//
//   npm run build && node bench/voice.bench.mjs [--part all|latency|concurrency|capacity|wer]
//       [--step-s 18] [--sessions 1,2,4] [--stt-args="-vad_threshold 3.0"] [--stt-pool 2]
//       [--tts-workers 2] [--stt-sets="-maxwpf 10;-ds 2"] [--voices slt,kal16] [--peaks as-spoken,0.1]
//
// `all` runs parts 1-4 (latency and concurrency); `capacity` and `wer` run on their own.
// --stt-args are added to the recognizer's options (PocketsphinxOptions.extraArgs: an option
// named there replaces the adapter's default), --stt-pool and --tts-workers set the recognizers
// kept waiting and Flite's workers (default: the engines' defaults).
//
// Every server runs in a child process (bench/lib/voice-server-child.mjs: startBotServer with
// voice, real-time output pacing, 40 ms frames sent up to 80 ms ahead); the callers run here
// (bench/lib/voice-caller.mjs). A caller is a browser microphone and speaker: it sends 16 kHz
// mono PCM in 16 ms AudioRawFrames paced in real time (chunk k leaves at t0 + (k+1) x 16 ms),
// silence included: a silent lead, then the 20 tau2-style user turns of SPOKEN_USER_TURNS
// (spoken by Flite `slt`), each followed by silence until the reply has played out
// (bot-stopped-speaking) plus 300 ms. Times are arrival times in this process.
//
// 1. Latency, end of user speech -> first bot audio frame, per answered turn, in stages:
//      VAD end of utterance  speech end -> user-stopped-speaking arrives
//      STT final             user-stopped-speaking -> final user-transcription arrives
//      policy first token    final transcript -> first bot-llm-text arrives
//      TTS first audio       first bot-llm-text -> first bot audio frame arrives
//    Speech end = when the mic captured the turn's last sample louder than -40 dBFS (t0 + that
//    sample's time); the stages add up to the total for each turn (their percentiles need not).
//    The server's own marks (onTurnTiming, its clock) split the server side further: how far
//    past the speech end the VAD heard speech, VAD stop -> final, final -> first sentence to
//    the TTS, Flite's synthesis of the first sentence, first audio -> first frame sent. One
//    session with the VAD stop window at 800 ms (the default; target: p50 total <= stop window
//    + 400 ms) and one at 500 ms, each on its own server process, side by side (so the bench
//    stays within ~6 minutes; 2 sessions are far below the concurrency limit of part 4).
// 2. Word error rate of the final transcripts of those turns (corpusWordErrors), per session.
// 3. CPU per voice session: CPU time of each session's server process (all its threads: the
//    event loop and Flite's worker) plus the processes it started (pocketsphinx_continuous and
//    the cat feeding it), from /proc, over the session, per second of the session's audio:
//    the % of one core a session keeps busy.
// 4. Concurrency: N = 1, 2, 4, 6, 8, 10, 12 callers at once on one server process (fresh
//    sessions per step, leads of 2-3.5 s, each caller starting at a different turn) for
//    `--step-s` seconds (default 18) per step, stopping at the first N that fails (with
//    --sessions, every N listed runs). A caller plays each reply into a playout buffer: a frame
//    plays at max(arrival, end of the previous frame); a frame of a reply but its first
//    arriving more than 20 ms after the buffer ran dry is an underrun (late audio). A final
//    transcript more than 1 s after user-stopped-speaking (or none by then) is late. N holds
//    with no underrun, no late transcript and no crash. Target: >= 8 sessions on this 2-core
//    machine. Per N: underruns (those at the start of a reply's second or later sentence
//    apart), p95 and max frame lateness, late transcripts (sessions' first turns apart),
//    server CPU over the step after its first 2 s (% of one core, recognizers included), the
//    server's event-loop delay p99, the callers' send lag p99 (this process), the load average.
// capacity. Voice sessions per core (bench/lib/voice-capacity.mjs): N = 2, 4, 8 callers (or
//    --sessions) of 3 turns each on a fresh server per N; cores per talking session, server
//    memory per session, reply latency (user-stopped-speaking -> first bot audio), unheard turns.
// wer. The recognizer alone, as the evaluation's fast-clock audio mode runs it
//    (bench/lib/voice-recognition.mjs): the user turns spoken by each of --voices, one stream
//    per voice through the VAD into a PocketSphinx session as fast as it takes it, for each
//    option set of --stt-sets (`;`-separated; default: --stt-args) at each level of --peaks
//    (as spoken, or scaled to a peak amplitude, 0.1 = -20 dBFS): WER, recognizer CPU per second
//    of audio, the CPU it had used at the first final.
// Loopback only, bounded (watchdog 480 s, 3600 s for wer), exits by itself.
import * as os from 'node:os';
import { parseArgs } from 'node:util';
import {
  corpusWordErrors,
  createFliteTextToSpeech,
  createPocketsphinxSpeechToText,
  INPUT_SAMPLE_RATE,
  synthesizeAll,
} from '@scenaro/agent/voice';
import { SPOKEN_USER_TURNS } from '@scenaro/agent/testing';
import { emitMeasured, emitResult, percentile, printTable, watchdog } from './lib/common.mjs';
import { cpuBetween, treeCpu } from './lib/proc-cpu.mjs';
import { capacityTable } from './lib/voice-capacity.mjs';
import { recognitionTable } from './lib/voice-recognition.mjs';
import { spokenTurn, VoiceCaller } from './lib/voice-caller.mjs';
import { startVoiceServer } from './lib/voice-server.mjs';

const { values: args } = parseArgs({
  options: {
    part: { type: 'string', default: 'all' },
    'step-s': { type: 'string', default: '18' },
    sessions: { type: 'string' },
    'stt-args': { type: 'string', default: '' },
    'stt-sets': { type: 'string' },
    'stt-pool': { type: 'string' },
    'tts-workers': { type: 'string' },
    voices: { type: 'string', default: 'slt,kal16,rms,awb' },
    peaks: { type: 'string', default: 'as-spoken,0.1' },
  },
});
watchdog('voice bench', args.part === 'wer' ? 3600 : 480);
const STEP_S = Number(args['step-s']);
const DEFAULT_RAMP = [1, 2, 4, 6, 8, 10, 12];
const RAMP = args.sessions ? args.sessions.split(',').map(Number) : DEFAULT_RAMP;
const STT_ARGS = args['stt-args'].split(' ').filter(Boolean);
/** What every voice server child of this run is started with. */
const ENGINES = {
  sttArgs: STT_ARGS,
  ...(args['stt-pool'] === undefined ? {} : { sttPool: Number(args['stt-pool']) }),
  ...(args['tts-workers'] === undefined ? {} : { ttsWorkers: Number(args['tts-workers']) }),
};
const TARGET_SESSIONS = 8;
const DEFAULT_STOP_MS = 800;
const LATENCY_MARGIN_MS = 400;
/** Silence every caller of a ramp step sends first (plus a stagger of up to 1.5 s). */
const WARMUP_MS = 2000;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const load1 = () => Math.round(os.loadavg()[0] * 100) / 100;
const q = (values, p) => {
  const s = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  return s.length === 0 ? undefined : percentile(s, p);
};
const fmt = (v, digits = 0) => (v === undefined || Number.isNaN(v) ? '-' : v.toFixed(digits));
const sum = (list, f) => list.reduce((a, x) => a + f(x), 0);
const engines = [
  STT_ARGS.length ? `pocketsphinx ${STT_ARGS.join(' ')}` : '',
  ENGINES.sttPool === undefined ? '' : `recognizer pool ${ENGINES.sttPool}`,
  ENGINES.ttsWorkers === undefined ? '' : `${ENGINES.ttsWorkers} Flite workers`,
]
  .filter(Boolean)
  .join(', ')
  .replace(/^(.+)$/, ' ($1)');

const missing = await createPocketsphinxSpeechToText()
  .check()
  .then(
    () => undefined,
    (err) => err,
  );
if (missing) {
  console.log(`voice bench skipped: ${missing.message}`);
  emitResult({ skipped: missing.message });
  process.exit(0);
}

async function spokenTurns(voice = 'slt') {
  const tts = createFliteTextToSpeech({ voice, sampleRate: INPUT_SAMPLE_RATE });
  const turns = [];
  for (const text of SPOKEN_USER_TURNS)
    turns.push(spokenTurn(text, await synthesizeAll(tts, text)));
  await tts.close();
  return turns;
}

// --- 1-3: latency, WER and CPU of one real-time session -----------------------------------

const TOTAL = 'total: speech end -> first audio';
const STAGES = [
  ['VAD end of utterance', (u) => u.vadStopT - u.speechEndT],
  ['STT final', (u) => u.finalT - u.vadStopT],
  ['policy first token', (u) => u.firstLlmT - u.finalT],
  ['TTS first audio', (u) => u.firstAudioT - u.firstLlmT],
  [TOTAL, (u) => u.firstAudioT - u.speechEndT],
];
const SERVER_STAGES = [
  [
    'server: VAD heard speech past its end',
    (s, u) => ((s.endSample - u.speechEndSample) * 1000) / INPUT_SAMPLE_RATE,
  ],
  ['server: VAD stop -> final', (s) => s.sttFinal - s.vadStop],
  ['server: final -> first sentence to TTS', (s) => s.ttsStart - s.sttFinal],
  ['server: Flite, first sentence', (s) => s.ttsFirstAudio - s.ttsStart],
  ['server: first audio -> first frame sent', (s) => s.firstFrame - s.ttsFirstAudio],
];
const spread = (values) => ({ p50: q(values, 0.5), p95: q(values, 0.95), max: q(values, 1) });

async function oneSession(turns, stopMs) {
  const server = await startVoiceServer({ stopMs, ...ENGINES });
  const caller = new VoiceCaller(server.url, turns, { maxTurns: turns.length });
  server.onTiming = (t) => caller.serverTiming(t);
  await caller.open();
  const before = treeCpu(server.pid);
  await caller.run();
  const cpu = cpuBetween(before, treeCpu(server.pid));
  await caller.close();
  await server.stop();
  const answered = caller.utterances.filter((u) => u.firstAudioT !== undefined);
  const withServer = answered.filter((u) => u.server);
  return {
    stopMs,
    crashed: server.crashed,
    caller,
    answered,
    audioS: caller.audioSeconds,
    cpu,
    errors: corpusWordErrors(
      caller.utterances.map((u) => ({ reference: u.text, hypothesis: u.finals.join(' ') })),
    ),
    stages: Object.fromEntries(STAGES.map(([name, f]) => [name, spread(answered.map(f))])),
    server: Object.fromEntries(
      SERVER_STAGES.map(([name, f]) => [name, spread(withServer.map((u) => f(u.server, u)))]),
    ),
  };
}

function reportSessions(runs) {
  const [a, b] = runs;
  printTable(
    `voice turn latency, end of user speech -> first bot audio frame, ms (real time, ` +
      `${a.answered.length} and ${b.answered.length} answered turns of ${a.caller.utterances.length})${engines}`,
    [
      'stage',
      ...runs.flatMap((r) => [
        `p50 stop ${r.stopMs}`,
        `p95 stop ${r.stopMs}`,
        `max stop ${r.stopMs}`,
      ]),
    ],
    [...STAGES, ...SERVER_STAGES].map(([name]) => [
      name,
      ...runs.flatMap((r) => {
        const s = r.stages[name] ?? r.server[name];
        return [fmt(s.p50), fmt(s.p95), fmt(s.max)];
      }),
    ]),
  );
  for (const r of runs) {
    const total = r.stages[TOTAL];
    r.targetMet = total.p50 <= r.stopMs + LATENCY_MARGIN_MS;
    const scope =
      r.stopMs === DEFAULT_STOP_MS ? 'target' : 'same bound (the target is for the default 800 ms)';
    console.log(
      `stop ${r.stopMs} ms: total p50 ${fmt(total.p50)} ms = stop window + ${fmt(total.p50 - r.stopMs)} ms ` +
        `(${(total.p50 / r.stopMs).toFixed(2)}x the stop window), p95 ${fmt(total.p95)} ms; ` +
        `${scope} p50 <= stop + ${LATENCY_MARGIN_MS} ms: ${r.targetMet ? 'MET' : 'NOT MET'}`,
    );
  }
  printTable(
    'word error rate of the final transcripts, streamed through the server (corpusWordErrors)',
    ['stop window', 'turns', 'ref words', 'subst', 'del', 'ins', 'WER', 'turns without a final'],
    runs.map((r) => [
      `${r.stopMs} ms`,
      r.caller.utterances.length,
      r.errors.referenceWords,
      r.errors.substitutions,
      r.errors.deletions,
      r.errors.insertions,
      `${(r.errors.wer * 100).toFixed(1)} %`,
      r.caller.utterances.filter((u) => u.finals.length === 0).length,
    ]),
  );
  printTable(
    'CPU per real-time voice session vs one core: server process + its recognizer processes, ' +
      'per second of session audio',
    [
      'stop window',
      'audio s',
      'server ms',
      'recognizer ms',
      'server %',
      'recognizer %',
      'total % of one core',
    ],
    runs.map((r) => [
      `${r.stopMs} ms`,
      r.audioS.toFixed(1),
      fmt(r.cpu.root_ms),
      fmt(r.cpu.children_ms),
      fmt(r.cpu.root_ms / r.audioS / 10, 1),
      fmt(r.cpu.children_ms / r.audioS / 10, 1),
      fmt(r.cpu.total_ms / r.audioS / 10, 1),
    ]),
  );
  const notes = runs.flatMap((r) => [
    ...(r.crashed ? [`stop ${r.stopMs}: the server process died (${r.crashed})`] : []),
    ...[...new Set(r.caller.errors)].map((e) => `stop ${r.stopMs}: error "${e}"`),
    ...r.caller.utterances
      .filter((u) => u.earlyStops > 0 || u.timedOut)
      .map(
        (u) =>
          `stop ${r.stopMs}: "${u.text}" ${u.timedOut ? 'got no reply' : 'was split by the VAD'}`,
      ),
  ]);
  if (notes.length > 0) console.log(notes.join('\n'));
}

// --- 4: concurrency ramp -------------------------------------------------------------------

async function rampStep(server, turns, n) {
  const callers = Array.from(
    { length: n },
    (_, i) =>
      new VoiceCaller(server.url, turns, {
        firstTurn: (i * 7) % turns.length,
        leadMs: WARMUP_MS + Math.round((i * 1500) / n),
      }),
  );
  await Promise.all(callers.map((c) => c.open()));
  const timings = [];
  server.onTiming = (t) => timings.push(t);
  const loadBefore = load1();
  const runs = callers.map((c) => c.run());
  // The recognizers start with the first audio frame: CPU is measured once they are loaded.
  await sleep(WARMUP_MS);
  await server.ask('reset');
  const before = treeCpu(server.pid);
  const t0 = performance.now();
  await sleep(STEP_S * 1000 - WARMUP_MS);
  const cpu = cpuBetween(before, treeCpu(server.pid));
  const wallS = (performance.now() - t0) / 1000;
  for (const c of callers) c.stop();
  await Promise.all(runs);
  const report = await server.ask('report');
  const end = performance.now();
  const transcripts = callers.map((c) => c.transcripts(end, server.stopMs));
  await Promise.all(callers.map((c) => c.close()));
  const utterances = callers.flatMap((c) => c.utterances);
  const lateness = callers.flatMap((c) => c.lateness);
  const late = transcripts.flatMap((t, session) => t.details.map((d) => ({ session, ...d })));
  const step = {
    sessions: n,
    turns: utterances.length,
    answered: utterances.filter((u) => u.firstAudioT !== undefined).length,
    frames: sum(callers, (c) => c.frames),
    underruns: sum(callers, (c) => c.underruns),
    sentence_underruns: sum(callers, (c) => c.sentenceUnderruns),
    late_p95_ms: q(lateness, 0.95) ?? 0,
    late_max_ms: q(lateness, 1) ?? 0,
    flite_first_sentence_ms: spread(timings.map((t) => t.ttsFirstAudio - t.ttsStart)),
    late_transcripts: sum(transcripts, (t) => t.late + t.unheard),
    late_first_turns: late.filter((d) => d.turn === 0).length,
    late,
    latency_p50_ms: q(
      utterances.map((u) => u.firstAudioT - u.speechEndT),
      0.5,
    ),
    cpu_pct: cpu.total_ms / wallS / 10,
    recognizer_pct: cpu.children_ms / wallS / 10,
    loop_p99_ms: report?.loop.p99_ms,
    loop_max_ms: report?.loop.max_ms,
    send_lag_p99_ms: q(
      callers.flatMap((c) => c.sendLag),
      0.99,
    ),
    errors: [...new Set(callers.flatMap((c) => c.errors))],
    disconnected: callers.filter((c) => c.disconnected).length,
    crashed: server.crashed,
    load_before: loadBefore,
    load_after: load1(),
  };
  step.ok =
    step.underruns === 0 && step.late_transcripts === 0 && !step.disconnected && !step.crashed;
  await sleep(1500); // let the sessions' recognizers exit before the next step
  return step;
}

async function ramp(turns) {
  const server = await startVoiceServer({ stopMs: DEFAULT_STOP_MS, ...ENGINES });
  const steps = [];
  try {
    for (const n of RAMP) {
      const step = await rampStep(server, turns, n);
      steps.push(step);
      console.log(
        `N=${n}: ${step.underruns} underruns, ${step.late_transcripts} late transcripts` +
          `${step.crashed ? `, server died (${step.crashed})` : ''}, cpu ${fmt(step.cpu_pct)} %, ` +
          `load ${step.load_after}${step.ok ? '' : ' -> fails'}`,
      );
      for (const d of step.late) console.log(`  late transcript: ${JSON.stringify(d)}`);
      if (step.crashed || (!step.ok && !args.sessions)) break;
    }
  } finally {
    await server.stop();
  }
  const firstFailure = steps.find((s) => !s.ok)?.sessions ?? Infinity;
  const held = Math.max(
    0,
    ...steps.filter((s) => s.ok && s.sessions < firstFailure).map((s) => s.sessions),
  );
  printTable(
    `concurrent real-time voice sessions on one server process${engines} (${STEP_S} s per step, ` +
      `stop window ${DEFAULT_STOP_MS} ms; underrun = a frame > 20 ms after the playout buffer ran dry)`,
    [
      'sessions',
      'turns',
      'answered',
      'underruns (at a sentence start)',
      'lateness p95 / max ms',
      'late transcripts (first turns)',
      'turn latency p50 ms',
      'Flite 1st sentence p50 / p95 ms',
      'server CPU % (recognizers)',
      'loop delay p99 ms',
      'client send lag p99 ms',
      'load 1m',
      'holds',
    ],
    steps.map((s) => [
      s.sessions,
      s.turns,
      s.answered,
      `${s.underruns} (${s.sentence_underruns})`,
      `${fmt(s.late_p95_ms, 1)} / ${fmt(s.late_max_ms)}`,
      `${s.late_transcripts} (${s.late_first_turns})`,
      fmt(s.latency_p50_ms),
      `${fmt(s.flite_first_sentence_ms.p50)} / ${fmt(s.flite_first_sentence_ms.p95)}`,
      `${fmt(s.cpu_pct)} (${fmt(s.recognizer_pct)})`,
      fmt(s.loop_p99_ms, 1),
      fmt(s.send_lag_p99_ms, 1),
      `${s.load_before} -> ${s.load_after}`,
      s.ok ? 'yes' : s.crashed ? `no: crashed (${s.crashed})` : 'no',
    ]),
  );
  const errors = [...new Set(steps.flatMap((s) => s.errors))];
  if (errors.length > 0) console.log(`errors sent by the server: ${errors.join(' | ')}`);
  const met = held >= TARGET_SESSIONS;
  console.log(
    `target: >= ${TARGET_SESSIONS} concurrent sessions with no late audio or transcript: ` +
      `${met ? 'MET' : 'NOT MET'} (held ${held}, ${(held / TARGET_SESSIONS).toFixed(2)}x the target)`,
  );
  return { steps, held, target: TARGET_SESSIONS, met };
}

// --- main ------------------------------------------------------------------------------------

const result = { load_start: load1(), stt_args: STT_ARGS, step_s: STEP_S };
const turns = await spokenTurns();
if (args.part === 'all' || args.part === 'latency') {
  const runs = await Promise.all([oneSession(turns, DEFAULT_STOP_MS), oneSession(turns, 500)]);
  reportSessions(runs);
  result.sessions = runs.map((r) => ({
    stop_ms: r.stopMs,
    crashed: r.crashed,
    turns: r.caller.utterances.length,
    answered: r.answered.length,
    stages_ms: r.stages,
    server_stages_ms: r.server,
    latency_target_met: r.targetMet,
    wer: r.errors,
    audio_s: r.audioS,
    cpu_ms: r.cpu,
    cpu_pct_of_core: r.cpu.total_ms / r.audioS / 10,
    turns_detail: r.caller.utterances.map((u) => ({
      reference: u.text,
      heard: u.finals.join(' '),
      total_ms: u.firstAudioT === undefined ? null : Math.round(u.firstAudioT - u.speechEndT),
      stt_ms: u.finalT === undefined ? null : Math.round(u.finalT - u.vadStopT),
    })),
  }));
}
if (args.part === 'all' || args.part === 'concurrency') result.concurrency = await ramp(turns);
if (args.part === 'capacity') {
  const levels = args.sessions ? RAMP : [2, 4, 8];
  const options = { turnsEach: 3, stopMs: DEFAULT_STOP_MS, ...ENGINES };
  result.capacity = await capacityTable(turns, levels, options, printTable);
}
if (args.part === 'wer') {
  const voiceTurns = [];
  for (const voice of args.voices.split(',')) {
    voiceTurns.push({ voice, turns: voice === 'slt' ? turns : await spokenTurns(voice) });
  }
  const sets = (args['stt-sets'] ?? args['stt-args'])
    .split(';')
    .map((set) => set.split(' ').filter(Boolean));
  const peaks = args.peaks.split(',').map((p) => (p === 'as-spoken' ? undefined : Number(p)));
  result.recognition = await recognitionTable(voiceTurns, sets, peaks, printTable);
}
result.load_end = load1();
console.log(
  `load average (1 min) ${result.load_start} at the start, ${result.load_end} at the end`,
);
emitMeasured(result);
process.exit(0);
