/**
 * The report's interaction section: the panel of the run's scenarios pooled (full-duplex audio
 * runs only; empty otherwise), and who called under which preset.
 *
 * @module
 */
import { interactionPanelHtml } from '../interaction/html.js';
import { aggregateInteraction } from '../interaction/panel.js';
import type { InteractionPanel } from '../interaction/types.js';
import type { ScenarioMetrics } from '../scoring/types.js';
import { esc } from './format.js';

/** The interaction section of the report of `metrics` ('' when none has a panel). */
export function interactionOverview(metrics: readonly ScenarioMetrics[]): string {
  const panels = metrics.map((m) => m.interaction).filter((p): p is InteractionPanel => !!p);
  if (panels.length === 0) return '';
  const section = interactionPanelHtml(aggregateInteraction(panels));
  const callers = new Map<string, number>();
  for (const m of metrics) {
    if (!m.caller) continue;
    const key = `${m.caller.complexity} · ${m.caller.persona}`;
    callers.set(key, (callers.get(key) ?? 0) + 1);
  }
  if (callers.size === 0) return section;
  const rows = [...callers.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, n]) => `<tr><td>${esc(key)}</td><td>${n}</td></tr>`)
    .join('');
  return (
    section +
    `<section><h2>Callers</h2><div class="scroll"><table><thead><tr><th>preset · persona</th>` +
    `<th>scenarios</th></tr></thead><tbody>${rows}</tbody></table></div></section>`
  );
}
