// Summary of `scenaro eval --mode audio` run folders with realistic callers (BENCHMARKS.md,
// "Audio mode with realistic callers"): per run folder, success, stop reasons, the agent's ear's
// normalized word error rate pooled over the scenarios (errors / reference words), the
// conversation audio and the interaction panel's pooled figures side by side. A folder of
// several presets (with `comparison.json`) stands for its presets' folders. `--scenarios a,b,...`
// keeps those scenarios only (to compare runs on the scenarios they share).
//
//   node bench/eval-callers-summary.mjs [--scenarios LIST] RUN_DIR [RUN_DIR...]
//
// It reads result files only: run the evaluations first (the commands are in BENCHMARKS.md).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { printTable } from './lib/common.mjs';

const { audioAggregate } = await import('@scenaro/eval');

const read = (file) => JSON.parse(readFileSync(file, 'utf8'));
const args = process.argv.slice(2);
const at = args.indexOf('--scenarios');
const only = at >= 0 ? new Set(args[at + 1].split(',')) : undefined;
const given = args.filter((_, i) => at < 0 || (i !== at && i !== at + 1));

/** Run folders: a folder of several presets stands for its presets' folders. */
const dirs = given.flatMap((dir) => {
  const comparison = path.join(dir, 'comparison.json');
  if (existsSync(comparison)) return read(comparison).presets.map((p) => path.join(dir, p.dir));
  const presets = ['control', 'regular'].map((p) => path.join(dir, p)).filter(existsSync);
  return presets.length > 0 ? presets : [dir];
});
if (dirs.length === 0) {
  console.error(
    'usage: node bench/eval-callers-summary.mjs [--scenarios LIST] RUN_DIR [RUN_DIR...]',
  );
  process.exit(2);
}

/** Each finished scenario of `dir`: its metrics and its interaction panel. */
function scenarios(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.includes('.killed.'))
    .filter((e) => existsSync(path.join(dir, e.name, 'metrics.json')))
    .filter((e) => !only || only.has(e.name))
    .map((e) => ({
      metrics: read(path.join(dir, e.name, 'metrics.json')),
      panel: existsSync(path.join(dir, e.name, 'interaction_metrics.json'))
        ? read(path.join(dir, e.name, 'interaction_metrics.json'))
        : undefined,
    }));
}

/** The sums of the fields `a` and `b` of the figure `key` over the panels (0 where it is absent). */
function pooled(panels, key, a, b) {
  let sumA = 0;
  let sumB = 0;
  for (const p of panels) {
    sumA += p[key]?.[a] ?? 0;
    sumB += p[key]?.[b] ?? 0;
  }
  return [sumA, sumB];
}

/** A ratio figure pooled over the panels (numerator / denominator). */
function pooledRatio(panels, key) {
  const [num, den] = pooled(panels, key, 'numerator', 'denominator');
  return den > 0 ? `${(num / den).toFixed(3)} (${num}/${den})` : `n/a (0 events)`;
}

/**
 * A selectivity figure pooled over the panels, with how many of its errors while the agent spoke
 * cut the agent short (it yielded) rather than ending on their own (`?` for runs that predate
 * the mark).
 */
function pooledSelectivity(panels, key, category) {
  const errors = panels.flatMap((p) =>
    (p.events ?? []).filter(
      (e) => e.category === category && e.outcome === 'error' && e.agent === 'speaking',
    ),
  );
  const marked = errors.every((e) => 'cut_short' in e);
  const cut = errors.filter((e) => e.cut_short === true).length;
  const note = errors.length > 0 ? `; ${marked ? cut : '?'} cut short` : '';
  return pooledRatio(panels, key).replace(/\)$/, `${note})`);
}

/** A mean figure pooled over the panels (total / count). */
function pooledMean(panels, key) {
  const [total, count] = pooled(panels, key, 'total', 'count');
  return count > 0 ? `${(total / count).toFixed(2)} s (n=${count})` : 'n/a';
}

/** The agent ear's normalized word error rate over `list`, from the run's audio aggregate. */
function wer(list) {
  const w = audioAggregate(list.map((s) => s.metrics))?.normalized_wer.agent_stt;
  return w?.wer == null ? 'n/a' : `${(w.wer * 100).toFixed(1)} %`;
}

const rows = dirs.map((dir) => {
  const list = scenarios(dir);
  const panels = list.map((s) => s.panel).filter(Boolean);
  const stops = {};
  for (const { metrics } of list)
    stops[metrics.stop_reason] = (stops[metrics.stop_reason] ?? 0) + 1;
  const deadAir = panels.reduce(
    (acc, p) => {
      acc.total += p.dead_air?.all?.total_seconds?.value ?? 0;
      acc.conversation += p.dead_air?.conversation_seconds ?? 0;
      return acc;
    },
    { total: 0, conversation: 0 },
  );
  return [
    path.relative(process.cwd(), dir) || dir,
    `${list.filter((s) => s.metrics.is_successful === true).length}/${list.length}`,
    Object.entries(stops)
      .map(([k, v]) => `${k} ${v}`)
      .join(', '),
    list.reduce((sum, s) => sum + (s.metrics.audio?.audio_seconds ?? 0), 0).toFixed(0),
    wer(list),
    pooledRatio(panels, 'response_rate'),
    pooledMean(panels, 'response_latency_mean'),
    pooledRatio(panels, 'yield_rate'),
    pooledRatio(panels, 'agent_interruption_rate'),
    pooledSelectivity(panels, 'selectivity_backchannel', 'backchannel'),
    pooledSelectivity(panels, 'selectivity_vocal_tic', 'vocal_tic'),
    pooledSelectivity(panels, 'selectivity_non_directed', 'non_directed'),
    deadAir.conversation > 0
      ? `${((deadAir.total / deadAir.conversation) * 100).toFixed(1)} %`
      : 'n/a',
  ];
});
printTable(
  `realistic callers: success, the agent's ear and the interaction panel pooled per run` +
    (only ? ` (scenarios: ${[...only].join(', ')})` : ''),
  [
    'run',
    'passed',
    'stop reasons',
    'audio s',
    'agent ear normalized WER',
    'response rate R_R',
    'response latency L_R',
    'yield rate R_Y',
    'agent interrupts I_A',
    'backchannel selectivity',
    'vocal tic selectivity',
    'non-directed selectivity',
    'dead air',
  ],
  rows,
);
