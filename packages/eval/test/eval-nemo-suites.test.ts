// NeMo's suites besides tau2, run end to end through real bots with the scripted policies.
import { describe, expect, it } from 'vitest';
import { runEvaluation } from '../src/index.js';
import type { EvaluationOptions, ScenarioMetrics } from '../src/index.js';
import { collectingStream, hasSharedData, sharedData, tempOutput } from './helpers.js';

function run(domain: string, options: Partial<EvaluationOptions> = {}) {
  return runEvaluation({
    domains: [domain],
    dataRoot: sharedData,
    outputDir: tempOutput(),
    runId: domain,
    concurrency: 8,
    progressStream: collectingStream(),
    ...options,
  });
}

function failures(metrics: readonly Record<string, unknown>[]): string[] {
  return (metrics as unknown as ScenarioMetrics[])
    .filter((m) => m.is_successful !== true)
    .map(
      (m) =>
        `${m.scenario_name}: ${JSON.stringify(m.success_breakdown)} ${m.not_scored_reason ?? ''}`,
    );
}

describe.skipIf(!hasSharedData)('scenaro eval on the NeMo suites (scripted policies)', () => {
  it('eva_airline: every scenario succeeds by db hash and clean exit', async () => {
    const result = await run('eva_airline');
    expect(result.metrics).toHaveLength(50);
    expect(failures(result.metrics)).toEqual([]);
    for (const m of result.metrics) expect(m.db_state_match).toBe(true);
  }, 180_000);
});
