/**
 * Resuming a run: the run's own arguments come from its `run_args.json` (the
 * first invocation defines the run), so `--resume RUN` alone finishes exactly
 * the scenarios that run was started with. Options that define the run may be
 * passed again only with the same value; options that only say how to run it
 * (concurrency, retries, token, progress output) may change.
 */
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { pathExists } from '../results/files.js';
import type { EvaluationOptions } from './options.js';
import { readRunArgs } from './run-args.js';
import type { RunArgsFile } from './run-args.js';

/** Options that define what a run covers and how it is scored, with the flags that set them. */
export const RUN_DEFINING_OPTIONS = {
  domains: '--domain',
  scenarios: '--scenarios',
  dataRoot: '--data-root',
  trials: '--trials',
  shard: '--shard',
  durationSeconds: '--duration',
  maxTurns: '--max-turns',
  agentUrl: '--agent-url',
  userUrl: '--user-url',
  agentLlm: '--agent-llm-base-url/--agent-llm-model',
  userLlm: '--user-llm-base-url/--user-llm-model',
  judge: '--judge-url/--judge-model/--judge-threshold',
  scorer: '--scorer',
  faults: '--faulty-agent',
  minAgentTurns: '--min-agent-turns',
  mode: '--mode',
  audioClock: '--audio-clock',
  speech: '--stt/--tts and the other voice flags',
  speechComplexity: '--speech-complexity',
  callerEffects: '--caller-effects',
  noiseDir: '--noise-dir',
  interruption: '--interruption',
} as const satisfies Partial<Record<keyof EvaluationOptions, string>>;

type RunDefiningKey = keyof typeof RUN_DEFINING_OPTIONS;

/**
 * The options this invocation runs with: those given, or for `resume`, the run's own arguments
 * (from the `run_args.json` in `filesDir`) with this invocation's other options. `recordedWork`:
 * the scenarios the resumed run was started with, when it recorded them.
 */
export async function optionsForRun(
  given: EvaluationOptions,
  runDir: string,
  filesDir: string,
): Promise<{ options: EvaluationOptions; recordedWork?: string[] | undefined }> {
  if (!given.resume) return { options: given };
  if (given.runId !== undefined && given.runId !== given.resume)
    throw new Error(`--run-id ${given.runId} contradicts --resume ${given.resume}`);
  if (!(await pathExists(runDir))) throw new Error(`nothing to resume: ${runDir} does not exist`);
  const runArgs = await readRunArgs(filesDir);
  if (!runArgs)
    throw new Error(
      `cannot resume ${filesDir}: it has no run_args.json, so the run's arguments are unknown ` +
        '(it was stopped before it started, or is a shard: give its --shard; start it again)',
    );
  const { options, scenarioKeys } = resumedOptions(filesDir, runArgs, given);
  return { options, recordedWork: scenarioKeys };
}

/**
 * The options of a resumed run: the run-defining options stored by the run's
 * first invocation, with this invocation's other options. Throws, naming the
 * flags, when a run-defining option was passed with a different value.
 */
export function resumedOptions(
  runDir: string,
  runArgs: RunArgsFile,
  given: EvaluationOptions,
): { options: EvaluationOptions; scenarioKeys: string[] | undefined } {
  const first = runArgs.invocations[0];
  const stored = first?.parsed_args;
  if (!stored || typeof stored !== 'object')
    throw new Error(`cannot resume: ${join(runDir, 'run_args.json')} records no arguments`);
  const options: EvaluationOptions = { ...given };
  const conflicts: string[] = [];
  for (const key of Object.keys(RUN_DEFINING_OPTIONS) as RunDefiningKey[]) {
    const before = withoutSecrets(Object.hasOwn(stored, key) ? stored[key] : undefined);
    const now = given[key];
    if (
      now !== undefined &&
      !isDeepStrictEqual(normalise(withoutSecrets(now)), normalise(before))
    ) {
      conflicts.push(
        `${RUN_DEFINING_OPTIONS[key]} (the run has ${describe(before)}, given ${describe(now)})`,
      );
      continue;
    }
    // The value given (equal but for secrets, which are never stored) wins over the stored one.
    if (now !== undefined) continue;
    if (before === undefined) delete options[key];
    else restore(options, key, before);
  }
  if (conflicts.length > 0) {
    throw new Error(
      `cannot resume ${runDir}: these options differ from the run's own arguments ` +
        `(run_args.json): ${conflicts.join('; ')}. Leave them out to use the run's values.`,
    );
  }
  if (typeof options.dataRoot !== 'string')
    throw new Error(`cannot resume: ${join(runDir, 'run_args.json')} records no data root`);
  const keys = first.resolved_scenario_names;
  return {
    options,
    scenarioKeys:
      Array.isArray(keys) && keys.every((k) => typeof k === 'string') ? keys : undefined,
  };
}

/** Throws when the planned work is not the work the run was started with. */
export function checkSameWork(
  runDir: string,
  recorded: readonly string[],
  planned: readonly string[],
) {
  const plannedSet = new Set(planned);
  const recordedSet = new Set(recorded);
  const missing = recorded.filter((k) => !plannedSet.has(k));
  const extra = planned.filter((k) => !recordedSet.has(k));
  if (missing.length === 0 && extra.length === 0) return;
  const list = (names: string[]) =>
    names.slice(0, 5).join(', ') + (names.length > 5 ? `, ... (${names.length} in all)` : '');
  throw new Error(
    `cannot resume ${runDir}: the scenarios now found differ from the run's ` +
      [
        missing.length > 0 ? `no longer found: ${list(missing)}` : '',
        extra.length > 0 ? `not in the run: ${list(extra)}` : '',
      ]
        .filter(Boolean)
        .join('; ') +
      ' (did the data root or the domain data change?)',
  );
}

/** Put back a run-defining option as the run's first invocation stored it. */
function restore<K extends RunDefiningKey>(options: EvaluationOptions, key: K, stored: unknown) {
  options[key] = stored as EvaluationOptions[K];
}

/** Settings without the API key that `run_args.json` stores redacted. */
function withoutSecrets(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || !Object.hasOwn(value, 'apiKey')) return value;
  const copy = { ...(value as Record<string, unknown>) };
  delete copy['apiKey'];
  return copy;
}

/** JSON round trip, so values read back from the file compare equal to fresh ones. */
function normalise(value: unknown): unknown {
  return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
}

function describe(value: unknown): string {
  return value === undefined ? 'none' : JSON.stringify(value);
}
