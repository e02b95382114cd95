/**
 * The runner's entry point to scoring: score one bridged scenario, against the end states gold
 * replay expects, with the scorer the run selected.
 *
 * @module
 */
import type { ScenarioRun } from '../bridge/types.js';
import { registryFor } from '../scenario/expected.js';
import type { ExpectedState } from '../scenario/expected.js';
import type { WorkItem } from '../scenario/select.js';
import { attributionFor } from './attribution.js';
import { audioMetrics } from './audio-metrics.js';
import { createJudge } from './judge.js';
import type { JudgeConfig } from './judge.js';
import { scoreScenario } from './nemo.js';
import { registryPredicates } from './score-input.js';
import type { ScenarioMetrics } from './types.js';
import { scoreScenarioTau2 } from './tau2.js';
import type { Tau2ScoreInput } from './tau2.js';

/** Which rules score the run. */
export type ScorerName = 'nemo' | 'tau2';
/** The judge's endpoint; the judge is off unless this is given. */
export type JudgeSettings = JudgeConfig & { baseURL: string; model: string };

/** Score with the NeMo composite (`'nemo'`, the default) or tau2's reward (`'tau2'`). */
export function scoreScenarioWith(
  scorer: ScorerName,
  input: Tau2ScoreInput,
): Promise<ScenarioMetrics> {
  return scorer === 'tau2' ? scoreScenarioTau2(input) : scoreScenario(input);
}

/**
 * Whether a db diff is wanted but the run's summary carried no db: re-request
 * `get_scenario_summary {include_db: true}` from that bot and score again with `actualDb` /
 * `actualUserDb`.
 */
export function needsIncludeDb(metrics: Pick<ScenarioMetrics, 'db_diff' | 'user_db_diff'>): {
  agent: boolean;
  user: boolean;
} {
  return {
    agent: metrics.db_diff?.status === 'needs_include_db',
    user: metrics.user_db_diff?.status === 'needs_include_db',
  };
}

/**
 * Score one scenario run; an audio-mode run also gets its audio measures (`audio`), and a failed
 * one the first point where it left the gold path (`failure_attribution`).
 */
export async function scoreRun(
  item: WorkItem,
  run: ScenarioRun,
  expected: ExpectedState,
  options: { dir: string; minAgentTurns: number; scorer: ScorerName; judge?: JudgeSettings },
): Promise<ScenarioMetrics> {
  const judge = options.judge ? createJudge(options.judge) : undefined;
  const metrics = await scoreScenarioWith(options.scorer, {
    scenario: item.scenario,
    run,
    ...(expected.db !== undefined ? { expectedDb: expected.db } : {}),
    ...(expected.userDb !== undefined ? { expectedUserDb: expected.userDb } : {}),
    expectedDbHash: expected.dbHash,
    expectedUserDbHash: expected.userDbHash,
    predicates: registryPredicates(registryFor(item.domain), item.scenario.domain),
    // The scenario's own reference answer (e.g. the order of a restaurant scenario), else what
    // gold replay recorded (write tools), as the reference harness has it.
    referenceAnswer: item.scenario.referenceAnswer ?? { actions: expected.recordedActions },
    ...(item.scenario.actionMatch ? { matchOptions: item.scenario.actionMatch } : {}),
    ...(judge ? { judge } : {}),
    minAgentTurns: options.minAgentTurns,
    scenarioDirectory: options.dir,
    trial: item.trial,
  });
  const scored = run.audio ? { ...metrics, audio: audioMetrics(run.audio) } : metrics;
  if (scored.is_successful !== false) return scored;
  const attribution = attributionFor(
    scored,
    expected.recordedActions,
    item.scenario.userInstructions,
  );
  return { ...scored, failure_attribution: attribution };
}
