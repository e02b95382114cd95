/**
 * The runner's use of scoring: score one bridged scenario, and write the run-level
 * files (`all_metrics.json`, `all_summary.txt`, `all_latencies.csv`, `report.html`).
 */
import { join } from 'node:path';
import type { ScenarioRun } from '../bridge/types.js';
import { renderReport } from '../report/html.js';
import { aggregateRun, coerceMetrics, formatSummary } from '../scoring/aggregate.js';
import { createJudge } from '../scoring/judge.js';
import type { JudgeConfig } from '../scoring/judge.js';
import { scoreScenarioWith } from '../scoring/score.js';
import { registryPredicates } from '../scoring/signals.js';
import type { RunAggregate } from '../scoring/aggregate.js';
import type { ScenarioMetrics } from '../scoring/types.js';
import { registryFor } from './expected.js';
import type { ExpectedState } from './expected.js';
import { writeFileAtomic, writeJsonAtomic } from './files.js';
import type { WorkItem } from './select.js';

/** Which rules score the run. */
export type ScorerName = 'nemo' | 'tau2';
/** The judge's endpoint; the judge is off unless this is given. */
export type JudgeSettings = JudgeConfig & { baseURL: string; model: string };

/** Score one scenario run. */
export async function scoreRun(
  item: WorkItem,
  run: ScenarioRun,
  expected: ExpectedState,
  options: { dir: string; minAgentTurns: number; scorer: ScorerName; judge?: JudgeSettings },
): Promise<ScenarioMetrics> {
  const judge = options.judge ? createJudge(options.judge) : undefined;
  return scoreScenarioWith(options.scorer, {
    scenario: item.scenario,
    run,
    ...(expected.db !== undefined ? { expectedDb: expected.db } : {}),
    ...(expected.userDb !== undefined ? { expectedUserDb: expected.userDb } : {}),
    expectedDbHash: expected.dbHash,
    expectedUserDbHash: expected.userDbHash,
    predicates: registryPredicates(registryFor(item.domain), item.scenario.domain),
    // The reference answer is what gold replay recorded (write tools), as the reference harness has it.
    referenceAnswer: { actions: expected.recordedActions },
    ...(judge ? { judge } : {}),
    minAgentTurns: options.minAgentTurns,
    scenarioDirectory: options.dir,
    trial: item.trial,
  });
}

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
