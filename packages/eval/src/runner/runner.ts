/**
 * The evaluation runner: plans the work (domains, scenarios, trials, shard),
 * resumes an interrupted run without losing or repeating a scenario, runs
 * scenarios concurrently through the bridge against local or remote bots,
 * retries infrastructure failures only, scores each scenario, and writes the
 * per-scenario and per-run files and the HTML report.
 */
import { readFile, readdir, rename, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { DbCache } from '@scenaro/agent';
import type { ScriptedFault, VoiceOptions } from '@scenaro/agent';
import { builtInDomains } from '@scenaro/domains';
import { runBridgedScenario } from '../bridge/bridge.js';
import type { AudioModeOptions } from '../bridge/bridge.js';
import type { RelayClock } from '../bridge/audio-timeline.js';
import { localVoices } from './voices.js';
import type { SpeechSettings } from './voices.js';
import { conversationWav } from './audio-files.js';
import { audioMetrics } from '../scoring/audio-metrics.js';
import type { ScenarioRun } from '../bridge/types.js';
import { startLocalBots } from './bots.js';
import type { LlmSettings, LocalBots } from './bots.js';
import { computeExpected } from './expected.js';
import type { ExpectedState } from './expected.js';
import { writeJsonAtomic } from './files.js';
import { ProgressDisplay } from './progress.js';
import { writeScenarioFiles } from './scenario-files.js';
import { loadScenarios, planWork } from './select.js';
import { checkSameWork, readRunArgs, resumedOptions } from './resume.js';
import { shardFolder } from './select.js';
import type { Shard, WorkItem } from './select.js';
import { finishRun } from '../scoring/run-files.js';
import { scoreRun } from '../scoring/score.js';
import type { JudgeSettings, ScorerName } from '../scoring/score.js';
import type { RunAggregate } from '../scoring/aggregate.js';

/** Everything a run can be told. */
export interface EvaluationOptions {
  /** Domains to run (scenario-name prefixes). @default every built-in domain */
  domains?: string[];
  /** Only these scenarios. */
  scenarios?: string[];
  /** tau2 data root. Required, except when resuming: a resumed run keeps its own. */
  dataRoot?: string;
  /** Where run folders go. @default ./eval-results */
  outputDir?: string;
  /** Name of the run folder. @default a timestamp */
  runId?: string;
  /**
   * Resume this run folder (in outputDir): finished scenarios are kept, the rest re-run. The run's
   * own arguments (run_args.json) apply; a run-defining option given with another value is refused.
   */
  resume?: string;
  /** Scenarios at once. @default 4 */
  concurrency?: number;
  /** Runs of each scenario (pass^k). @default 1 */
  trials?: number;
  shard?: Shard;
  /** Override every scenario's duration, seconds. */
  durationSeconds?: number;
  /** Turn limit per side. @default 30 */
  maxTurns?: number;
  /** Use running bots instead of starting local ones. */
  agentUrl?: string;
  userUrl?: string;
  token?: string;
  agentLlm?: LlmSettings;
  userLlm?: LlmSettings;
  judge?: JudgeSettings;
  scorer?: ScorerName;
  /** Faults injected into the scripted reference agent. */
  faults?: ScriptedFault[];
  /** Retries of a scenario whose failure was in the infrastructure. @default 2 */
  retries?: number;
  /** Stall rule threshold. @default 3 */
  minAgentTurns?: number;
  /** Where the progress display goes. @default stderr */
  progressStream?: { write(text: string): unknown; isTTY?: boolean };
  /** The command line, for run_args.json. */
  argv?: string[];
  /** `text` (default): turns relayed as text; `audio`: the bots' speech relayed between them. */
  mode?: 'text' | 'audio';
  /** Audio mode's clock. @default 'realtime' */
  audioClock?: RelayClock;
  /** Audio mode: time limits and the fast clock's trailing silence (see `AudioModeOptions`). */
  audio?: Omit<AudioModeOptions, 'clock'>;
  /**
   * Audio mode, local bots: their voices (engines). @default offline engines: PocketSphinx, and
   * Flite with voice slt for the agent and rms for the user
   */
  voice?: Record<'agent' | 'user', VoiceOptions>;
  /**
   * Audio mode, local bots: each bot's voice settings as `scenaro serve`'s voice flags give
   * them (recorded with the run, so a resumed run keeps them), built through the speech-engine
   * registry. Ignored when `voice` is given.
   */
  speech?: SpeechSettings;
}

/** What a run produced. */
export interface EvaluationResult {
  runDir: string;
  /** Where the run-level files are: the run folder, or a shard's folder in it. */
  filesDir: string;
  ran: number;
  resumed: number;
  metrics: Record<string, unknown>[];
  aggregate: RunAggregate;
}

function timestamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-').replace('T', '_').slice(0, 19);
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Is the scenario folder a finished result (the reference's resume rule)? */
export async function finishedMetrics(
  dir: string,
  minAgentTurns: number,
): Promise<Record<string, unknown> | undefined> {
  try {
    const metrics = JSON.parse(await readFile(join(dir, 'metrics.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    const turns = metrics['total_turns'];
    const calls =
      (metrics['token_usage'] as { agent?: { n_calls?: number } } | undefined)?.agent?.n_calls ?? 0;
    if (typeof turns === 'number' && turns > 0 && calls >= minAgentTurns) return metrics;
  } catch {
    // not finished
  }
  return undefined;
}

/** Run an evaluation. Throws only when the run itself cannot be carried out. */
export async function runEvaluation(given: EvaluationOptions): Promise<EvaluationResult> {
  const outputDir = resolve(given.outputDir ?? './eval-results');
  const runId = given.resume ?? given.runId ?? timestamp();
  const runDir = join(outputDir, runId);
  // A shard keeps its run-level files in a folder of its own: shards share the run folder.
  const filesDir = given.shard ? join(runDir, shardFolder(given.shard)) : runDir;
  let options = given;
  let recordedWork: string[] | undefined;
  if (given.resume) {
    if (given.runId !== undefined && given.runId !== given.resume)
      throw new Error(`--run-id ${given.runId} contradicts --resume ${given.resume}`);
    if (!(await exists(runDir))) throw new Error(`nothing to resume: ${runDir} does not exist`);
    const runArgs = await readRunArgs(filesDir);
    if (!runArgs)
      throw new Error(
        `cannot resume ${filesDir}: it has no run_args.json, so the run's arguments are unknown ` +
          '(it was stopped before it started, or is a shard: give its --shard; start it again)',
      );
    ({ options, scenarioKeys: recordedWork } = resumedOptions(filesDir, runArgs, given));
  }
  const dataRoot = options.dataRoot;
  if (dataRoot === undefined) throw new Error('a data root is required (dataRoot)');
  const minAgentTurns = options.minAgentTurns ?? 3;
  const domains = builtInDomains();
  const loaded = await loadScenarios(domains, options.domains, dataRoot);
  const work = planWork(loaded, {
    ...(options.scenarios ? { scenarios: options.scenarios } : {}),
    trials: options.trials ?? 1,
    ...(options.shard ? { shard: options.shard } : {}),
  });
  if (work.length === 0)
    throw new Error('no scenarios to run (check --domain, --scenarios and --shard)');
  if (recordedWork)
    checkSameWork(
      runDir,
      recordedWork,
      work.map((w) => w.key),
    );

  await recordInvocation(filesDir, options, work);

  const results = new Map<string, Record<string, unknown>>();
  const todo: WorkItem[] = [];
  for (const item of work) {
    const dir = join(runDir, item.key);
    const done = await finishedMetrics(dir, minAgentTurns);
    if (done) {
      results.set(item.key, done);
      continue;
    }
    if (await exists(dir)) await rename(dir, join(runDir, `${item.key}.killed.${timestamp()}`));
    todo.push(item);
  }

  const progress = new ProgressDisplay(work.length, options.progressStream ?? process.stderr);
  for (const metrics of results.values())
    progress.finished(String(metrics['scenario_name']), outcomeOf(metrics), 'resumed');

  const dbCache = new DbCache();
  const audio: AudioModeOptions | undefined =
    options.mode === 'audio'
      ? { ...options.audio, clock: options.audioClock ?? 'realtime' }
      : undefined;
  let bots: LocalBots | undefined;
  const local = !options.agentUrl || !options.userUrl;
  if (options.speech && !local)
    throw new Error('speech settings are for the local bots; the bots given have their own voices');
  if (local) {
    const voice = audio ? await localBotVoices(audio.clock, options) : undefined;
    bots = await startLocalBots({
      domains: new Set(work.map((w) => w.domain)),
      dataRoot,
      dbCache,
      ...(voice ? { voice } : {}),
      ...(options.agentLlm ? { agentLlm: options.agentLlm } : {}),
      ...(options.userLlm ? { userLlm: options.userLlm } : {}),
    });
    progress.note(`started local bots: agent ${bots.agentUrl}, user ${bots.userUrl}`);
  }
  const agentUrl = options.agentUrl ?? (bots as LocalBots).agentUrl;
  const token = bots ? bots.token : options.token;
  const userUrl = options.userUrl ?? (bots as LocalBots).userUrl;
  const expectedCache = new Map<string, Promise<ExpectedState>>();

  const runOne = async (item: WorkItem): Promise<void> => {
    const dir = join(runDir, item.key);
    let expected = expectedCache.get(item.scenario.name);
    if (!expected) {
      expected = computeExpected(item.scenario, item.domain, {
        dataRoot,
        dbCache,
        ...(item.domain.dataRoot ? { extraRoots: [item.domain.dataRoot] } : {}),
      });
      expectedCache.set(item.scenario.name, expected);
    }
    const expectedState = await expected;
    let run: ScenarioRun | undefined;
    const attempts = (options.retries ?? 2) + 1;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      run = await runBridgedScenario(item.scenario, {
        agentUrl,
        userUrl,
        ...(token !== undefined ? { token } : {}),
        domain: item.domain,
        dataRoot,
        dbCache,
        ...(options.durationSeconds !== undefined
          ? { durationSeconds: options.durationSeconds }
          : {}),
        ...(options.maxTurns !== undefined ? { maxTurns: options.maxTurns } : {}),
        ...(options.faults ? { faults: options.faults } : {}),
        ...(expectedState.dbHash ? { expectedDbHash: expectedState.dbHash } : {}),
        ...(item.domain.dataRoot ? { extraDataRoots: [item.domain.dataRoot] } : {}),
        ...(audio ? { audio } : {}),
      });
      if (!run.failure?.infrastructure || attempt === attempts) break;
      progress.note(
        `retrying ${item.key} (attempt ${attempt + 1}/${attempts}): ${run.failure.message}`,
      );
      await new Promise((r) => setTimeout(r, 500 * attempt));
    }
    const finished = run as ScenarioRun;
    const metrics = await scoreRun(item, finished, expectedState, {
      dir,
      minAgentTurns,
      scorer: options.scorer ?? 'nemo',
      ...(options.judge ? { judge: options.judge } : {}),
    });
    const record = metrics as unknown as Record<string, unknown>;
    if (finished.audio) record['audio'] = audioMetrics(finished.audio);
    const dbDiff = metrics.db_diff;
    await writeScenarioFiles(dir, item.scenario, finished, record, {
      ...(dbDiff ? { dbDiff } : {}),
      ...(finished.audio ? { wav: conversationWav(finished.audio) } : {}),
    });
    results.set(item.key, record);
    progress.finished(
      item.key,
      finished.failure ? 'error' : outcomeOf(record),
      finished.failure ? finished.failure.message : metrics.stop_reason,
    );
  };

  try {
    let next = 0;
    const workers = Array.from(
      { length: Math.min(options.concurrency ?? 4, todo.length) },
      async () => {
        while (next < todo.length) {
          const item = todo[next++] as WorkItem;
          await runOne(item);
        }
      },
    );
    await Promise.all(workers);
  } finally {
    progress.end();
    await bots?.close();
  }

  const ordered = work
    .map((w) => results.get(w.key))
    .filter((m): m is Record<string, unknown> => m !== undefined);
  const aggregate = await finishRun(filesDir, ordered, work, {
    trials: options.trials ?? 1,
    minAgentTurns,
  });
  return {
    runDir,
    filesDir,
    ran: todo.length,
    resumed: work.length - todo.length,
    metrics: ordered,
    aggregate,
  };
}

/** The local bots' voices: those given, those the speech settings describe, or the offline ones. */
async function localBotVoices(
  clock: RelayClock,
  options: EvaluationOptions,
): Promise<Record<'agent' | 'user', VoiceOptions>> {
  return localVoices(clock, options.voice, options.speech);
}

function outcomeOf(metrics: Record<string, unknown>): 'passed' | 'failed' | 'not-scored' {
  const ok = metrics['is_successful'];
  if (ok === true) return 'passed';
  if (ok === false) return 'failed';
  return 'not-scored';
}

async function recordInvocation(
  filesDir: string,
  options: EvaluationOptions,
  work: WorkItem[],
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

/** Scenario folders of a run (for merging). */
export async function scenarioDirs(runDir: string): Promise<string[]> {
  const entries = await readdir(runDir, { withFileTypes: true });
  return entries
    .filter((e) => e.isDirectory() && !e.name.includes('.killed.'))
    .map((e) => join(runDir, e.name));
}
