/**
 * A run of several speech-complexity presets: the same scenarios once per preset, each preset a
 * run of its own in a folder of the run named after it (`RUN/control/`, `RUN/regular/`, each
 * with its scenario folders, summaries, panel and report), sharing the local bots. The run's
 * folder holds the invocations (`run_args.json`), `comparison.json` and a `report.html` with
 * the presets side by side. `--resume RUN` finishes every preset.
 *
 * @module
 */
import { join } from 'node:path';
import { aggregateInteraction } from '../interaction/panel.js';
import type { InteractionPanel } from '../interaction/types.js';
import { renderPresetComparison } from '../report/presets.js';
import type { PresetSummary } from '../report/presets.js';
import { writeFileAtomic, writeJsonAtomic } from '../results/files.js';
import { aggregateRun } from '../scoring/aggregate.js';
import type { ScenarioMetrics } from '../scoring/types.js';
import type { WorkItem } from '../scenario/select.js';
import type { EvaluationOptions, EvaluationResult, PresetRun } from './options.js';
import { ProgressDisplay } from './progress.js';
import { checkSameWork } from './resume.js';
import { recordInvocation } from './run-args.js';
import type { RunFolders, SharedRun } from './run-parts.js';

/** What the runner lends a run of presets (it would otherwise import the runner back). */
export interface PresetRunParts {
  planRunWork(options: EvaluationOptions, dataRoot: string): Promise<WorkItem[]>;
  runWork(
    options: EvaluationOptions,
    folders: RunFolders,
    recordedWork: readonly string[] | undefined,
    shared?: SharedRun,
  ): Promise<EvaluationResult>;
  startShared(
    options: EvaluationOptions,
    work: readonly WorkItem[],
    progress: ProgressDisplay,
  ): Promise<SharedRun>;
}

/** Run every preset of `options.speechComplexity`, one after another. */
export async function runPresets(
  options: EvaluationOptions,
  folders: RunFolders,
  recordedWork: readonly string[] | undefined,
  parts: PresetRunParts,
): Promise<EvaluationResult> {
  const dataRoot = options.dataRoot;
  if (dataRoot === undefined) throw new Error('a data root is required (dataRoot)');
  const presets = options.speechComplexity ?? [];
  const work = await parts.planRunWork(options, dataRoot);
  const keys = work.map((w) => w.key);
  if (recordedWork) checkSameWork(folders.runDir, recordedWork, keys);
  await recordInvocation(folders.runDir, options, work);
  const note = new ProgressDisplay(0, options.progressStream ?? process.stderr);
  const shared = await parts.startShared(options, work, note);
  const runs: (PresetRun & { metrics: ScenarioMetrics[] })[] = [];
  try {
    for (const preset of presets) {
      const dir = join(folders.runDir, preset);
      note.note(`preset ${preset}: ${work.length} scenario(s) into ${dir}`);
      const started = performance.now();
      const result = await parts.runWork(
        { ...options, speechComplexity: [preset], runId: preset },
        { runDir: dir, filesDir: dir },
        undefined,
        shared,
      );
      runs.push({
        preset,
        dir,
        ran: result.ran,
        resumed: result.resumed,
        aggregate: result.aggregate,
        wallSeconds: (performance.now() - started) / 1000,
        metrics: result.metrics,
      });
    }
  } finally {
    await shared.close();
  }
  const summaries = runs.map(summaryOf);
  await writeJsonAtomic(join(folders.runDir, 'comparison.json'), { presets: summaries });
  await writeFileAtomic(
    join(folders.runDir, 'report.html'),
    renderPresetComparison({
      runId: folders.runDir.split('/').pop() ?? folders.runDir,
      generatedAt: new Date(),
      presets: summaries,
    }),
  );
  const metrics = runs.flatMap((r) => r.metrics);
  return {
    ...folders,
    ran: runs.reduce((n, r) => n + r.ran, 0),
    resumed: runs.reduce((n, r) => n + r.resumed, 0),
    metrics,
    aggregate: aggregateRun(metrics, {
      ...(options.minAgentTurns !== undefined ? { minAgentTurns: options.minAgentTurns } : {}),
    }),
    presets: runs.map(({ metrics: _metrics, ...run }) => run),
  };
}

/** What the comparison shows of one preset's run. */
function summaryOf(run: PresetRun & { metrics: ScenarioMetrics[] }): PresetSummary {
  const panels = run.metrics.map((m) => m.interaction).filter((p): p is InteractionPanel => !!p);
  const success = run.aggregate.success;
  return {
    preset: run.preset,
    dir: run.preset,
    scenarios: run.metrics.length,
    passed: success.passed,
    scored: success.total,
    success_rate: success.rate,
    wall_seconds: round(run.wallSeconds),
    scenario_seconds: round(run.metrics.reduce((s, m) => s + (m.scenario_duration ?? 0), 0)),
    audio_seconds: round(run.metrics.reduce((s, m) => s + (m.audio?.audio_seconds ?? 0), 0)),
    ...(panels.length > 0 ? { panel: aggregateInteraction(panels) } : {}),
  };
}

const round = (x: number) => Math.round(x * 1000) / 1000;
