// Runner lifecycle: a faulty agent, a run killed and resumed, shards merged.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DbCache } from '@scenaro/agent/scenario';
import { commerceEvalDomain } from '@scenaro/domains';
import { computeExpected, mergeRuns } from '../src/index.js';
import {
  cli,
  cliBuilt,
  expectNotRunAgain,
  finishedScenarios,
  metricsTimes,
  runCommerce,
  summaryRows,
  tempOutput,
} from './helpers.js';

if (!cliBuilt)
  console.warn('resume test skipped: run `npm run build` first (packages/cli/dist is missing)');

describe('a deliberately faulty agent', () => {
  it('fails exactly the scenarios whose end state depends on the dropped action, with diffs', async () => {
    const scenarios = await commerceEvalDomain.loadScenarios('');
    const cache = new DbCache();
    const dependsOnLast = new Set<string>();
    for (const scenario of scenarios) {
      const agentActions = scenario.referenceActions
        .map((a, i) => ({ a, i }))
        .filter(({ a }) => a.side === 'agent');
      const last = agentActions.at(-1);
      if (!last) continue;
      const full = await computeExpected(scenario, commerceEvalDomain, {
        dataRoot: '',
        dbCache: cache,
      });
      const dropped = await computeExpected(
        {
          ...scenario,
          referenceActions: scenario.referenceActions.filter((_, i) => i !== last.i),
          expectedDbHash: null,
        },
        commerceEvalDomain,
        { dataRoot: '', dbCache: cache },
      );
      if (full.dbHash !== dropped.dbHash) dependsOnLast.add(scenario.name);
    }
    expect(dependsOnLast.size).toBeGreaterThan(5);

    const output = tempOutput();
    const result = await runCommerce(output, 'faulty', { faults: ['drop-last-action'] });
    const failed = new Set(
      result.metrics
        .filter((m) => m['is_successful'] === false)
        .map((m) => String(m['scenario_name'])),
    );
    expect([...failed].sort()).toEqual([...dependsOnLast].sort());
    for (const name of failed) {
      const metrics = JSON.parse(
        readFileSync(join(result.runDir, name, 'metrics.json'), 'utf8'),
      ) as Record<string, unknown>;
      expect(metrics['db_state_match']).toBe(false);
      const diff = metrics['db_diff'] as
        { status?: string; diff?: { tables_modified?: object } } | undefined;
      expect(diff, name).toBeDefined();
      expect(JSON.stringify(diff)).toMatch(/tables_modified/);
    }
  }, 120_000);
});

describe.skipIf(!cliBuilt)('a run killed mid-way and resumed', () => {
  it('completes with no scenario lost or run twice', async () => {
    const output = tempOutput();
    const runDir = join(output, 'killed');
    const args = [
      'eval',
      '--output-dir',
      output,
      '--data-root',
      join(output, 'none'),
      '--concurrency',
      '1',
    ];
    const first = spawn(process.execPath, [cli, ...args, '--run-id', 'killed'], {
      stdio: 'ignore',
    });
    const deadline = Date.now() + 30_000;
    while (finishedScenarios(runDir).length < 4) {
      if (Date.now() > deadline) throw new Error('the first run made no progress');
      await new Promise((r) => setTimeout(r, 20));
    }
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const done = finishedScenarios(runDir);
    const mtimes = metricsTimes(runDir, done);

    const second = spawn(process.execPath, [cli, ...args, '--resume', 'killed'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    second.stdout.on('data', (b: Buffer) => (out += b.toString()));
    const code = await new Promise<number | null>((r) => second.once('exit', r));
    expect(code).toBe(0);
    expect(out).toMatch(new RegExp(`\\((\\d+) run, ${done.length} resumed\\)`));

    const scenarios = await commerceEvalDomain.loadScenarios('');
    expect(done.length).toBeLessThan(scenarios.length);
    expect(finishedScenarios(runDir)).toEqual(scenarios.map((s) => s.name).sort());
    expectNotRunAgain(runDir, mtimes);
    const invocations = (
      JSON.parse(readFileSync(join(runDir, 'run_args.json'), 'utf8')) as { invocations: unknown[] }
    ).invocations;
    expect(invocations).toHaveLength(2);
    expect(summaryRows(runDir)).toHaveLength(scenarios.length);
  }, 90_000);
});

describe('sharded runs', () => {
  it('cover every scenario once and merge into one run', async () => {
    const output = tempOutput();
    const parts = [];
    for (const index of [1, 2, 3]) {
      parts.push(await runCommerce(output, `shard-${index}`, { shard: { index, count: 3 } }));
    }
    const names = parts.flatMap((p) => p.metrics.map((m) => String(m['scenario_name'])));
    expect(new Set(names).size).toBe(names.length);
    const merged = await mergeRuns(
      parts.map((p) => p.runDir),
      join(output, 'merged'),
    );
    const scenarios = await commerceEvalDomain.loadScenarios('');
    expect(merged.scenarios).toBe(scenarios.length);
    const all = JSON.parse(
      readFileSync(join(output, 'merged', 'all_metrics.json'), 'utf8'),
    ) as unknown[];
    expect(all).toHaveLength(scenarios.length);
    expect(existsSync(join(output, 'merged', 'report.html'))).toBe(true);
    await expect(
      mergeRuns([parts[0]!.runDir, parts[0]!.runDir], join(output, 'twice')),
    ).rejects.toThrow(/in both/);
  }, 120_000);
});
