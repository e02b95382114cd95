/**
 * Merging result folders of runs spread over machines (`--shard k/n`): copy the
 * scenario folders into one run folder and write fresh run-level files.
 */
import { cp, mkdir, readFile, readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { writeJsonAtomic } from './files.js';
import { finishedMetrics } from './runner.js';
import { finishRun } from '../scoring/run-files.js';

/** Merge `sources` (run folders) into `target`. A scenario found in two sources is an error. */
export async function mergeRuns(
  sources: string[],
  target: string,
): Promise<{ runDir: string; scenarios: number }> {
  if (sources.length === 0) throw new Error('nothing to merge');
  const exists = await stat(target).then(
    () => true,
    () => false,
  );
  if (exists && (await readdir(target)).length > 0)
    throw new Error(`merge target ${target} is not empty`);
  await mkdir(target, { recursive: true });
  const seen = new Map<string, string>();
  const metrics: Record<string, unknown>[] = [];
  const invocations: unknown[] = [];
  for (const source of sources) {
    const entries = await readdir(source, { withFileTypes: true }).catch(() => {
      throw new Error(`cannot read run folder ${source}`);
    });
    try {
      const args = JSON.parse(await readFile(join(source, 'run_args.json'), 'utf8')) as {
        invocations?: unknown[];
      };
      invocations.push(...(args.invocations ?? []));
    } catch {
      // a run folder without run_args.json is still mergeable
    }
    for (const entry of entries) {
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
  metrics.sort((a, b) => String(a['scenario_name']).localeCompare(String(b['scenario_name'])));
  await writeJsonAtomic(join(target, 'run_args.json'), {
    invocations,
    merged_from: sources.map((s) => basename(s)),
  });
  await finishRun(target, metrics, undefined, { trials: 1 });
  return { runDir: target, scenarios: metrics.length };
}
