// Voice sessions per core, for the voice benchmark: N callers at once (a fresh server process per
// N) each speak a fixed number of turns in real time and listen to each reply; the server's CPU
// (its process and the recognizers it started, from /proc) over the wall time of the
// conversations gives the cores one talking session keeps busy, its RSS growth the memory per
// session (the server process; each recognizer is a process of ~100 MB, mostly shared model
// pages), and the reply latency (user-stopped-speaking -> first bot audio frame) whether the
// server kept up. An unheard turn is one whose final transcript was empty or that got no reply.
import { percentile } from './common.mjs';
import { cpuBetween, treeCpu } from './proc-cpu.mjs';
import { VoiceCaller } from './voice-caller.mjs';
import { startVoiceServer } from './voice-server.mjs';

const sortedOf = (values) => values.filter(Number.isFinite).sort((a, b) => a - b);

/** One level: `sessions` callers of `turnsEach` turns on a fresh server started with `config`. */
async function capacityLevel(turns, sessions, { turnsEach, ...config }) {
  const server = await startVoiceServer(config);
  const callers = Array.from(
    { length: sessions },
    (_, i) =>
      new VoiceCaller(server.url, turns, {
        firstTurn: (i * 7) % turns.length,
        leadMs: 1000 + Math.round((i * 500) / sessions),
        maxTurns: turnsEach,
      }),
  );
  await Promise.all(callers.map((c) => c.open()));
  const rssBefore = (await server.ask('report'))?.rss;
  const before = treeCpu(server.pid);
  const t0 = performance.now();
  await Promise.all(callers.map((c) => c.run()));
  const wallS = (performance.now() - t0) / 1000;
  const cpu = cpuBetween(before, treeCpu(server.pid));
  const rssAfter = (await server.ask('report'))?.rss;
  await Promise.all(callers.map((c) => c.close()));
  await server.stop();
  const utterances = callers.flatMap((c) => c.utterances);
  const replies = sortedOf(utterances.map((u) => u.firstAudioT - u.vadStopT));
  const coresPerSession = cpu.total_ms / 1000 / wallS / sessions;
  return {
    sessions,
    wall_s: wallS,
    server_cpu_s: cpu.total_ms / 1000,
    recognizer_cpu_s: cpu.children_ms / 1000,
    cores_per_session: coresPerSession,
    sessions_per_core: 1 / coresPerSession,
    rss_growth_mb_per_session: (rssAfter - rssBefore) / 2 ** 20 / sessions,
    reply_latency_p50_ms: percentile(replies, 0.5),
    reply_latency_p95_ms: percentile(replies, 0.95),
    turns: utterances.length,
    turns_unheard: utterances.filter(
      (u) => u.timedOut || !u.finals.some((text) => text.trim() !== ''),
    ).length,
    crashed: server.crashed,
  };
}

/**
 * The capacity part: every level of `levels` in turn; `options` = {turnsEach, ...the server's
 * config (see startVoiceServer)}. Prints one table, returns the rows.
 */
export async function capacityTable(turns, levels, options, print) {
  const results = [];
  for (const sessions of levels) {
    const result = await capacityLevel(turns, sessions, options);
    console.log(JSON.stringify(result));
    results.push(result);
  }
  const fmt = (v, digits = 0) => (v === undefined ? '-' : v.toFixed(digits));
  print(
    `voice sessions per core: ${options.turnsEach} spoken turns per session, real time, ` +
      `stop window ${options.stopMs} ms (server CPU = its process + its recognizers)`,
    [
      'sessions',
      'wall s',
      'server CPU s (recognizers)',
      'cores/session',
      'sessions/core',
      'MB/session',
      'reply p50 ms',
      'reply p95 ms',
      'unheard turns',
    ],
    results.map((r) => [
      r.sessions,
      r.wall_s.toFixed(1),
      `${r.server_cpu_s.toFixed(1)} (${r.recognizer_cpu_s.toFixed(1)})`,
      r.cores_per_session.toFixed(3),
      r.sessions_per_core.toFixed(1),
      r.rss_growth_mb_per_session.toFixed(1),
      fmt(r.reply_latency_p50_ms),
      fmt(r.reply_latency_p95_ms),
      `${r.turns_unheard}/${r.turns}${r.crashed ? ` (server died: ${r.crashed})` : ''}`,
    ]),
  );
  return results;
}
