// Benchmark: audio mode on the fast clock, `scenaro eval --mode audio --audio-clock fast` with the
// scripted policies and the offline engines (PocketSphinx, Flite) on tau2_airline scenarios, at
// several concurrencies: wall time per scenario, the fast clock's speed-up over real time
// (seconds of conversation audio per second of wall time) and CPU per scenario, split into the
// recognizers (pocketsphinx_continuous) and the rest (Node: bots, relay, Flite, scoring).
// Baseline measured in the same run: the first concurrency (1 by default); the other rows give
// their throughput as a ratio of it.
//
//   npm run build && node bench/eval-audio.bench.mjs [--scenarios N] [concurrency...]
//
// (The 50 airline scenarios: `scenaro eval --mode audio --audio-clock fast --domain tau2_airline`
// timed as a whole, see BENCHMARKS.md.)
// Each row is the CLI in a child process (its own local bots, process start included), into a
// temporary folder. CPU: the CLI and every process it started and reaped (this process's
// cutime/cstime), the recognizers' share sampled from /proc every 200 ms. Loopback only.
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runAudioEval, runMetrics, startAudioBench } from './lib/audio-eval.mjs';
import { emitMeasured, positiveInt, printTable, ratio } from './lib/common.mjs';
import { reapedChildrenMs, treeCpu } from './lib/proc-cpu.mjs';

const { count, levels } = startAudioBench('eval-audio bench', process.argv.slice(2), {
  defaultCount: 4,
  seconds: 2400,
});
const concurrencies = levels.length > 0 ? levels.map((a) => positiveInt(a)) : [1, 2, 4];

const DOMAIN = 'tau2_airline';
const scenarios = Array.from({ length: count }, (_, i) => `${DOMAIN}__${i}`);
const output = mkdtempSync(path.join(os.tmpdir(), 'scenaro-bench-eval-audio-'));

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** One `scenaro eval` run at `concurrency`. */
async function run(concurrency) {
  const loadBefore = load();
  const cpu0 = reapedChildrenMs();
  // The recognizers' CPU: the most each one was seen to have used.
  const recognizers = new Map();
  const { wallSeconds: wall, runDir } = await runAudioEval({
    domain: DOMAIN,
    scenarios,
    concurrency,
    output,
    runId: `c${concurrency}`,
    whileRunning: (child) => {
      const sample = setInterval(() => {
        for (const [pid, { comm, ms }] of treeCpu(child.pid))
          if (comm.startsWith('pocketsphinx')) recognizers.set(pid, ms);
      }, 200);
      return () => clearInterval(sample);
    },
  });
  const cpuMs = reapedChildrenMs() - cpu0;
  const recognizerMs = [...recognizers.values()].reduce((a, b) => a + b, 0);
  const metrics = runMetrics(runDir);
  const n = metrics.length;
  const audio = metrics.reduce((sum, m) => sum + (m.audio?.audio_seconds ?? 0), 0);
  const scenarioWall = metrics.map((m) => m.scenario_duration ?? 0);
  return {
    concurrency,
    scenarios: n,
    passed: metrics.filter((m) => m.is_successful === true).length,
    audio_seconds: audio,
    wall_seconds: wall,
    speed_up: audio / wall,
    scenario_wall_mean: scenarioWall.reduce((a, b) => a + b, 0) / n,
    scenario_wall_max: Math.max(...scenarioWall),
    cpu_seconds_per_scenario: cpuMs / 1000 / n,
    recognizer_share: cpuMs > 0 ? recognizerMs / cpuMs : 0,
    cpu_per_audio_second: cpuMs / 1000 / audio,
    load_before: loadBefore,
    load_after: load(),
    failed: metrics.filter((m) => m.is_successful !== true).map((m) => m.scenario_name),
  };
}

const rows = [];
try {
  for (const concurrency of concurrencies) {
    const row = await run(concurrency);
    rows.push(row);
    console.error(
      `  concurrency ${concurrency}: ${row.scenarios} scenarios, ${row.audio_seconds.toFixed(0)} s of ` +
        `audio in ${row.wall_seconds.toFixed(1)} s (${row.passed} passed; load ${row.load_before} -> ${row.load_after})`,
    );
  }
} finally {
  rmSync(output, { recursive: true, force: true });
}

const base = rows[0];
printTable(
  `eval-audio: scenaro eval --mode audio --audio-clock fast, ${DOMAIN} ` +
    `(${count} scenarios), scripted policies, PocketSphinx + Flite; ` +
    `baseline: concurrency ${base.concurrency} in the same run`,
  [
    'concurrency',
    'scenarios',
    'passed',
    'audio s',
    'wall s',
    'audio s / wall s',
    'vs baseline',
    'wall per scenario s (mean, max)',
    'CPU s per scenario',
    'recognizers',
    'CPU s per audio s',
    'load before -> after',
  ],
  rows.map((r) => [
    r.concurrency,
    r.scenarios,
    r.passed,
    r.audio_seconds.toFixed(0),
    r.wall_seconds.toFixed(1),
    `${r.speed_up.toFixed(2)}x`,
    ratio(r.speed_up, base.speed_up),
    `${r.scenario_wall_mean.toFixed(1)}, ${r.scenario_wall_max.toFixed(1)}`,
    r.cpu_seconds_per_scenario.toFixed(1),
    `${(r.recognizer_share * 100).toFixed(0)} %`,
    r.cpu_per_audio_second.toFixed(3),
    `${r.load_before} -> ${r.load_after}`,
  ]),
);
for (const r of rows)
  if (r.failed.length > 0)
    console.log(`concurrency ${r.concurrency}: not passed: ${r.failed.join(', ')}`);
emitMeasured({ domain: DOMAIN, rows });
