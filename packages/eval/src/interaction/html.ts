/**
 * HTML for the interaction panel: a report section for one run, and a table comparing presets
 * side by side. Uses the report's classes (`cards`/`card`, `muted`, `scroll`, plain `table`);
 * every piece of text is escaped. A figure that is not shown reads "—" with the reason.
 *
 * @module
 */
import { esc, pct } from '../report/format.js';
import type { DeadAirStats, InteractionPanel, MeasureFigure, RateFigure } from './types.js';

/** One column of the comparison: a preset's run. */
export interface PresetPanel {
  preset: string;
  /** Share of scenarios that succeeded, 0..1; null when none were scored. */
  success_rate: number | null;
  panel: InteractionPanel;
}

type FigureKey = Exclude<keyof InteractionPanel, 'version' | 'windows' | 'dead_air' | 'counts'>;
type Figure = InteractionPanel[FigureKey] | MeasureFigure | RateFigure;

interface Row {
  key: FigureKey;
  label: string;
  symbol: string;
  better: 'higher' | 'lower';
}

const ROWS: readonly Row[] = [
  { key: 'response_rate', label: 'Response rate', symbol: 'R_R', better: 'higher' },
  { key: 'response_latency_mean', label: 'Response latency', symbol: 'L_R', better: 'lower' },
  { key: 'tool_turn_latency_mean', label: '… after a tool call', symbol: '', better: 'lower' },
  { key: 'plain_turn_latency_mean', label: '… without a tool call', symbol: '', better: 'lower' },
  { key: 'yield_rate', label: 'Yield rate', symbol: 'R_Y', better: 'higher' },
  { key: 'yield_latency_mean', label: 'Yield latency', symbol: 'L_Y', better: 'lower' },
  {
    key: 'recovery_latency_mean',
    label: 'Recovery after a yield',
    symbol: '',
    better: 'lower',
  },
  {
    key: 'agent_interruption_rate',
    label: 'Agent interruptions per caller turn',
    symbol: 'I_A',
    better: 'lower',
  },
  {
    key: 'selectivity_backchannel',
    label: 'Backchannels talked through',
    symbol: 'S_BC',
    better: 'higher',
  },
  { key: 'selectivity_vocal_tic', label: 'Vocal tics ignored', symbol: 'S_VT', better: 'higher' },
  {
    key: 'selectivity_non_directed',
    label: 'Non-directed speech ignored',
    symbol: 'S_ND',
    better: 'higher',
  },
  { key: 'selectivity', label: 'Selectivity (mean of three)', symbol: 'S', better: 'higher' },
];

const DEAD_AIR_ROWS: readonly { key: keyof DeadAirStats; label: string }[] = [
  { key: 'total_seconds', label: 'Dead air' },
  { key: 'fraction', label: 'Share of the conversation' },
  { key: 'longest_seconds', label: 'Longest gap' },
  { key: 'long_gaps', label: 'Long gaps' },
];

function formatValue(key: string, figure: Figure): string {
  const value = figure.value;
  if (value === null) return '—';
  if (figure.unit === 'seconds') return `${value.toFixed(2)} s`;
  if (figure.unit === 'count') return String(value);
  if (key === 'agent_interruption_rate') return value.toFixed(2);
  return pct(value);
}

function support(figure: Figure): string {
  if ('numerator' in figure && 'denominator' in figure && figure.count === figure.denominator)
    return `${figure.numerator}/${figure.denominator}`;
  return String(figure.count);
}

/** A figure's value, or "—" and the reason it is not shown. */
function cell(key: string, figure: Figure): string {
  if (figure.shown) return esc(formatValue(key, figure));
  return `— <span class="muted">${esc(figure.reason ?? 'not shown')}</span>`;
}

function card(title: string, key: FigureKey, panel: InteractionPanel): string {
  const figure = panel[key];
  const big = figure.shown ? formatValue(key, figure) : '—';
  const sub = figure.shown ? `${support(figure)} events` : (figure.reason ?? 'not shown');
  return `<div class="card"><div class="sub">${esc(title)}</div><div class="big">${esc(big)}</div><div class="sub">${esc(sub)}</div></div>`;
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function seconds(value: number): string {
  return `${value.toFixed(1)} s`;
}

function deadAirTable(panel: InteractionPanel): string {
  const d = panel.dead_air;
  const rows = DEAD_AIR_ROWS.map(({ key, label }) => {
    const name =
      key === 'long_gaps' ? `${label} (over ${seconds(panel.windows.long_gap_sec)})` : label;
    return `<tr><td>${esc(name)}</td><td>${cell(key, d.all[key])}</td><td>${cell(key, d.excluding_response_gaps[key])}</td></tr>`;
  }).join('');
  const gaps = (stats: DeadAirStats): string => plural(stats.total_seconds.count, 'gap');
  return `<div class="scroll"><table><thead><tr><th>dead air</th><th>all: ${esc(gaps(d.all))}</th><th>excluding response gaps: ${esc(gaps(d.excluding_response_gaps))}</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

function windowsLine(panel: InteractionPanel): string {
  const w = panel.windows;
  return (
    `${plural(panel.counts.scenarios, 'scenario')} · yield window ${seconds(w.no_yield_window_sec)} · ` +
    `selectivity: stopping within ${seconds(w.backchannel_yield_window_sec)} while speaking or ` +
    `answering within ${seconds(w.vocal_tic_response_window_sec)} while silent is an error · ` +
    `figures backed by fewer than ${w.min_events} events are not shown`
  );
}

/** The interaction section of a run's report. */
export function interactionPanelHtml(panel: InteractionPanel): string {
  const cards = [
    card('Response rate (R_R)', 'response_rate', panel),
    card('Response latency (L_R)', 'response_latency_mean', panel),
    card('Yield rate (R_Y)', 'yield_rate', panel),
    card('Yield latency (L_Y)', 'yield_latency_mean', panel),
    card('Agent interruptions (I_A)', 'agent_interruption_rate', panel),
    card('Selectivity', 'selectivity', panel),
  ].join('');
  const rows = ROWS.map(
    (r) =>
      `<tr><td>${esc(r.label)}${r.symbol ? ` <span class="muted">${esc(r.symbol)}</span>` : ''}</td><td>${cell(r.key, panel[r.key])}</td><td>${esc(support(panel[r.key]))}</td><td>${esc(r.better)}</td></tr>`,
  ).join('');
  const unscored = Object.entries(panel.counts.unscored)
    .map(([reason, n]) => `${n} ${reason}`)
    .join('; ');
  return (
    `<section><h2>Interaction</h2><p class="muted">${esc(windowsLine(panel))}</p>` +
    `<div class="cards">${cards}</div>` +
    `<div class="scroll"><table><thead><tr><th>metric</th><th>value</th><th>events</th><th>better</th></tr></thead><tbody>${rows}</tbody></table></div>` +
    deadAirTable(panel) +
    (unscored ? `<p class="muted">Not scored: ${esc(unscored)}.</p>` : '') +
    `</section>`
  );
}

function compareCell(key: string, figure: Figure): string {
  const tail = figure.shown ? ` <span class="muted">(${esc(support(figure))})</span>` : '';
  return `<td>${cell(key, figure)}${tail}</td>`;
}

/** Presets side by side: success rate, then every figure of the panel, then dead air. */
export function interactionComparisonHtml(presets: readonly PresetPanel[]): string {
  if (presets.length === 0) return '<p class="muted">No presets.</p>';
  const head = presets.map((p) => `<th>${esc(p.preset)}</th>`).join('');
  const success = presets.map((p) => `<td>${esc(pct(p.success_rate))}</td>`).join('');
  const rows = ROWS.map(
    (r) =>
      `<tr><td>${esc(r.label)}${r.symbol ? ` <span class="muted">${esc(r.symbol)}</span>` : ''}</td>${presets
        .map((p) => compareCell(r.key, p.panel[r.key]))
        .join('')}</tr>`,
  );
  const deadAir = DEAD_AIR_ROWS.map(
    ({ key, label }) =>
      `<tr><td>${esc(label)} <span class="muted">excluding response gaps</span></td>${presets
        .map((p) => compareCell(key, p.panel.dead_air.excluding_response_gaps[key]))
        .join('')}</tr>`,
  );
  return (
    `<div class="scroll"><table><thead><tr><th>metric</th>${head}</tr></thead><tbody>` +
    `<tr><td>Success rate</td>${success}</tr>${rows.join('')}${deadAir.join('')}</tbody></table></div>`
  );
}
