/**
 * One entry point for the runner: score a scenario with the scorer the run selected.
 *
 * @module
 */
import { scoreScenario } from './nemo.js';
import type { ScenarioMetrics } from './types.js';
import { scoreScenarioTau2 } from './tau2.js';
import type { Tau2ScoreInput } from './tau2.js';

/** Score with the NeMo composite (`'nemo'`, the default) or tau2's reward (`'tau2'`). */
export function scoreScenarioWith(
  scorer: 'nemo' | 'tau2',
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
