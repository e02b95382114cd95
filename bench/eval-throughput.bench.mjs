// Benchmark: evaluation throughput with the scripted policies on tau2_airline (50 scenarios)
// at concurrency 1, 4, 8 and 16, with the bots' CPU time and memory per bot session; baselines
// measured in the same run: concurrency 1 (speed-up) and the gold replay of the same scenarios
// (no bots, no sockets: the floor of the work a run must do).
//
//   npm run build && node bench/eval-throughput.bench.mjs [concurrency...]
//
// The agent and user bots run in a child process (bench/lib/bots-child.mjs, the runner's own
// local bots) so their CPU (process.cpuUsage) and memory (rss, heapUsed, sampled every 25 ms)
// are measured apart from the runner's (this process: bridge, expected states, scoring, files).
// Each run is `runEvaluation` from packages/eval/dist with --agent-url/--user-url pointing at
// those bots, into a temporary folder. CPU per bot session = bot-process CPU / (2 x scenarios);
// memory per bot session = (peak rss - rss before the run) / peak concurrent bot sessions.
// Finally the issue-7 target end to end: `scenaro eval --domain tau2_airline --concurrency 8`
// as a child process (its own bots, process start included). Loopback only, bounded.
import { fork, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import {
  emitMeasured,
  evalDataRoot,
  printTable,
  ratio,
  repoRoot,
  skipWithoutEvalData,
  watchdog,
} from './lib/common.mjs';

watchdog('eval-throughput bench', 900);
skipWithoutEvalData('eval-throughput bench');
const DOMAIN = 'tau2_airline';
const LEVELS = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const levels = LEVELS.length > 0 ? LEVELS : [1, 4, 8, 16];
const { runEvaluation, replayDomain } = await import('@scenaro/eval');
const { DbCache, DomainRegistry, registerControlTools } = await import('@scenaro/agent/scenario');
const { builtInDomains, registerEvalDomains } = await import('@scenaro/domains');
const output = mkdtempSync(path.join(tmpdir(), 'scenaro-bench-eval-'));
const MB = 2 ** 20;

// --- baseline: gold replay of the same scenarios ----------------------------------------------
const domain = builtInDomains().get(DOMAIN);
const registry = registerControlTools(registerEvalDomains(new DomainRegistry(), [domain]));
let t0 = performance.now();
const replayed = await replayDomain(domain, {
  registry,
  dataRoot: evalDataRoot,
  cache: new DbCache(),
});
const replaySeconds = (performance.now() - t0) / 1000;

// --- the bots ---------------------------------------------------------------------------------
const child = fork(path.join(repoRoot, 'bench/lib/bots-child.mjs'), [evalDataRoot, DOMAIN], {
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const nextMessage = () => new Promise((resolve) => child.once('message', resolve));
const { urls, token } = await nextMessage();
const ask = async (what) => {
  const reply = nextMessage();
  child.send(what);
  return reply;
};

const silent = { write: () => true };
async function run(concurrency, scenarios) {
  await ask('reset');
  const before = await ask('report');
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  const result = await runEvaluation({
    domains: [DOMAIN],
    ...(scenarios ? { scenarios } : {}),
    dataRoot: evalDataRoot,
    outputDir: output,
    runId: `c${concurrency}${scenarios ? '-warm' : ''}`,
    concurrency,
    agentUrl: urls.agent,
    userUrl: urls.user,
    token,
    progressStream: silent,
  });
  const seconds = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const bots = await ask('report');
  const n = result.metrics.length;
  const passed = result.metrics.filter((m) => m.is_successful === true).length;
  return {
    concurrency,
    scenarios: n,
    passed,
    seconds,
    per_minute: (n * 60) / seconds,
    runner_cpu_ms_per_scenario: (cpu.user + cpu.system) / 1000 / n,
    bot_cpu_ms_per_session: bots.cpu_ms / (2 * n),
    bot_peak_rss_mb: bots.peak_rss / MB,
    bot_rss_before_mb: before.rss / MB,
    bot_peak_sessions: bots.peak_sessions,
    bot_mb_per_session:
      bots.peak_sessions > 0 ? (bots.peak_rss - before.rss) / MB / bots.peak_sessions : 0,
    bot_heap_mb_per_session:
      bots.peak_sessions > 0 ? (bots.peak_heap - before.heap) / MB / bots.peak_sessions : 0,
    cpu_utilization: (bots.cpu_ms + (cpu.user + cpu.system) / 1000) / 1000 / seconds,
  };
}

await run(2, [`${DOMAIN}__0`, `${DOMAIN}__1`]); // warm-up: db caches, JIT
const rows = [];
for (const concurrency of levels) {
  const row = await run(concurrency);
  rows.push(row);
  console.error(
    `  concurrency ${concurrency}: ${row.scenarios} scenarios in ${row.seconds.toFixed(1)} s (${row.passed} passed)`,
  );
}
child.send('stop');
await new Promise((resolve) => child.once('exit', resolve));

// --- issue 7 target: the CLI end to end at --concurrency 8 -------------------------------------
t0 = performance.now();
const cli = spawnSync(
  process.execPath,
  [
    path.join(repoRoot, 'packages/cli/bin/scenaro.js'),
    'eval',
    '--domain',
    DOMAIN,
    '--data-root',
    evalDataRoot,
    '--concurrency',
    '8',
    '--output-dir',
    path.join(output, 'cli'),
  ],
  { encoding: 'utf8', timeout: 300_000 },
);
const cliSeconds = (performance.now() - t0) / 1000;
const cliSummary = (cli.stdout + cli.stderr).match(
  /(\d+) scenarios \((\d+) run.*success rate ([\d.]+)%/,
);
rmSync(output, { recursive: true, force: true });

const base = rows.find((r) => r.concurrency === 1) ?? rows[0];
printTable(
  `evaluation throughput, ${DOMAIN} (${rows[0]?.scenarios} scenarios), scripted policies, bots in a child process`,
  [
    'concurrency',
    'passed',
    'wall s',
    'scenarios/min',
    'vs c=1',
    'vs replay',
    'runner CPU ms/scen.',
    'bot CPU ms/session',
    'bot peak RSS MB',
    'bot MB/session',
    'CPU cores busy',
  ],
  rows.map((r) => [
    r.concurrency,
    `${r.passed}/${r.scenarios}`,
    r.seconds.toFixed(1),
    r.per_minute.toFixed(0),
    ratio(r.per_minute, base.per_minute),
    ratio(r.seconds, replaySeconds),
    r.runner_cpu_ms_per_scenario.toFixed(0),
    r.bot_cpu_ms_per_session.toFixed(0),
    r.bot_peak_rss_mb.toFixed(0),
    r.bot_mb_per_session.toFixed(1),
    r.cpu_utilization.toFixed(2),
  ]),
);
console.log(
  `baseline: gold replay of the same ${replayed.length} scenarios (no bots, no sockets) in ${replaySeconds.toFixed(2)} s ` +
    `(${((replayed.length * 60) / replaySeconds).toFixed(0)} scenarios/min); "vs replay" = wall time over that.`,
);
const met = cli.status === 0 && cliSeconds < 60 && cliSummary?.[3] === '100.0';
console.log(
  `target (issue 7): \`scenaro eval --domain ${DOMAIN} --concurrency 8\` end to end (process start, its own bots): ` +
    `${cliSeconds.toFixed(1)} s, exit ${cli.status}, ${cliSummary ? `${cliSummary[1]} scenarios, ${cliSummary[3]}% success` : 'no summary'} ` +
    `-> under 60 s: ${met ? 'MET' : 'NOT MET'}`,
);
emitMeasured({
  domain: DOMAIN,
  replay_seconds: replaySeconds,
  replay_scenarios: replayed.length,
  rows,
  cli: { seconds: cliSeconds, status: cli.status, summary: cliSummary?.[0] ?? null, met },
});
process.exit(rows.every((r) => r.passed === r.scenarios) ? 0 : 1);
