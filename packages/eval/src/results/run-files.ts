/**
 * A run's run-level files: `all_metrics.json`, `all_summary.txt`, `all_latencies.csv` and
 * `report.html`, written once every scenario is scored (or, for a merge, read back).
 *
 * @module
 */
import { join } from 'node:path';
import { renderReport } from '../report/html.js';
import { writeFileAtomic, writeJsonAtomic } from './files.js';
import { aggregateRun } from '../scoring/aggregate.js';
import type { RunAggregate } from '../scoring/aggregate.js';
import { formatSummary } from '../scoring/summary.js';
import type { ScenarioMetrics } from '../scoring/types.js';

function csvField(value: unknown): string {
  const text = String(value ?? '');
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** `all_latencies.csv`: one row per agent turn with its latency. */
export function latenciesCsv(metrics: readonly ScenarioMetrics[]): string {
  const rows = ['Scenario,User_Transcript,Agent_Transcript,Latency_ms'];
  for (const m of metrics) {
    const turns = (m.turns ?? []) as {
      role?: string;
      text?: string;
      latency_ms?: number;
      latencyMs?: number;
    }[];
    let lastUser = '';
    for (const turn of turns) {
      if (turn.role === 'user') lastUser = turn.text ?? '';
      const latency = turn.latency_ms ?? turn.latencyMs;
      if (turn.role === 'agent' && typeof latency === 'number') {
        rows.push(
          [m.scenario_name, lastUser, turn.text ?? '', latency.toFixed(1)].map(csvField).join(','),
        );
      }
    }
  }
  return `${rows.join('\n')}\n`;
}

/** Aggregate the run and write its run-level files into `runDir`. */
export async function finishRun(
  runDir: string,
  metrics: readonly ScenarioMetrics[],
  options: { minAgentTurns?: number } = {},
): Promise<RunAggregate> {
  const aggregate = aggregateRun(
    metrics,
    options.minAgentTurns !== undefined ? { minAgentTurns: options.minAgentTurns } : {},
  );
  await Promise.all([
    writeJsonAtomic(join(runDir, 'all_metrics.json'), metrics),
    writeFileAtomic(join(runDir, 'all_summary.txt'), formatSummary(aggregate, metrics)),
    writeFileAtomic(join(runDir, 'all_latencies.csv'), latenciesCsv(metrics)),
    writeFileAtomic(
      join(runDir, 'report.html'),
      renderReport({
        aggregate,
        metrics,
        runId: runDir.split('/').pop() ?? runDir,
        generatedAt: new Date(),
      }),
    ),
  ]);
  return aggregate;
}
