// Shards as a Kubernetes Indexed Job runs them: `auto/n` takes its index from
// $JOB_COMPLETION_INDEX, shards share one run folder without colliding, and the merge of
// every shard equals a single run.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commerceEvalDomain } from '@scenaro/domains';
import { mergeRuns, parseShard, shardFolder } from '../src/index.js';
import { runCommerce, tempOutput } from './helpers.js';

/**
 * Per-scenario results without what differs between two runs of the same work: timings, the
 * folder, and token counts (estimated from text that includes run-specific details).
 */
function comparable(metrics: unknown): unknown {
  if (Array.isArray(metrics)) return metrics.map(comparable);
  if (metrics === null || typeof metrics !== 'object') return metrics;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(metrics).sort()) {
    if (
      /time|duration|latency|_ms$|^ms$|elapsed|seconds|^start$|^end$|_at$|_tokens$|^scenario_directory$/i.test(
        key,
      )
    )
      continue;
    out[key] = comparable((metrics as Record<string, unknown>)[key]);
  }
  return out;
}

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

describe('parseShard', () => {
  it('reads auto/n from $JOB_COMPLETION_INDEX (0-based)', () => {
    expect(parseShard('auto/25', { JOB_COMPLETION_INDEX: '3' })).toEqual({ index: 4, count: 25 });
    expect(parseShard('auto/25', { JOB_COMPLETION_INDEX: '0' })).toEqual({ index: 1, count: 25 });
    expect(parseShard('auto/25', { JOB_COMPLETION_INDEX: '24' })).toEqual({
      index: 25,
      count: 25,
    });
    expect(() => parseShard('auto/25', {})).toThrow(/JOB_COMPLETION_INDEX.*not set/);
    expect(() => parseShard('auto/25', { JOB_COMPLETION_INDEX: '25' })).toThrow(/not below/);
    expect(() => parseShard('auto/25', { JOB_COMPLETION_INDEX: '-1' })).toThrow(/'-1'/);
    expect(() => parseShard('auto/0', { JOB_COMPLETION_INDEX: '0' })).toThrow();
    expect(parseShard('4/25', {})).toEqual({ index: 4, count: 25 });
    expect(() => parseShard('0/25')).toThrow(/k\/n/);
  });

  it('names shard folders so they sort', () => {
    expect(shardFolder({ index: 4, count: 25 })).toBe('shard-04-of-25');
    expect(shardFolder({ index: 3, count: 3 })).toBe('shard-3-of-3');
  });
});

describe('shards sharing one run folder', () => {
  it('do not collide, and merged they equal a single run', async () => {
    const output = tempOutput();
    const single = await runCommerce(output, 'single');
    // Three shards at once, in one run folder, as the pods of an Indexed Job write it.
    const parts = await Promise.all(
      [1, 2, 3].map((index) =>
        runCommerce(output, 'sharded', { shard: { index, count: 3 }, concurrency: 2 }),
      ),
    );
    const runDir = join(output, 'sharded');
    for (const [i, part] of parts.entries()) {
      expect(part.runDir).toBe(runDir);
      expect(part.filesDir).toBe(join(runDir, `shard-${i + 1}-of-3`));
      const args = readJson(join(part.filesDir, 'run_args.json')) as {
        invocations: { resolved_scenario_names: string[] }[];
      };
      expect(args.invocations).toHaveLength(1);
      expect(args.invocations[0]!.resolved_scenario_names).toEqual(
        part.metrics.map((m) => m['scenario_name']),
      );
      expect(existsSync(join(part.filesDir, 'report.html'))).toBe(true);
    }
    // The run folder holds the scenario folders and the shard folders, nothing run-level.
    const scenarios = await commerceEvalDomain.loadScenarios('');
    const entries = readdirSync(runDir).sort();
    expect(entries).toEqual(
      [...scenarios.map((s) => s.name), 'shard-1-of-3', 'shard-2-of-3', 'shard-3-of-3'].sort(),
    );

    await expect(mergeRuns([runDir], join(output, 'partial'))).resolves.toMatchObject({
      shards: ['1/3', '2/3', '3/3'],
      unfinished: [],
    });
    const merged = await mergeRuns([runDir], join(output, 'merged'));
    expect(merged.scenarios).toBe(scenarios.length);
    const mergedMetrics = readJson(join(output, 'merged', 'all_metrics.json'));
    const singleMetrics = readJson(join(single.filesDir, 'all_metrics.json'));
    expect(comparable(mergedMetrics)).toEqual(comparable(singleMetrics));
    const invocations = (
      readJson(join(output, 'merged', 'run_args.json')) as {
        invocations: unknown[];
      }
    ).invocations;
    expect(invocations).toHaveLength(3);
  }, 180_000);

  it('refuses a merge with a shard missing, unless partial', async () => {
    const output = tempOutput();
    for (const index of [1, 3])
      await runCommerce(output, 'run', { shard: { index, count: 3 }, concurrency: 2 });
    const runDir = join(output, 'run');
    await expect(mergeRuns([runDir], join(output, 'merged'))).rejects.toThrow(
      /shard\(s\) 2\/3 not found/,
    );
    const partial = await mergeRuns([runDir], join(output, 'partial'), { allowPartial: true });
    expect(partial.shards).toEqual(['1/3', '3/3']);
    // A shard resumes from its own folder's run_args.json.
    const again = await runCommerce(output, 'run', {
      resume: 'run',
      shard: { index: 1, count: 3 },
    });
    expect(again.ran).toBe(0);
    expect(again.resumed).toBe(
      partial.scenarios -
        (
          await runCommerce(output, 'run', {
            resume: 'run',
            shard: { index: 3, count: 3 },
          })
        ).resumed,
    );
  }, 180_000);
});
