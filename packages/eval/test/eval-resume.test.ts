// `scenaro eval --resume RUN` alone, as the README writes it, after a SIGKILL: the run's own
// arguments come from run_args.json, contradicting flags are refused, exactly the run's
// scenarios end up done, each once.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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
  it('keeps a run-defining option given with the same value, sets aside a killed attempt without its half-written files, and refuses a run without run_args.json', async () => {
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

    // An attempt killed mid-write: its metrics were never renamed into place, and the temporary
    // files of the interrupted writes are still there, in the folder and at the run's top.
    const killed = join(output, 'r', names[1]!);
    rmSync(join(killed, 'metrics.json'));
    const half = `.${randomUUID()}.tmp`;
    writeFileSync(join(killed, half), '{"scenario_na');
    writeFileSync(join(output, 'r', half), '[');
    writeFileSync(join(killed, 'notes.tmp'), 'not ours');
    const redone = await runEvaluation({ ...base, resume: 'r' });
    expect(redone.ran).toBe(1);
    const aside = readdirSync(join(output, 'r')).filter((n) => n.includes('.killed.'));
    expect(aside).toHaveLength(1);
    expect(readdirSync(join(output, 'r', aside[0]!)).filter((f) => f.endsWith('.tmp'))).toEqual([
      'notes.tmp',
    ]);
    expect(existsSync(join(output, 'r', half))).toBe(false);

    mkdirSync(join(output, 'empty'));
    await expect(runEvaluation({ ...base, resume: 'empty' })).rejects.toThrow(/run_args\.json/);
  }, 60_000);
});
