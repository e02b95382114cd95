// Benchmark: how the agent's ear degrades with the caller's background noise. The same
// tau2_airline scenarios in audio mode on the fast clock, with the scripted listening policies
// and the offline engines (PocketSphinx, Flite), through the caller's line (`--caller-effects`):
// first clean (`control`: the telephone channel only, the baseline measured in this run), then
// with a stationary background (the `busy_street_iphone_mic` stand-in, no drift) at each SNR.
// Per run: the agent's ear's normalized and raw word error rate, pooled over the scenarios
// (errors / reference words), entity accuracy, success and wall time, and the normalized WER
// as a ratio of the clean run's.
//
//   npm run build && node bench/caller-snr.bench.mjs [--scenarios N] [--concurrency C] [snr-db...]
//
// Defaults: 10 scenarios (`tau2_airline__0` ... `__9`), concurrency 2, SNRs 20 10 5 dB.
// Each run is the CLI in a child process, into a temporary folder. Loopback only.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runAudioEval, runMetrics, startAudioBench } from './lib/audio-eval.mjs';
import { emitMeasured, positiveInt, printTable, ratio } from './lib/common.mjs';

const args = process.argv.slice(2);
const concurrencyAt = args.indexOf('--concurrency');
const rest = args.filter(
  (_, i) => concurrencyAt < 0 || (i !== concurrencyAt && i !== concurrencyAt + 1),
);
const { count, levels } = startAudioBench('caller-snr bench', rest, {
  defaultCount: 10,
  seconds: 3600,
});
const concurrency = concurrencyAt >= 0 ? positiveInt(args[concurrencyAt + 1]) : 2;
const snrs = levels.length > 0 ? levels.map(Number) : [20, 10, 5];
if (snrs.some((s) => !Number.isFinite(s))) {
  console.error(`SNRs are numbers of dB, got ${levels.join(' ')}`);
  process.exit(2);
}

const { audioAggregate } = await import('@scenaro/eval');

const DOMAIN = 'tau2_airline';
const NOISE = 'busy_street_iphone_mic';
const scenarios = Array.from({ length: count }, (_, i) => `${DOMAIN}__${i}`);
const output = mkdtempSync(path.join(os.tmpdir(), 'scenaro-bench-caller-snr-'));

/** The caller-effects file of one run: `control`, plus steady noise at `snr` dB when given. */
function effectsFile(snr) {
  const file = path.join(output, `effects-${snr ?? 'clean'}.json`);
  const effects =
    snr === undefined
      ? {}
      : {
          background_noise_file: `${NOISE}.wav`,
          source_effects_config: {
            enable_background_noise: true,
            noise_snr_db: snr,
            noise_snr_drift_db: 0,
          },
        };
  writeFileSync(file, JSON.stringify(effects));
  return file;
}

/** One `scenaro eval` run with the caller's line at `snr` (clean when undefined). */
async function run(snr) {
  const { wallSeconds, runDir } = await runAudioEval({
    domain: DOMAIN,
    scenarios,
    concurrency,
    output,
    runId: snr === undefined ? 'clean' : `snr${snr}`,
    extraArgs: ['--caller-effects', effectsFile(snr)],
    okCodes: [0, 1],
  });
  const metrics = runMetrics(runDir, `${DOMAIN}__`);
  return {
    snr: snr ?? null,
    scenarios: metrics.length,
    passed: metrics.filter((m) => m.is_successful === true).length,
    ...ear(audioAggregate(metrics)),
    wall_seconds: wallSeconds,
  };
}

/** The agent's ear over a run, from the run's audio aggregate (pooled over its scenarios). */
function ear(audio) {
  const pooled = (w) => ({ rate: w?.wer ?? NaN, words: w?.reference_words ?? 0 });
  const e = audio?.entity_accuracy.agent_stt;
  return {
    normalized_wer: pooled(audio?.normalized_wer.agent_stt),
    raw_wer: pooled(audio?.wer.agent_stt),
    entities: e && e.said > 0 ? `${e.heard_right}/${e.said}` : 'n/a',
  };
}

const rows = [];
try {
  for (const snr of [undefined, ...snrs]) {
    const row = await run(snr);
    rows.push(row);
    console.error(
      `  ${snr === undefined ? 'clean' : `${snr} dB`}: normalized WER ` +
        `${(row.normalized_wer.rate * 100).toFixed(1)} %, ${row.passed}/${row.scenarios} passed, ` +
        `${row.wall_seconds.toFixed(0)} s`,
    );
  }
} finally {
  rmSync(output, { recursive: true, force: true });
}

const base = rows[0];
const pct = (x) => `${(x * 100).toFixed(1)} %`;
printTable(
  `caller-snr: the agent's ear vs the caller's background noise (${NOISE} stand-in), ` +
    `${DOMAIN} (${count} scenarios), PocketSphinx + Flite, fast clock; baseline: the clean ` +
    `caller's line in the same run`,
  [
    'background',
    'passed',
    'normalized WER (agent ear)',
    'vs clean',
    'raw WER',
    'reference words',
    'entities heard right',
    'wall s',
  ],
  rows.map((r) => [
    r.snr === null ? 'none (control)' : `${r.snr} dB SNR`,
    `${r.passed}/${r.scenarios}`,
    pct(r.normalized_wer.rate),
    ratio(r.normalized_wer.rate, base.normalized_wer.rate),
    pct(r.raw_wer.rate),
    r.normalized_wer.words,
    r.entities,
    r.wall_seconds.toFixed(0),
  ]),
);
emitMeasured({ domain: DOMAIN, noise: NOISE, concurrency, rows });
