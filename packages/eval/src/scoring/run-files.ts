/**
 * A run's scoring files: `all_metrics.json`, `all_summary.txt`, `all_latencies.csv` and
 * `report.html`, written once every scenario is scored.
 *
 * @module
 */
import { join } from 'node:path';
import { renderReport } from '../report/html.js';
import { writeFileAtomic, writeJsonAtomic } from '../runner/files.js';
import type { WorkItem } from '../runner/select.js';
import { aggregateRun, coerceMetrics } from './aggregate.js';
import type { RunAggregate } from './aggregate.js';
import { formatSummary } from './summary.js';
import type { ScenarioMetrics } from './types.js';

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

/** Aggregate the run and write its run-level files. */
export async function finishRun(
  runDir: string,
  rawMetrics: readonly Record<string, unknown>[] | readonly ScenarioMetrics[],
  _work: readonly WorkItem[] | undefined,
  options: { trials: number; minAgentTurns?: number },
): Promise<RunAggregate> {
  const metrics = rawMetrics.map((m) => coerceMetrics(m));
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
