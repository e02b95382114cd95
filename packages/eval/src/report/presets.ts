/**
 * The report of a run of several speech-complexity presets: the presets side by side (success
 * and the interaction panel of each), what each one took, and where each one's own report is.
 *
 * @module
 */
import { interactionComparisonHtml } from '../interaction/html.js';
import type { InteractionPanel } from '../interaction/types.js';
import { esc, pct } from './format.js';
import { REPORT_CSS } from './html.js';

/** One preset's run, as the comparison shows it. */
export interface PresetSummary {
  preset: string;
  /** Its folder, relative to the run's. */
  dir: string;
  scenarios: number;
  passed: number;
  scored: number;
  success_rate: number | null;
  /** Wall time the last invocation spent on the preset, seconds. */
  wall_seconds: number;
  /** The scenarios' own durations summed, seconds. */
  scenario_seconds: number;
  /** Relayed audio summed, seconds. */
  audio_seconds: number;
  /** The preset's pooled interaction panel (absent when no scenario has one). */
  panel?: InteractionPanel;
}

/** The comparison page. */
export function renderPresetComparison(input: {
  runId: string;
  generatedAt: Date;
  presets: readonly PresetSummary[];
}): string {
  const rows = input.presets
    .map(
      (p) =>
        `<tr><td>${esc(p.preset)}</td><td>${p.scenarios}</td><td>${esc(pct(p.success_rate))} ` +
        `<span class="muted">(${p.passed}/${p.scored})</span></td><td>${p.wall_seconds.toFixed(0)} s</td>` +
        `<td>${p.scenario_seconds.toFixed(0)} s</td><td>${p.audio_seconds.toFixed(0)} s</td>` +
        `<td>${esc(`${p.dir}/report.html`)}</td></tr>`,
    )
    .join('');
  const withPanels = input.presets.filter((p) => p.panel);
  const comparison =
    withPanels.length > 0
      ? interactionComparisonHtml(
          withPanels.map((p) => ({
            preset: p.preset,
            success_rate: p.success_rate,
            panel: p.panel as InteractionPanel,
          })),
        )
      : '<p class="muted">No interaction panel (no scenario ran to a recording).</p>';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Speech-complexity presets</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<main>
<h1>Speech-complexity presets</h1>
<p class="muted">${esc(`Run ${input.runId} · generated ${input.generatedAt.toISOString()}`)}</p>
<section><h2>Presets side by side</h2>${comparison}</section>
<section><h2>Runs</h2><div class="scroll"><table><thead><tr><th>preset</th><th>scenarios</th>
<th>success</th><th>wall time</th><th>scenario time</th><th>audio</th><th>report</th></tr></thead>
<tbody>${rows}</tbody></table></div>
<p class="muted">Wall time: this invocation's time on the preset (a resumed preset counts only what it ran).
Scenario time: the scenarios' own durations summed (they run concurrently).</p></section>
</main>
</body>
</html>
`;
}
