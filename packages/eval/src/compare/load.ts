/**
 * Reading a finished run folder for comparison: its per-scenario metrics (from
 * `all_metrics.json`, or each scenario folder's `metrics.json` when the run did not finish) and
 * its scorer.
 *
 * @module
 */
import { readFile, readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { ScenarioMetrics } from '../scoring/types.js';

/** A run folder as compare reads it. */
export interface LoadedRun {
  dir: string;
  /** The folder's name, which is the run id. */
  name: string;
  scorer: string;
  metrics: ScenarioMetrics[];
}

/** A comparison that cannot be made (the message says why); the CLI exits 2 on it. */
export class CompareError extends Error {
  override name = 'CompareError';
}

async function readJson(path: string): Promise<unknown> {
  return JSON.parse(await readFile(path, 'utf8')) as unknown;
}

function isMetrics(value: unknown): value is ScenarioMetrics {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { scenario_name?: unknown }).scenario_name === 'string'
  );
}

async function scenarioFolders(dir: string): Promise<ScenarioMetrics[]> {
  const found: ScenarioMetrics[] = [];
  const entries = await readdir(dir, { withFileTypes: true });
  for (const entry of entries
    .filter((e) => e.isDirectory())
    .sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const value = await readJson(join(dir, entry.name, 'metrics.json')).catch(() => undefined);
    if (isMetrics(value)) found.push(value);
  }
  return found;
}

/** Read a run folder; a folder that holds no scenario results is a {@link CompareError}. */
export async function loadRun(dir: string): Promise<LoadedRun> {
  let metrics: ScenarioMetrics[];
  try {
    const all = await readJson(join(dir, 'all_metrics.json'));
    if (!Array.isArray(all))
      throw new CompareError(`${dir}/all_metrics.json is not a list of scenario results`);
    metrics = all.filter(isMetrics);
  } catch (error) {
    if (error instanceof CompareError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      const exists = await readdir(dir).then(
        () => true,
        () => false,
      );
      if (!exists) throw new CompareError(`${dir}: no such run folder`);
      metrics = await scenarioFolders(dir);
    } else {
      throw new CompareError(`${dir}/all_metrics.json cannot be read: ${(error as Error).message}`);
    }
  }
  if (metrics.length === 0)
    throw new CompareError(`${dir} holds no scenario results (no metrics.json)`);
  const scorers = [...new Set(metrics.map((m) => m.scorer))];
  if (scorers.length > 1)
    throw new CompareError(
      `${dir} mixes scorers (${scorers.join(', ')}); compare runs scored one way`,
    );
  return { dir, name: basename(dir), scorer: scorers[0]!, metrics };
}
