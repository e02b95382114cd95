/**
 * The report's "Failures by cause" section: every failed scenario under the class of its
 * `failure_attribution` (the first point it left the gold path), with that point in one line.
 *
 * @module
 */
import type { ScenarioMetrics } from '../scoring/types.js';
import { esc } from './format.js';

const CAUSE_LABEL: Record<string, string> = {
  agent_action: 'agent action error',
  mishearing: 'misheard (what the agent heard was not what was said)',
  user_simulator: 'user simulator left its instructions',
  stall: 'stall, timeout or turn limit',
  infrastructure: 'infrastructure',
  other: 'other',
};

/** The section, or '' when no scenario failed. */
export function causesSection(metrics: readonly ScenarioMetrics[]): string {
  const groups = new Map<string, ScenarioMetrics[]>();
  for (const m of metrics)
    if (m.failure_attribution)
      groups.set(m.failure_attribution.class, [
        ...(groups.get(m.failure_attribution.class) ?? []),
        m,
      ]);
  if (groups.size === 0) return '';
  const rows = [...groups]
    .sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1))
    .map(([cause, list]) => {
      const items = list
        .map(
          (m) =>
            `<li><code>${esc(m.scenario_name)}${m.trial > 1 ? ` #${m.trial}` : ''}</code> ${esc(m.failure_attribution?.summary ?? '')}</li>`,
        )
        .join('');
      return `<tr><th>${esc(CAUSE_LABEL[cause] ?? cause)}</th><td>${list.length}</td><td><ul>${items}</ul></td></tr>`;
    })
    .join('');
  return `<h2>Failures by cause</h2><div class="scroll"><table class="kv"><thead><tr><th>cause</th><th>failed</th><th>scenarios, and where each left the gold path</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}
