// `scenaro eval --shard auto/N` in a pod of a Kubernetes Indexed Job: $JOB_COMPLETION_INDEX
// (0-based) picks the shard, the run folder gets exactly that shard's scenarios and the shard's
// own folder of run-level files, and `scenaro eval merge` takes the run folder.
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtInDomains } from '@scenaro/domains';
import { loadScenarios, planWork } from '@scenaro/eval';
import { cliBuilt, repoRoot, runCliToEnd } from './built-cli.js';

const dataRoot = resolve(repoRoot, '../shared/eval-data');
const hasData = existsSync(join(dataRoot, 'tau2_airline'));
if (!hasData) console.warn(`eval-shard test skipped: no tau2 data at ${dataRoot}`);
const built = cliBuilt('packages/cli/test/eval-shard.test.ts');

describe.skipIf(!built || !hasData)('scenaro eval --shard auto/N', { timeout: 120_000 }, () => {
  it('JOB_COMPLETION_INDEX=3 runs exactly the 4th twenty-fifth of tau2_airline', async () => {
    const output = mkdtempSync(join(tmpdir(), 'scenaro-shard-'));
    const args = ['eval', '--domain', 'tau2_airline', '--data-root', dataRoot];
    const run = await runCliToEnd(
      [...args, '--shard', 'auto/25', '--output-dir', output, '--run-id', 'job'],
      90_000,
      { JOB_COMPLETION_INDEX: '3' },
    );
    expect(run.code, run.stderr).toBe(0);
    const runDir = join(output, 'job');
    expect(run.stdout).toContain(`report:  ${join(runDir, 'shard-04-of-25', 'report.html')}`);

    const loaded = await loadScenarios(builtInDomains(), ['tau2_airline'], dataRoot);
    const all = planWork(loaded, {}).map((w) => w.key);
    const fourth = planWork(loaded, { shard: { index: 4, count: 25 } }).map((w) => w.key);
    expect(fourth.length).toBe(Math.ceil(all.length / 25));
    // The 4th of every 25, in name order: the same split `--shard 4/25` makes.
    expect(fourth).toEqual(all.filter((_, i) => i % 25 === 3));
    const scenarioDirs = readdirSync(runDir).filter((name) => !name.startsWith('shard-'));
    expect(scenarioDirs.sort()).toEqual([...fourth].sort());
    const runArgs = JSON.parse(
      readFileSync(join(runDir, 'shard-04-of-25', 'run_args.json'), 'utf8'),
    ) as { invocations: { parsed_args: { shard: unknown } }[] };
    expect(runArgs.invocations[0]!.parsed_args.shard).toEqual({ index: 4, count: 25 });

    // Without the variable, auto/N says what it needs.
    const unset = await runCliToEnd(
      [...args, '--shard', 'auto/25', '--output-dir', output],
      30_000,
    );
    expect(unset.code).not.toBe(0);
    expect(unset.stderr).toContain('JOB_COMPLETION_INDEX');

    // One shard of 25 is a partial run: merge refuses it unless told.
    const refused = await runCliToEnd(['eval', 'merge', runDir, '--into', join(output, 'm1')]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/shard\(s\) 1\/25, 2\/25, 3\/25, 5\/25/);
    const partial = await runCliToEnd([
      'eval',
      'merge',
      runDir,
      '--into',
      join(output, 'm2'),
      '--allow-partial',
    ]);
    expect(partial.code, partial.stderr).toBe(0);
    expect(partial.stdout).toContain(`merged ${fourth.length} scenarios from 1 shard into`);
  });
});
