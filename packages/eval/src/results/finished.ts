/**
 * Reading a scenario folder back: its `metrics.json` is written last, so a folder whose metrics
 * show a conversation is a finished result (the reference harness's resume rule), kept by a
 * resumed run and taken by a merge.
 *
 * @module
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { coerceMetrics } from '../scoring/aggregate.js';
import type { ScenarioMetrics } from '../scoring/types.js';

/**
 * The metrics of a finished scenario folder: turns were taken and the agent made at least
 * `minAgentTurns` LLM calls. `undefined` when the folder has no readable `metrics.json` or the
 * scenario did not finish. Fields an older version (or the reference harness) left out are filled
 * in as {@link coerceMetrics} does.
 */
export async function finishedMetrics(
  dir: string,
  minAgentTurns: number,
): Promise<ScenarioMetrics | undefined> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(join(dir, 'metrics.json'), 'utf8'));
  } catch {
    return undefined; // not finished
  }
  return isFinished(raw, minAgentTurns) ? coerceMetrics(raw) : undefined;
}

function isFinished(raw: unknown, minAgentTurns: number): boolean {
  if (typeof raw !== 'object' || raw === null) return false;
  const { total_turns: turns, token_usage: usage } = raw as {
    total_turns?: unknown;
    token_usage?: { agent?: { n_calls?: number } } | null;
  };
  const calls = usage?.agent?.n_calls ?? 0;
  return typeof turns === 'number' && turns > 0 && calls >= minAgentTurns;
}

/** Scenario folders of a run (for merging): every folder but those of killed attempts. */
export async function scenarioDirs(runDir: string): Promise<string[]> {
  const entries = await readdir(runDir, { withFileTypes: true });
  return entries
    .filter((e) => e.isDirectory() && !e.name.includes('.killed.'))
    .map((e) => join(runDir, e.name));
}
