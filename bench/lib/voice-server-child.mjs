// A child process holding one voice bot server (PocketSphinx ears, Flite voice, the echo
// policy, real-time output pacing), so the voice benchmark can measure its CPU (with the
// recognizer processes it starts) apart from the clients'. Talks over IPC:
//   -> {url, pid}                       once listening (Flite and PocketSphinx checked and warm)
//   -> {timing, session}                each answered utterance's server-side marks (onTurnTiming),
//                                       in ms since the epoch (performance.timeOrigin + now())
//   <- 'reset'   -> {reset: true}       restart the event-loop delay histogram
//   <- 'report'  -> {cpu_ms, rss, loop: {p50_ms, p99_ms, max_ms}, sessions}
//   <- 'stop'                           close the server and exit
// Usage: fork('bench/lib/voice-server-child.mjs', [JSON.stringify({stopMs, sttArgs, sttPool,
// ttsWorkers})]): the VAD stop window, extra pocketsphinx_continuous options
// (PocketsphinxOptions.extraArgs), the recognizers kept waiting (poolSize) and Flite's workers
// (undefined: the engines' defaults).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { silentLogger, startBotServer } from '@scenaro/agent';
import {
  createFliteTextToSpeech,
  createPocketsphinxSpeechToText,
  synthesizeAll,
} from '@scenaro/agent/voice';
import { echoConversation } from '@scenaro/agent/testing';

const { stopMs = 800, sttArgs = [], sttPool, ttsWorkers } = JSON.parse(process.argv[2] ?? '{}');
const dataRoot = mkdtempSync(path.join(tmpdir(), 'scenaro-voice-bench-'));
const stt = createPocketsphinxSpeechToText({
  extraArgs: sttArgs,
  ...(sttPool === undefined ? {} : { poolSize: sttPool }),
});
const tts = createFliteTextToSpeech({
  voice: 'slt',
  ...(ttsWorkers === undefined ? {} : { workers: ttsWorkers }),
});
await stt.check();
await synthesizeAll(tts, 'Ready.'); // compile Flite and start its worker before the clock runs

const epoch = (t) => (t === undefined ? undefined : performance.timeOrigin + t);
const server = await startBotServer({
  host: '127.0.0.1',
  port: 0,
  dataRoot,
  logger: silentLogger,
  conversation: echoConversation,
  voice: { stt, tts, vad: { stopMs }, pacing: 'realtime' },
  // The bench finds the machine's limit itself: no cap on listening sessions.
  maxVoiceSessions: Number.POSITIVE_INFINITY,
  onSession: (session) => {
    session.voice.onTurnTiming = (t) => {
      const timing = Object.fromEntries(
        Object.entries(t).map(([k, v]) => [k, k === 'endSample' ? v : epoch(v)]),
      );
      process.send?.({ timing, session: session.id });
    };
  },
});

let cpu0 = process.cpuUsage();
const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();
const ms = (ns) => Math.round(ns / 1e4) / 100;

process.on('message', async (message) => {
  if (message === 'reset') {
    cpu0 = process.cpuUsage();
    loop.reset();
    process.send({ reset: true });
  } else if (message === 'report') {
    const cpu = process.cpuUsage(cpu0);
    process.send({
      cpu_ms: (cpu.user + cpu.system) / 1000,
      rss: process.memoryUsage().rss,
      loop: {
        p50_ms: ms(loop.percentile(50)),
        p99_ms: ms(loop.percentile(99)),
        max_ms: ms(loop.max),
      },
      sessions: server.sessionCount,
    });
  } else if (message === 'stop') {
    loop.disable();
    await server.close();
    await Promise.all([stt.close(), tts.close()]);
    rmSync(dataRoot, { recursive: true, force: true });
    process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
process.send({ url: server.url, pid: process.pid });
