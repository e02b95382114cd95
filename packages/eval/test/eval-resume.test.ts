// `scenaro eval --resume RUN` alone, as the README writes it, after a SIGKILL: the run's own
// arguments come from run_args.json, contradicting flags are refused, exactly the run's
// scenarios end up done, each once.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commerceEvalDomain } from '@scenaro/domains';
import { runEvaluation } from '../src/index.js';
import {
  cli,
  cliBuilt,
  collectingStream,
  expectNotRunAgain,
  finishedScenarios,
  metricsTimes,
  summaryRows,
  tempOutput,
} from './helpers.js';

if (!cliBuilt)
  console.warn(
    'CLI resume tests skipped: run `npm run build` first (packages/cli/dist is missing)',
  );

function runCli(args: string[], cwd: string): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [cli, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr.on('data', (b: Buffer) => (out += b.toString()));
  return new Promise((r) => child.once('exit', (code) => r({ code, out })));
}

describe.skipIf(!cliBuilt)('scenaro eval --resume RUN alone', () => {
  it('finishes exactly the killed run with its own arguments, and refuses contradicting flags', async () => {
    const cwd = tempOutput();
    const all = (await commerceEvalDomain.loadScenarios('')).map((s) => s.name).sort();
    const chosen = all.slice(3, 9);
    const first = spawn(
      process.execPath,
      [cli, 'eval', '--scenarios', chosen.join(','), '--concurrency', '1', '--trials', '1'],
      { cwd, stdio: 'ignore' },
    );
    // The run is named by its start time unless --run-id is given; find it once it exists.
    const deadline = Date.now() + 30_000;
    let dir: string | undefined;
    while (!dir || finishedScenarios(dir).length < 2) {
      if (Date.now() > deadline) throw new Error('the first run made no progress');
      await new Promise((r) => setTimeout(r, 20));
      const runs = existsSync(join(cwd, 'eval-results'))
        ? readdirSync(join(cwd, 'eval-results'))
        : [];
      if (runs[0]) dir = join(cwd, 'eval-results', runs[0]);
    }
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const runId = dir.split('/').at(-1) as string;
    const done = finishedScenarios(dir);
    expect(done.length).toBeLessThan(chosen.length);
    const mtimes = metricsTimes(dir, done);

    // A flag that contradicts the run is refused, naming it, and changes nothing.
    const refused = await runCli(['eval', '--resume', runId, '--domain', 'tau2_airline'], cwd);
    expect(refused.code).toBe(2);
    expect(refused.out).toMatch(/--domain/);
    expect(refused.out).toMatch(/run_args\.json/);
    const trials = await runCli(['eval', '--resume', runId, '--trials', '2'], cwd);
    expect(trials.code).toBe(2);
    expect(trials.out).toMatch(/--trials/);
    expect(finishedScenarios(dir)).toEqual(done);

    // The README's form: nothing but the run id.
    const resumed = await runCli(['eval', '--resume', runId], cwd);
    expect(resumed.code, resumed.out).toBe(0);
    expect(resumed.out).toMatch(new RegExp(`\\((\\d+) run, ${done.length} resumed\\)`));
    expect(finishedScenarios(dir)).toEqual(chosen);
    expectNotRunAgain(dir, mtimes);
    expect(summaryRows(dir)).toHaveLength(chosen.length);
  }, 120_000);
});

describe('runEvaluation resume rules', () => {
  it('keeps a run-defining option given with the same value, and refuses a run without run_args.json', async () => {
    const output = tempOutput();
    const names = (await commerceEvalDomain.loadScenarios('')).map((s) => s.name).sort();
    const base = { outputDir: output, progressStream: collectingStream(), concurrency: 2 };
    await runEvaluation({
      ...base,
      dataRoot: join(output, 'none'),
      domains: ['commerce'],
      scenarios: names.slice(0, 2),
      runId: 'r',
    });
    const again = await runEvaluation({ ...base, resume: 'r', scenarios: names.slice(0, 2) });
    expect(again.resumed).toBe(2);
    expect(again.ran).toBe(0);
    await expect(
      runEvaluation({ ...base, resume: 'r', scenarios: names.slice(0, 3) }),
    ).rejects.toThrow(/--scenarios/);
    await expect(runEvaluation({ ...base, resume: 'r', runId: 'other' })).rejects.toThrow(
      /contradicts/,
    );
    mkdirSync(join(output, 'empty'));
    await expect(runEvaluation({ ...base, resume: 'empty' })).rejects.toThrow(/run_args\.json/);
  }, 60_000);
});
