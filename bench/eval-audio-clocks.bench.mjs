// Benchmark: audio mode's two clocks on the same tau2_airline scenarios (scripted policies,
// PocketSphinx and Flite): outcome, turns, turn segmentation and heard text on `realtime`
// against `fast`, scenario by scenario, with the wall time of each clock. `--undithered` runs
// PocketSphinx without dither (`-dither no`, as `scenaro eval --pocketsphinx-args "-dither no"`
// does): its words then depend on the utterance alone, not on how much silence (the bots'
// thinking time on the real-time clock) came before it. `--speech-complexity <preset>` runs
// both clocks through the caller's line of that tau2 preset (full duplex) and compares the
// interaction panel's scored events too: the same events in the same order (category, outcome)
// and how far apart their times are.
//
//   npm run build && node bench/eval-audio-clocks.bench.mjs [--undithered] [--speech-complexity P] [--scenarios N] [concurrency]
//
// Runs `runEvaluation` from packages/eval/dist (its own local bots) into a temporary folder; the
// real-time run takes as long as its conversations (about 2.5 min per scenario, run at the given
// concurrency, default 5). Loopback only.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  emitMeasured,
  evalDataRoot,
  positiveInt,
  printTable,
  scenarioArgs,
  skipWithoutEvalData,
  watchdog,
} from './lib/common.mjs';

skipWithoutEvalData('eval-audio-clocks bench');
const args = process.argv.slice(2);
const undithered = args.includes('--undithered');
const presetAt = args.indexOf('--speech-complexity');
const preset = presetAt >= 0 ? args[presetAt + 1] : undefined;
const { count, levels } = scenarioArgs(
  args.filter((_, i) => presetAt < 0 || (i !== presetAt && i !== presetAt + 1)),
  5,
);
const concurrency = positiveInt(levels[0], count);
watchdog('eval-audio-clocks bench', 3000);

const { localSpeechSettings, localVoices, runEvaluation } = await import('@scenaro/eval');

const DOMAIN = 'tau2_airline';
const scenarios = Array.from({ length: count }, (_, i) => `${DOMAIN}__${i}`);
const output = mkdtempSync(path.join(os.tmpdir(), 'scenaro-bench-eval-clocks-'));

/** The runner's local voices on `clock`, with the undithered recognizer when asked. */
function voices(clock) {
  const speech = localSpeechSettings({ pocketsphinxArgs: '-dither no' });
  return undithered ? localVoices(clock, undefined, speech) : undefined;
}

async function run(clock) {
  const given = await voices(clock);
  const start = performance.now();
  const result = await runEvaluation({
    domains: [DOMAIN],
    scenarios,
    dataRoot: evalDataRoot,
    outputDir: output,
    runId: clock,
    concurrency,
    mode: 'audio',
    audioClock: clock,
    ...(given ? { voice: given } : {}),
    ...(preset ? { speechComplexity: [preset] } : {}),
    progressStream: { write: () => true },
  });
  const seconds = (performance.now() - start) / 1000;
  console.error(`  ${clock}: ${result.metrics.length} scenarios in ${seconds.toFixed(0)} s`);
  const panels = new Map();
  for (const m of result.metrics) {
    const file = path.join(output, clock, m.scenario_name, 'interaction_metrics.json');
    if (existsSync(file)) panels.set(m.scenario_name, JSON.parse(readFileSync(file, 'utf8')));
  }
  return { seconds, byName: new Map(result.metrics.map((m) => [m.scenario_name, m])), panels };
}

/** The panel's scored events of both clocks side by side: same kinds, largest time apart. */
function comparePanels(f, r) {
  if (!f || !r) return undefined;
  const kind = (e) => `${e.category}:${e.outcome}`;
  const fe = f.events ?? [];
  const re = r.events ?? [];
  const same = fe.length === re.length && fe.every((e, i) => kind(e) === kind(re[i]));
  const apart = same ? Math.max(0, ...fe.map((e, i) => Math.abs(e.at - re[i].at))) : NaN;
  return { events: `${fe.length} / ${re.length}`, same, apart_ms: apart * 1000 };
}

const load0 = os
  .loadavg()
  .map((l) => l.toFixed(2))
  .join(' ');
let fast;
let realtime;
try {
  fast = await run('fast');
  realtime = await run('realtime');
} finally {
  rmSync(output, { recursive: true, force: true });
}

const turns = (m) => m.turns?.map((t) => `${t.role}: ${t.text}`) ?? [];
const segments = (m) => m.audio?.segments ?? [];
const rows = scenarios.map((name) => {
  const f = fast.byName.get(name);
  const r = realtime.byName.get(name);
  const fs = segments(f);
  const rs = segments(r);
  const differing = fs
    .map((s, i) =>
      rs[i]?.heard === s.heard ? undefined : { i, fast: s.heard, realtime: rs[i]?.heard },
    )
    .filter(Boolean);
  const lengths = (list) => list.map((s) => Math.round((s.end - s.start) * 1000)).join(',');
  return {
    scenario: name,
    outcome: `${f.is_successful} / ${r.is_successful}`,
    stop: `${f.stop_reason} / ${r.stop_reason}`,
    same_turns: JSON.stringify(turns(f)) === JSON.stringify(turns(r)),
    same_segmentation: lengths(fs) === lengths(rs) && fs.length === rs.length,
    segments: fs.length,
    heard_differently: differing,
    audio_seconds: `${f.audio.audio_seconds.toFixed(0)} / ${r.audio.audio_seconds.toFixed(0)}`,
    panel: comparePanels(fast.panels.get(name), realtime.panels.get(name)),
  };
});
printTable(
  `eval-audio-clocks: ${DOMAIN} (${count} scenarios) on the fast and the real-time clock, ` +
    `${preset ? `caller preset ${preset}, ` : ''}PocketSphinx ${undithered ? 'without dither' : 'as configured (dither on)'} + Flite, ` +
    `concurrency ${concurrency}; wall: fast ${fast.seconds.toFixed(0)} s, real time ` +
    `${realtime.seconds.toFixed(0)} s; load before ${load0}, after ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  [
    'scenario',
    'passed (fast / rt)',
    'stop (fast / rt)',
    'same turns',
    'same segmentation',
    'segments',
    'heard differently',
    'audio s (fast / rt)',
    ...(preset ? ['panel events (fast / rt)', 'same events', 'most apart ms'] : []),
  ],
  rows.map((r) => [
    r.scenario,
    r.outcome,
    r.stop,
    r.same_turns ? 'yes' : 'NO',
    r.same_segmentation ? 'yes' : 'NO',
    r.segments,
    r.heard_differently.length,
    r.audio_seconds,
    ...(preset
      ? [
          r.panel?.events ?? 'n/a',
          r.panel ? (r.panel.same ? 'yes' : 'NO') : 'n/a',
          r.panel?.same ? r.panel.apart_ms.toFixed(0) : '-',
        ]
      : []),
  ]),
);
for (const r of rows)
  for (const d of r.heard_differently)
    console.log(`${r.scenario} segment ${d.i}:\n  fast:     ${d.fast}\n  realtime: ${d.realtime}`);
emitMeasured({
  domain: DOMAIN,
  undithered,
  preset: preset ?? null,
  concurrency,
  fast_seconds: fast.seconds,
  realtime_seconds: realtime.seconds,
  rows,
});
