/**
 * Merging result folders of runs spread over machines (`--shard k/n`): copy the
 * scenario folders into one run folder and write fresh run-level files. Shards that shared a
 * run folder left their own files in its `shard-K-of-N` folders: those tell which shards ran,
 * and a merge with one of them missing is refused unless it is allowed to be partial.
 */
import { cp, mkdir, readFile, readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { pathExists, writeJsonAtomic } from '../results/files.js';
import { finishedMetrics } from '../results/finished.js';
import { finishRun } from '../results/run-files.js';
import { shardFolder } from '../scenario/select.js';
import type { Shard } from '../scenario/select.js';
import type { ScenarioMetrics } from '../scoring/types.js';
import type { RunArgsFile } from './run-args.js';

/** What a merge did. */
export interface MergeResult {
  runDir: string;
  scenarios: number;
  /** The shards found (`k/n`), in order; empty when the sources were not sharded. */
  shards: string[];
  /** Scenarios a shard was to run that have no finished result. */
  unfinished: string[];
}

/**
 * Merge `sources` (run folders) into `target`. A scenario found in two sources is an error, and
 * so is a missing shard (unless `allowPartial`).
 */
export async function mergeRuns(
  sources: string[],
  target: string,
  options: { allowPartial?: boolean } = {},
): Promise<MergeResult> {
  if (sources.length === 0) throw new Error('nothing to merge');
  if ((await pathExists(target)) && (await readdir(target)).length > 0)
    throw new Error(`merge target ${target} is not empty`);
  await mkdir(target, { recursive: true });
  const seen = new Map<string, string>();
  const metrics: ScenarioMetrics[] = [];
  const invocations: unknown[] = [];
  const shards = new Map<string, Shard>();
  const planned = new Set<string>();
  for (const source of sources) {
    const entries = await readdir(source, { withFileTypes: true }).catch(() => {
      throw new Error(`cannot read run folder ${source}`);
    });
    invocations.push(...(await readInvocations(source)));
    for (const entry of entries) {
      const shard = entry.isDirectory() ? shardOfFolder(entry.name) : undefined;
      if (shard) {
        const recorded = await readInvocations(join(source, entry.name));
        invocations.push(...recorded);
        shards.set(`${shard.index}/${shard.count}`, shard);
        for (const name of recorded[0]?.resolved_scenario_names ?? []) planned.add(name);
        continue;
      }
      if (!entry.isDirectory() || entry.name.includes('.killed.')) continue;
      const dir = join(source, entry.name);
      const done = await finishedMetrics(dir, 0);
      if (!done) continue;
      const previous = seen.get(entry.name);
      if (previous) throw new Error(`scenario ${entry.name} is in both ${previous} and ${source}`);
      seen.set(entry.name, source);
      await cp(dir, join(target, entry.name), { recursive: true });
      metrics.push(done);
    }
  }
  const missing = missingShards([...shards.values()]);
  if (missing.length > 0 && !options.allowPartial)
    throw new Error(
      `shard(s) ${missing.join(', ')} not found in ${sources.join(', ')}: merge once every ` +
        'shard has run (or allow a partial merge)',
    );
  metrics.sort((a, b) => a.scenario_name.localeCompare(b.scenario_name));
  await writeJsonAtomic(join(target, 'run_args.json'), {
    invocations,
    merged_from: sources.map((s) => basename(s)),
  });
  await finishRun(target, metrics);
  return {
    runDir: target,
    scenarios: metrics.length,
    shards: [...shards.values()]
      .sort((a, b) => a.count - b.count || a.index - b.index)
      .map((s) => `${s.index}/${s.count}`),
    unfinished: [...planned].filter((name) => !seen.has(name)).sort(),
  };
}

/** The invocations of a folder's `run_args.json` (none when it has none). */
async function readInvocations(dir: string): Promise<RunArgsFile['invocations']> {
  try {
    const args = JSON.parse(await readFile(join(dir, 'run_args.json'), 'utf8')) as {
      invocations?: RunArgsFile['invocations'];
    };
    return Array.isArray(args.invocations) ? args.invocations : [];
  } catch {
    return []; // a run folder without run_args.json is still mergeable
  }
}

/** The shard whose files a folder named {@link shardFolder} holds. */
function shardOfFolder(name: string): Shard | undefined {
  const match = /^shard-(\d+)-of-(\d+)$/.exec(name);
  if (!match) return undefined;
  const shard = { index: Number(match[1]), count: Number(match[2]) };
  return shard.index >= 1 && shard.index <= shard.count && shardFolder(shard) === name
    ? shard
    : undefined;
}

/** `k/n` of every shard missing from `found` (for each shard count found). */
function missingShards(found: Shard[]): string[] {
  const missing: string[] = [];
  for (const count of new Set(found.map((s) => s.count))) {
    const have = new Set(found.filter((s) => s.count === count).map((s) => s.index));
    for (let index = 1; index <= count; index++)
      if (!have.has(index)) missing.push(`${index}/${count}`);
  }
  return missing;
}
