// The server process of bench/voice-fuzz.bench.mjs: one voice bot server (a tiny test domain,
// the echo policy, PocketSphinx ears, Flite `slt` unless `tts` is false, real-time pacing,
// `maxVoiceSessions` = `max`), run with `--expose-gc`. Logs go to stderr when SCENARO_LOG_LEVEL
// is set (else none).
// Talks over stdin/stdout, one JSON line per reply:
//   ->                      {url, metricsUrl, pid, rss, ...}  once listening (or {skip})
//   <- 'report'  ->         {rss (after a GC), peak, heap, external, sessions, detached}
//   <- 'stage'   ->         {cpu_ms, loop_p99_ms, loop_max_ms} since the last 'stage'
//   <- 'close'              close the server and exit
// Usage: node --expose-gc bench/lib/voice-fuzz-server.mjs '{"max": 4, "tts": true}'
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { BotServer, createLogger, silentLogger } from '@scenaro/agent';
import { DomainRegistry } from '@scenaro/agent/scenario';
import { createFliteTextToSpeech, createPocketsphinxSpeechToText } from '@scenaro/agent/voice';
import { echoConversation } from '@scenaro/agent/testing';

const { max = 4, tts: withTts = true } = JSON.parse(process.argv[2] ?? '{}');
const registry = new DomainRegistry().register({
  name: 'fuzz',
  tools: [
    {
      name: 'get_user',
      description: 'Look up a user.',
      kind: 'read',
      parameters: { type: 'object', properties: { user_id: { type: 'string' } } },
      execute: (args, { state }) =>
        (state.db?.users ?? []).find((u) => u.user_id === args.user_id) ?? null,
    },
  ],
});
const stt = createPocketsphinxSpeechToText();
const tts = withTts ? createFliteTextToSpeech({ voice: 'slt' }) : undefined;
try {
  await stt.check();
} catch (err) {
  console.log(JSON.stringify({ skip: err.message }));
  process.exit(0);
}
const server = await new BotServer({
  port: 0,
  logger: process.env.SCENARO_LOG_LEVEL ? createLogger() : silentLogger,
  registry,
  conversation: echoConversation,
  voice: { stt, ...(tts ? { tts } : {}), pacing: 'realtime' },
  maxVoiceSessions: max,
}).listen();

const rss = () => {
  globalThis.gc?.();
  globalThis.gc?.();
  return process.memoryUsage().rss;
};
let peak = 0;
// `memoryUsage.rss()` only reads the resident size (`memoryUsage()` walks the heap too).
setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 100).unref();
/** Resident bytes by kind of mapping (/proc/self/smaps): the brk heap, anonymous, files. */
function residentByKind() {
  const kinds = { brk: 0, anon: 0, file: 0 };
  let kind = 'anon';
  try {
    for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
      const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
      if (mapping) {
        const name = mapping[1];
        kind = name === '[heap]' ? 'brk' : name === '' || name.startsWith('[') ? 'anon' : 'file';
      } else if (line.startsWith('Rss:')) kinds[kind] += Number(line.split(/\s+/)[1]) * 1024;
    }
  } catch {
    // not Linux: left at zero
  }
  return kinds;
}
const report = () => {
  const after = rss();
  const { heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
  return {
    rss: after,
    peak,
    heap: heapUsed,
    heap_total: heapTotal,
    array_buffers: arrayBuffers,
    resident: residentByKind(),
    external,
    sessions: server.sessionCount,
    detached: server.detachedSessionCount,
  };
};
const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();
let cpu0 = process.cpuUsage();
const reply = (message) => console.log(JSON.stringify(message));

reply({ url: server.url, metricsUrl: server.metricsUrl, pid: process.pid, ...report() });
const lines = createInterface({ input: process.stdin });
lines.on('line', async (line) => {
  if (line === 'stage') {
    const cpu = process.cpuUsage(cpu0);
    reply({
      cpu_ms: (cpu.user + cpu.system) / 1000,
      loop_p99_ms: loop.percentile(99) / 1e6,
      loop_max_ms: loop.max / 1e6,
    });
    cpu0 = process.cpuUsage();
    loop.reset();
  } else if (line === 'report') {
    await new Promise((resolve) => setTimeout(resolve, 200));
    reply(report());
  } else if (line === 'close') {
    await server.close();
    await Promise.all([stt.close?.(), tts?.close?.()]);
    process.exit(0);
  }
});
lines.on('close', () => process.exit(0));
