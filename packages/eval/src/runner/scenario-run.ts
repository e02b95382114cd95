/**
 * One scenario of a run: its expected end state (gold replay, once per scenario), the bridged
 * conversation (retried when the infrastructure failed), its score, and its files.
 *
 * @module
 */
import { join } from 'node:path';
import type { DbCache } from '@scenaro/agent/scenario';
import { runBridgedScenario } from '../bridge/bridge.js';
import type { AudioModeOptions, BridgeOptions } from '../bridge/bridge.js';
import type { ScenarioRun } from '../bridge/types.js';
import { writeScenarioFiles } from '../results/scenario-files.js';
import { computeExpected } from '../scenario/expected.js';
import type { ExpectedState } from '../scenario/expected.js';
import type { WorkItem } from '../scenario/select.js';
import { scoreRun } from '../scoring/score.js';
import type { ScenarioMetrics } from '../scoring/types.js';
import { conversationWav } from './audio-files.js';
import type { EvaluationOptions } from './options.js';
import type { ProgressDisplay } from './progress.js';
import { scenarioCaller } from './caller-run.js';
import type { RunCallerParts, ScenarioCallerSetup } from './caller-run.js';
import { writeScenarioInteraction } from './interaction-files.js';

/** Where the bots of a run listen. */
export interface BotEndpoints {
  agentUrl: string;
  userUrl: string;
  token?: string | undefined;
}

/** What every scenario of a run shares. */
export interface ScenarioRunContext {
  runDir: string;
  dataRoot: string;
  dbCache: DbCache;
  bots: BotEndpoints;
  audio: AudioModeOptions | undefined;
  options: EvaluationOptions;
  minAgentTurns: number;
  progress: ProgressDisplay;
  /** Expected end states by scenario name (trials of a scenario share one replay). */
  expected: Map<string, Promise<ExpectedState>>;
  /** With caller effects: the callers' configs and voices. */
  callers?: RunCallerParts;
  /** Full duplex: the bots may talk over each other, and each scenario gets its panel. */
  panel?: boolean;
}

/** Run, score and write one scenario; its metrics are what `metrics.json` holds. */
export async function runOneScenario(
  context: ScenarioRunContext,
  item: WorkItem,
): Promise<ScenarioMetrics> {
  const dir = join(context.runDir, item.key);
  const expected = await expectedState(context, item);
  const caller = context.callers ? await scenarioCaller(context.callers, item) : undefined;
  const run = await bridgeWithRetries(context, item, expected, caller);
  const scored = await scoreRun(item, run, expected, {
    dir,
    minAgentTurns: context.minAgentTurns,
    scorer: context.options.scorer ?? 'nemo',
    ...(context.options.judge ? { judge: context.options.judge } : {}),
  });
  const metrics = context.panel
    ? { ...scored, ...(await writeScenarioInteraction(dir, run.audio, caller)) }
    : scored;
  await writeScenarioFiles(dir, item.scenario, run, metrics, {
    ...(metrics.db_diff ? { dbDiff: metrics.db_diff } : {}),
    ...(run.audio ? { wav: conversationWav(run.audio) } : {}),
  });
  context.progress.finished(
    item.key,
    run.failure ? 'error' : outcomeOf(metrics),
    run.failure ? run.failure.message : metrics.stop_reason,
  );
  return metrics;
}

/** How a scenario's metrics count in the progress display. */
export function outcomeOf(metrics: ScenarioMetrics): 'passed' | 'failed' | 'not-scored' {
  const ok = metrics.is_successful;
  if (ok === true) return 'passed';
  if (ok === false) return 'failed';
  return 'not-scored';
}

function expectedState(context: ScenarioRunContext, item: WorkItem): Promise<ExpectedState> {
  let expected = context.expected.get(item.scenario.name);
  if (!expected) {
    expected = computeExpected(item.scenario, item.domain, {
      dataRoot: context.dataRoot,
      dbCache: context.dbCache,
      ...(item.domain.dataRoot ? { extraRoots: [item.domain.dataRoot] } : {}),
    });
    context.expected.set(item.scenario.name, expected);
  }
  return expected;
}

/** The bridged conversation; a failure of the infrastructure is retried (`retries`, default 2). */
async function bridgeWithRetries(
  context: ScenarioRunContext,
  item: WorkItem,
  expected: ExpectedState,
  caller: ScenarioCallerSetup | undefined,
): Promise<ScenarioRun> {
  const attempts = (context.options.retries ?? 2) + 1;
  for (let attempt = 1; ; attempt++) {
    const options = bridgeOptions(context, item, expected, caller);
    const run = await runBridgedScenario(item.scenario, options);
    if (!run.failure?.infrastructure || attempt >= attempts) return run;
    context.progress.note(
      `retrying ${item.key} (attempt ${attempt + 1}/${attempts}): ${run.failure.message}`,
    );
    await new Promise((r) => setTimeout(r, 500 * attempt));
  }
}

function bridgeOptions(
  context: ScenarioRunContext,
  item: WorkItem,
  expected: ExpectedState,
  caller: ScenarioCallerSetup | undefined,
): BridgeOptions {
  const { options, bots } = context;
  const audio =
    context.audio && context.panel
      ? { ...context.audio, duplex: caller?.duplex ?? {} }
      : context.audio;
  return {
    agentUrl: bots.agentUrl,
    userUrl: caller?.userUrl ?? bots.userUrl,
    ...(bots.token !== undefined ? { token: bots.token } : {}),
    domain: item.domain,
    dataRoot: context.dataRoot,
    dbCache: context.dbCache,
    ...(options.durationSeconds !== undefined ? { durationSeconds: options.durationSeconds } : {}),
    ...(options.maxTurns !== undefined ? { maxTurns: options.maxTurns } : {}),
    ...(options.faults ? { faults: options.faults } : {}),
    ...(expected.dbHash ? { expectedDbHash: expected.dbHash } : {}),
    ...(item.domain.dataRoot ? { extraDataRoots: [item.domain.dataRoot] } : {}),
    ...(audio ? { audio } : {}),
  };
}
