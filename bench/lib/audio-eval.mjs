// The audio benches (eval-audio, caller-snr): their start, and one
// `scenaro eval --mode audio --audio-clock fast` run: the CLI of this checkout in a child process, on the tau2 data beside the
// repository, into a run folder of its own, with its log at `warn`; the metrics of the
// scenarios it finished are read back from that folder.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { evalDataRoot, repoRoot, scenarioArgs, skipWithoutEvalData, watchdog } from './common.mjs';

/**
 * The start of the audio bench `name`: without the tau2 data it is skipped (exit 0); a watchdog
 * stops it after `seconds`; its arguments `[--scenarios N] [level...]` are read from `args` (see
 * `scenarioArgs`, with `defaultCount` scenarios by default).
 */
export function startAudioBench(name, args, { defaultCount, seconds }) {
  skipWithoutEvalData(name);
  watchdog(name, seconds);
  return scenarioArgs(args, defaultCount);
}

/**
 * Runs `scenarios` of `domain` at `concurrency` into `output/runId`, with `extraArgs` after the
 * rest. `whileRunning(child)` is called once the CLI started; the function it returns, if any, is
 * called once the CLI exited (to stop sampling it). An exit code not in `okCodes` throws, with
 * the end of the CLI's stderr. Resolves with the wall time in seconds and the run folder.
 */
export async function runAudioEval({
  domain,
  scenarios,
  concurrency,
  output,
  runId,
  extraArgs = [],
  okCodes = [0],
  whileRunning,
}) {
  const cli = path.join(repoRoot, 'packages/cli/bin/scenaro.js');
  const cliArgs = [
    ...['eval', '--mode', 'audio', '--audio-clock', 'fast', '--domain', domain],
    ...['--data-root', evalDataRoot, '--output-dir', output, '--run-id', runId],
    ...['--concurrency', String(concurrency), '--scenarios', scenarios.join(',')],
    ...extraArgs,
  ];
  const start = performance.now();
  const child = spawn(process.execPath, [cli, ...cliArgs], {
    cwd: repoRoot,
    env: { ...process.env, SCENARO_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const stop = whileRunning?.(child);
  const code = await new Promise((resolve) => child.once('exit', resolve));
  stop?.();
  const wallSeconds = (performance.now() - start) / 1000;
  if (!okCodes.includes(code))
    throw new Error(`scenaro eval exited with ${code}: ${stderr.slice(-2000)}`);
  return { wallSeconds, runDir: path.join(output, runId) };
}

/**
 * The `metrics.json` of each scenario folder of `runDir` whose name starts with `prefix`
 * (folders of killed scenarios left out).
 */
export function runMetrics(runDir, prefix = '') {
  return readdirSync(runDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name.startsWith(prefix) && !e.name.includes('.killed.'))
    .map((e) => JSON.parse(readFileSync(path.join(runDir, e.name, 'metrics.json'), 'utf8')));
}
