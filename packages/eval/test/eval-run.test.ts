// Full evaluation runs through real bots and real sockets with the scripted policies.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runEvaluation } from '../src/index.js';
import type { ScenarioMetrics } from '../src/index.js';
import { collectingStream, hasSharedData, runCommerce, sharedData, tempOutput } from './helpers.js';

const SCENARIO_FILES = [
  'metrics.json',
  'final_agent_response.json',
  'final_scenario_db_hash.txt',
  'conversation_log.txt',
  'bridge_log.txt',
  'scenario_config/metadata.json',
  'scenario_config/reference_answer.json',
  'bot_logs_agent/llm_context.json',
  'bot_logs_user/llm_context.json',
];
const RUN_FILES = [
  'all_metrics.json',
  'all_summary.txt',
  'all_latencies.csv',
  'run_args.json',
  'report.html',
];

function expectComplete(runDir: string, metrics: readonly ScenarioMetrics[]): void {
  for (const file of RUN_FILES) expect(existsSync(join(runDir, file)), file).toBe(true);
  for (const m of metrics) {
    for (const file of SCENARIO_FILES) {
      expect(existsSync(join(runDir, m.scenario_name, file)), `${m.scenario_name}/${file}`).toBe(
        true,
      );
    }
  }
  expect(readdirSync(runDir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
}

/** Every scenario that can be scored without a judge succeeded; the rest are "not scored", never failed. */
function expectAllScoredPass(metrics: readonly ScenarioMetrics[]): void {
  const failed = metrics.filter((m) => m.is_successful === false);
  expect(failed.map((m) => `${m.scenario_name}: ${JSON.stringify(m.success_breakdown)}`)).toEqual(
    [],
  );
  for (const m of metrics) {
    if (m.is_successful !== true) expect(String(m.not_scored_reason)).toMatch(/judge/);
  }
}

describe('scenaro eval with the scripted policies', () => {
  it('runs every commerce scenario (shipped data) and writes every file', async () => {
    const output = tempOutput();
    const progress = collectingStream();
    const result = await runCommerce(output, 'commerce', { progressStream: progress });
    expect(result.metrics.length).toBeGreaterThanOrEqual(20);
    expectAllScoredPass(result.metrics);
    expectComplete(result.runDir, result.metrics);
    expect(result.aggregate.scripted).toBe(true);
    expect(readFileSync(join(result.runDir, 'all_summary.txt'), 'utf8')).toMatch(/SCRIPTED/);
    expect(progress.text()).toMatch(/\[\d+\/\d+\] \d+ passed, 0 failed/);
    const report = readFileSync(join(result.runDir, 'report.html'), 'utf8');
    expect(report).not.toMatch(/(src|href)="https?:/);
  }, 120_000);

  for (const domain of ['tau2_airline', 'tau2_retail', 'tau2_telecom']) {
    it.skipIf(!hasSharedData)(
      `scores every ${domain} scenario as the gold plan dictates`,
      async () => {
        const output = tempOutput();
        const result = await runEvaluation({
          domains: [domain],
          dataRoot: sharedData,
          outputDir: output,
          runId: domain,
          concurrency: 8,
          progressStream: collectingStream(),
        });
        expect(result.metrics.length).toBeGreaterThanOrEqual(50);
        expectAllScoredPass(result.metrics);
        expectComplete(result.runDir, result.metrics);
      },
      180_000,
    );
  }
});
