/**
 * The evaluation runner: plans the work (domains, scenarios, trials, shard),
 * resumes an interrupted run without losing or repeating a scenario, runs
 * scenarios concurrently through the bridge against local or remote bots,
 * retries infrastructure failures only, scores each scenario, and writes the
 * per-scenario and per-run files and the HTML report.
 */
import { rename } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { DbCache } from '@scenaro/agent/scenario';
import type { VoiceOptions } from '@scenaro/agent/voice';
import { builtInDomains } from '@scenaro/domains';
import type { AudioModeOptions } from '../bridge/bridge.js';
import type { RelayClock } from '../bridge/audio-timeline.js';
import { pathExists, removeUnfinishedWrites } from '../results/files.js';
import { finishedMetrics } from '../results/finished.js';
import { finishRun } from '../results/run-files.js';
import { loadScenarios, planWork, shardFolder } from '../scenario/select.js';
import type { WorkItem } from '../scenario/select.js';
import type { ScenarioMetrics } from '../scoring/types.js';
import { startLocalBots } from './bots.js';
import type { LocalBots } from './bots.js';
import type { EvaluationOptions, EvaluationResult } from './options.js';
import { ProgressDisplay } from './progress.js';
import { checkSameWork, optionsForRun } from './resume.js';
import { recordInvocation } from './run-args.js';
import { outcomeOf, runOneScenario } from './scenario-run.js';
import type { BotEndpoints, ScenarioRunContext } from './scenario-run.js';
import { localSpeechSettings, localVoices } from './voices.js';
import type { BotSide } from './voices.js';
import { checkCallerOptions, duplexVoices, hasCallers, isDuplex } from './caller-run.js';
import type { RunCallerParts } from './caller-run.js';
import { CallerVoices } from './caller-voices.js';
import { RunCallers, runSounds } from './callers.js';
import { writeRunInteraction } from './interaction-files.js';
import { runPresets } from './presets.js';
import type { RunFolders, SharedRun } from './run-parts.js';

export type { RunFolders, SharedRun } from './run-parts.js';

/** Full duplex: how long a recognizer's final waits for it to print (wall time), ms. */
const DUPLEX_FINAL_TIMEOUT_MS = 8000;

/** Run an evaluation. Throws only when the run itself cannot be carried out. */
export async function runEvaluation(given: EvaluationOptions): Promise<EvaluationResult> {
  const folders = runFolders(given);
  const { options, recordedWork } = await optionsForRun(given, folders.runDir, folders.filesDir);
  // A resumed run's mode and bots are its own: checked once they are restored.
  checkCallerOptions(options);
  if ((options.speechComplexity?.length ?? 0) > 1)
    return runPresets(options, folders, recordedWork, { planRunWork, runWork, startShared });
  return runWork(options, folders, recordedWork);
}

/**
 * Run the work of `options` into `folders`. `shared`: the bots (and callers' sounds and voices)
 * of a run of several presets; without it they are started here and closed at the end.
 */
export async function runWork(
  options: EvaluationOptions,
  folders: RunFolders,
  recordedWork: readonly string[] | undefined,
  shared?: SharedRun,
): Promise<EvaluationResult> {
  const dataRoot = options.dataRoot;
  if (dataRoot === undefined) throw new Error('a data root is required (dataRoot)');
  const minAgentTurns = options.minAgentTurns ?? 3;
  const work = await planRunWork(options, dataRoot);
  if (recordedWork)
    checkSameWork(
      folders.runDir,
      recordedWork,
      work.map((w) => w.key),
    );
  await recordInvocation(folders.filesDir, options, work);
  const { results, todo } = await keepFinished(folders.runDir, work, minAgentTurns);
  await removeUnfinishedWrites(folders.filesDir);
  const progress = new ProgressDisplay(work.length, options.progressStream ?? process.stderr);
  for (const metrics of results.values())
    progress.finished(metrics.scenario_name, outcomeOf(metrics), 'resumed');

  const run = shared ?? (await startShared(options, work, progress));
  const callers = run.callerParts
    ? await withCallers(run.callerParts, options, dataRoot)
    : undefined;
  const context: ScenarioRunContext = {
    runDir: folders.runDir,
    dataRoot,
    dbCache: run.dbCache,
    bots: run.endpoints,
    audio: audioMode(options, run.told),
    options,
    minAgentTurns,
    progress,
    expected: new Map(),
    ...(callers ? { callers } : {}),
    panel: isDuplex(options),
  };
  try {
    await inPool(todo, options.concurrency ?? 4, async (item) => {
      results.set(item.key, await runOneScenario(context, item));
    });
  } finally {
    progress.end();
    if (!shared) await run.close();
  }

  const metrics = work
    .map((w) => results.get(w.key))
    .filter((m): m is ScenarioMetrics => m !== undefined);
  const aggregate = await finishRun(folders.filesDir, metrics, { minAgentTurns });
  await writeRunInteraction(folders.filesDir, metrics);
  return {
    ...folders,
    ran: todo.length,
    resumed: work.length - todo.length,
    metrics,
    aggregate,
  };
}

/** Start what the scenarios of `work` share. */
async function startShared(
  options: EvaluationOptions,
  work: readonly WorkItem[],
  progress: ProgressDisplay,
): Promise<SharedRun> {
  const dbCache = new DbCache();
  const audio = audioMode(options);
  const bots = await startBotsIfLocal(options, work, {
    dataRoot: options.dataRoot ?? '',
    dbCache,
    audio,
    progress,
  });
  const close = async () => void (await bots.local?.close());
  const told = bots.told && bots.told.length > 0 ? { told: bots.told } : {};
  if (!hasCallers(options) || !bots.local || !bots.voices) {
    return { dbCache, endpoints: bots.endpoints, ...told, close };
  }
  try {
    const sounds = await runSounds(options.noiseDir);
    const voices = new CallerVoices({
      bots: bots.local,
      clock: audio?.clock ?? 'fast',
      userVoice: bots.voices.user,
      ...(options.voice ? {} : { userSettings: (options.speech ?? localSpeechSettings()).user }),
    });
    return {
      dbCache,
      endpoints: bots.endpoints,
      callerParts: { sounds, voices },
      ...told,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The callers of one run (one preset) from the shared parts. */
async function withCallers(
  parts: NonNullable<SharedRun['callerParts']>,
  options: EvaluationOptions,
  dataRoot: string,
): Promise<RunCallerParts | undefined> {
  if (!hasCallers(options)) return undefined;
  const preset = options.speechComplexity?.[0];
  const callers = await RunCallers.create({
    dataRoot,
    sounds: parts.sounds,
    ...(preset ? { preset } : {}),
    ...(options.callerEffects ? { effects: options.callerEffects } : {}),
  });
  return { callers, voices: parts.voices };
}

function runFolders(given: EvaluationOptions): RunFolders {
  const outputDir = resolve(given.outputDir ?? './eval-results');
  const runId = given.resume ?? given.runId ?? timestamp();
  const runDir = join(outputDir, runId);
  // A shard keeps its run-level files in a folder of its own: shards share the run folder.
  return { runDir, filesDir: given.shard ? join(runDir, shardFolder(given.shard)) : runDir };
}

/** The scenarios × trials of this run (this shard's share). */
export async function planRunWork(
  options: EvaluationOptions,
  dataRoot: string,
): Promise<WorkItem[]> {
  const loaded = await loadScenarios(builtInDomains(), options.domains, dataRoot);
  const work = planWork(loaded, {
    ...(options.scenarios ? { scenarios: options.scenarios } : {}),
    trials: options.trials ?? 1,
    ...(options.shard ? { shard: options.shard } : {}),
  });
  if (work.length === 0)
    throw new Error('no scenarios to run (check --domain, --scenarios and --shard)');
  return work;
}

/**
 * Finished scenario folders are kept; an unfinished one (a killed attempt) is set aside as
 * `<key>.killed.<time>` and its scenario runs again. What the killed run left half-written (the
 * temporary files of its atomic writes) is removed: the attempt's complete files stay.
 */
async function keepFinished(
  runDir: string,
  work: readonly WorkItem[],
  minAgentTurns: number,
): Promise<{ results: Map<string, ScenarioMetrics>; todo: WorkItem[] }> {
  const results = new Map<string, ScenarioMetrics>();
  const todo: WorkItem[] = [];
  for (const item of work) {
    const dir = join(runDir, item.key);
    const done = await finishedMetrics(dir, minAgentTurns);
    if (done) {
      results.set(item.key, done);
      continue;
    }
    if (await pathExists(dir)) {
      const aside = join(runDir, `${item.key}.killed.${timestamp()}`);
      await rename(dir, aside);
      await removeUnfinishedWrites(aside, true);
    }
    todo.push(item);
  }
  return { results, todo };
}

/** Audio mode's options; `tell`: the local bots whose recognizer is told what was said. */
function audioMode(
  options: EvaluationOptions,
  tell: readonly BotSide[] = [],
): AudioModeOptions | undefined {
  return options.mode === 'audio'
    ? {
        ...options.audio,
        clock: options.audioClock ?? 'realtime',
        ...(tell.length > 0 ? { tell } : {}),
      }
    : undefined;
}

/**
 * The bots to talk to: those given (`agentUrl` and `userUrl`), else local bots started for the
 * run's domains, with voices in audio mode.
 */
async function startBotsIfLocal(
  options: EvaluationOptions,
  work: readonly WorkItem[],
  run: {
    dataRoot: string;
    dbCache: DbCache;
    audio: AudioModeOptions | undefined;
    progress: ProgressDisplay;
  },
): Promise<{
  endpoints: BotEndpoints;
  local?: LocalBots;
  voices?: Record<'agent' | 'user', VoiceOptions>;
  told?: BotSide[];
}> {
  const { agentUrl, userUrl } = options;
  const local = !agentUrl || !userUrl;
  if (options.speech && !local)
    throw new Error('speech settings are for the local bots; the bots given have their own voices');
  if (!local) return { endpoints: { agentUrl, userUrl, token: options.token } };
  const built = run.audio ? await localBotVoices(run.audio.clock, options) : undefined;
  const voice = built && isDuplex(options) ? duplexVoices(built, options) : built;
  const bots = await startLocalBots({
    domains: new Set(work.map((w) => w.domain)),
    dataRoot: run.dataRoot,
    dbCache: run.dbCache,
    ...(voice ? { voice } : {}),
    ...(options.agentLlm ? { agentLlm: options.agentLlm } : {}),
    ...(options.userLlm ? { userLlm: options.userLlm } : {}),
  });
  run.progress.note(`started local bots: agent ${bots.agentUrl}, user ${bots.userUrl}`);
  // A local bot whose recognizer is told what was said (the oracle) is told it by the bridge.
  const told = (['agent', 'user'] as const).filter(
    (side) => (side === 'agent' ? !agentUrl : !userUrl) && voice?.[side].stt?.toldText === true,
  );
  return {
    endpoints: {
      agentUrl: agentUrl ?? bots.agentUrl,
      userUrl: userUrl ?? bots.userUrl,
      token: bots.token,
    },
    local: bots,
    ...(voice ? { voices: voice } : {}),
    told,
  };
}

/** The local bots' voices: those given, those the speech settings describe, or the offline ones. */
async function localBotVoices(
  clock: RelayClock,
  options: EvaluationOptions,
): Promise<Record<'agent' | 'user', VoiceOptions>> {
  // Full duplex: the bots hear in step with the relay, so a recognizer that prints nothing for
  // long is stuck on noise, not decoding a long utterance at once.
  const tuning = isDuplex(options)
    ? { stt: { pocketsphinx: { finalTimeoutMs: DUPLEX_FINAL_TIMEOUT_MS } } }
    : undefined;
  return localVoices(clock, options.voice, options.speech, tuning);
}

/** Run `task` over `items`, at most `concurrency` at once, in order of `items`. */
async function inPool<T>(
  items: readonly T[],
  concurrency: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) await task(items[next++] as T);
  });
  await Promise.all(workers);
}

function timestamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-').replace('T', '_').slice(0, 19);
}
