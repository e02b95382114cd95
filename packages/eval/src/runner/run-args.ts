/**
 * `run_args.json`: one entry per invocation of a run (its command line, its options and the
 * scenarios it resolved), the first one defining the run.
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeJsonAtomic } from '../results/files.js';
import type { WorkItem } from '../scenario/select.js';
import type { EvaluationOptions } from './options.js';

/** What `run_args.json` holds: one entry per invocation, the first one defining the run. */
export interface RunArgsFile {
  invocations: {
    started_at?: string;
    argv?: string[];
    parsed_args?: Record<string, unknown>;
    resolved_scenario_names?: string[];
  }[];
}

/** Read a run's `run_args.json`; `undefined` when the run has none yet. */
export async function readRunArgs(runDir: string): Promise<RunArgsFile | undefined> {
  let text: string;
  try {
    text = await readFile(join(runDir, 'run_args.json'), 'utf8');
  } catch {
    return undefined;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new Error(
      `cannot resume: ${join(runDir, 'run_args.json')} is not valid JSON (${(err as Error).message})`,
    );
  }
  const invocations = (parsed as { invocations?: unknown } | null)?.invocations;
  if (!Array.isArray(invocations))
    throw new Error(`cannot resume: ${join(runDir, 'run_args.json')} has no invocations list`);
  return { invocations: invocations as RunArgsFile['invocations'] };
}

/** Append this invocation (its options without streams, engines and secrets) to `run_args.json`. */
export async function recordInvocation(
  filesDir: string,
  options: EvaluationOptions,
  work: readonly WorkItem[],
): Promise<void> {
  const path = join(filesDir, 'run_args.json');
  let previous: { invocations: unknown[] } = { invocations: [] };
  try {
    previous = JSON.parse(await readFile(path, 'utf8')) as { invocations: unknown[] };
  } catch {
    // first invocation
  }
  const parsed: Record<string, unknown> = { ...options };
  delete parsed['progressStream'];
  delete parsed['argv'];
  delete parsed['voice'];
  if (options.judge?.apiKey) parsed['judge'] = { ...options.judge, apiKey: '<redacted>' };
  previous.invocations.push({
    started_at: new Date().toISOString(),
    argv: options.argv ?? process.argv,
    parsed_args: parsed,
    resolved_scenario_names: work.map((w) => w.key),
  });
  await writeJsonAtomic(path, previous);
}
