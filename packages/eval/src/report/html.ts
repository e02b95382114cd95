/**
 * The run report: one self-contained HTML page (inline CSS, inline SVG charts, a little inline JS
 * for filtering) that opens from disk with no network. It shows the headline rates, success by
 * domain and by signal, failure reasons, latency and turn-count histograms, pass^k, and one row
 * per scenario that expands to its signals, transcript, actions, assertion verdicts and db diff.
 *
 * Every piece of text from scenarios, transcripts and tools goes through {@link escapeHtml}; the
 * page has no `src`/`href` attributes and loads nothing.
 *
 * @module
 */
import type { DbDiff, ValueDiff } from '@scenaro/agent';
import type { ActionRecord } from '@scenaro/sdk/protocol';
import type { DomainAggregate, RunAggregate } from '../scoring/aggregate.js';
import type { Rate } from '../scoring/statistics.js';
import type { DbDiffReport, ScenarioMetrics } from '../scoring/types.js';

/** What the report is made of. */
export interface ReportInput {
  aggregate: RunAggregate;
  metrics: readonly ScenarioMetrics[];
  /** @default 'Evaluation report' */
  title?: string;
  runId?: string;
  /** When the report was made (an ISO string is shown as is). */
  generatedAt?: string | Date;
  /** Extra header lines (models, settings...). */
  info?: Record<string, string>;
}

/** Escape text for HTML element content and quoted attribute values. */
export function escapeHtml(text: unknown): string {
  return String(text ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const esc = escapeHtml;

function short(value: unknown, max = 400, quoteStrings = false): string {
  let text: string;
  try {
    text =
      typeof value === 'string' && !quoteStrings ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}

function pct(rate: number | null, digits = 1): string {
  return rate === null ? 'N/A' : `${(rate * 100).toFixed(digits)}%`;
}

function ms(value: number): string {
  return value < 0
    ? '—'
    : value >= 1000
      ? `${(value / 1000).toFixed(2)} s`
      : `${value.toFixed(0)} ms`;
}

type Status = 'passed' | 'failed' | 'not-scored';

function statusOf(m: ScenarioMetrics): Status {
  return m.is_successful === true ? 'passed' : m.is_successful === false ? 'failed' : 'not-scored';
}

const STATUS_LABEL: Record<Status, string> = {
  passed: 'passed',
  failed: 'failed',
  'not-scored': 'not scored',
};

// ---------------------------------------------------------------------------------------------
// Charts (inline SVG)
// ---------------------------------------------------------------------------------------------

interface BarRow {
  label: string;
  /** 0..1 of the bar length. */
  fraction: number;
  /** Text after the bar. */
  text: string;
  tone: 'good' | 'bad' | 'neutral';
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A horizontal bar chart. */
function barChart(rows: readonly BarRow[], caption: string): string {
  if (rows.length === 0) return `<p class="muted">No data.</p>`;
  const width = 640;
  const labelWidth = 210;
  const textWidth = 120;
  const rowHeight = 26;
  const barMax = width - labelWidth - textWidth;
  const height = rows.length * rowHeight + 8;
  const bars = rows
    .map((row, i) => {
      const y = 4 + i * rowHeight;
      const w = Math.max(0, Math.min(1, row.fraction)) * barMax;
      return (
        `<text x="${labelWidth - 8}" y="${y + 17}" text-anchor="end" class="lbl">${esc(truncate(row.label, 30))}<title>${esc(row.label)}</title></text>` +
        `<rect x="${labelWidth}" y="${y + 4}" width="${barMax}" height="${rowHeight - 8}" class="track"/>` +
        `<rect x="${labelWidth}" y="${y + 4}" width="${w.toFixed(1)}" height="${rowHeight - 8}" class="bar ${row.tone}"/>` +
        `<text x="${labelWidth + barMax + 8}" y="${y + 17}" class="val">${esc(row.text)}</text>`
      );
    })
    .join('');
  return `<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(caption)}" preserveAspectRatio="xMinYMin meet">${bars}</svg>`;
}

function rateRows(entries: readonly [string, Rate][]): BarRow[] {
  return entries
    .filter(([, r]) => r.total > 0)
    .map(([label, r]) => ({
      label,
      fraction: r.rate ?? 0,
      text: `${pct(r.rate)} (${r.passed}/${r.total})`,
      tone:
        r.rate !== null && r.rate >= 0.8
          ? 'good'
          : r.rate !== null && r.rate < 0.5
            ? 'bad'
            : 'neutral',
    }));
}

function niceStep(raw: number): number {
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  const mantissa = raw / power;
  const nice =
    mantissa <= 1 ? 1 : mantissa <= 2 ? 2 : mantissa <= 2.5 ? 2.5 : mantissa <= 5 ? 5 : 10;
  return nice * power;
}

/** Histogram bins: `[start, end)` edges with counts. */
export function histogramBins(
  values: readonly number[],
  options: { integer?: boolean; maxBins?: number } = {},
): { start: number; end: number; count: number }[] {
  const finite = values.filter((v) => Number.isFinite(v));
  if (finite.length === 0) return [];
  const min = Math.min(...finite);
  const max = Math.max(...finite);
  const maxBins = options.maxBins ?? 20;
  let step: number;
  if (options.integer) {
    step = Math.max(1, Math.ceil((max - min + 1) / maxBins));
    step = step === 1 ? 1 : niceStep(step);
  } else {
    step = niceStep(
      (max - min) / Math.min(maxBins, Math.max(1, Math.ceil(Math.sqrt(finite.length)))),
    );
    if (max === min) step = Math.max(1, niceStep(Math.abs(max) / 10));
  }
  const start = Math.floor(min / step) * step;
  const count = Math.max(1, Math.floor((max - start) / step) + 1);
  const bins = Array.from({ length: count }, (_, i) => ({
    start: start + i * step,
    end: start + (i + 1) * step,
    count: 0,
  }));
  for (const v of finite) {
    const index = Math.min(count - 1, Math.floor((v - start) / step));
    const bin = bins[index];
    if (bin) bin.count++;
  }
  return bins;
}

/** A vertical-bar histogram. */
function histogram(
  values: readonly number[],
  options: { integer?: boolean; unit: string; caption: string; format: (v: number) => string },
): string {
  const bins = histogramBins(values, options.integer ? { integer: true } : {});
  if (bins.length === 0) return `<p class="muted">No data.</p>`;
  const width = 640;
  const height = 220;
  const left = 40;
  const bottom = 40;
  const top = 12;
  const plotW = width - left - 10;
  const plotH = height - top - bottom;
  const maxCount = Math.max(...bins.map((b) => b.count));
  const barW = plotW / bins.length;
  const labelEvery = Math.max(1, Math.ceil(bins.length / 8));
  const parts: string[] = [];
  parts.push(
    `<line x1="${left}" y1="${top + plotH}" x2="${left + plotW}" y2="${top + plotH}" class="axis"/>`,
  );
  parts.push(
    `<text x="${left - 6}" y="${top + 10}" text-anchor="end" class="val">${maxCount}</text>`,
  );
  parts.push(`<text x="${left - 6}" y="${top + plotH}" text-anchor="end" class="val">0</text>`);
  bins.forEach((bin, i) => {
    const h = maxCount === 0 ? 0 : (bin.count / maxCount) * plotH;
    const x = left + i * barW;
    const range =
      options.integer && bin.end - bin.start === 1
        ? options.format(bin.start)
        : `${options.format(bin.start)}–${options.format(bin.end)}`;
    parts.push(
      `<rect x="${(x + 1).toFixed(1)}" y="${(top + plotH - h).toFixed(1)}" width="${Math.max(1, barW - 2).toFixed(1)}" height="${h.toFixed(1)}" class="bar neutral"><title>${esc(`${range} ${options.unit}: ${bin.count}`)}</title></rect>`,
    );
    if (i % labelEvery === 0) {
      parts.push(
        `<text x="${(x + barW / 2).toFixed(1)}" y="${top + plotH + 16}" text-anchor="middle" class="val">${esc(options.format(bin.start))}</text>`,
      );
    }
  });
  parts.push(
    `<text x="${left + plotW / 2}" y="${height - 6}" text-anchor="middle" class="lbl">${esc(options.unit)}</text>`,
  );
  return `<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(options.caption)}" preserveAspectRatio="xMinYMin meet">${parts.join('')}</svg>`;
}

// ---------------------------------------------------------------------------------------------
// Scenario details
// ---------------------------------------------------------------------------------------------

function fmtSignal(value: unknown): string {
  if (value === true) return '<span class="tag good">pass</span>';
  if (value === false) return '<span class="tag bad">fail</span>';
  if (value === 'N/A' || value === null || value === undefined)
    return '<span class="tag na">N/A</span>';
  if (typeof value === 'number')
    return esc(Number.isInteger(value) ? String(value) : value.toFixed(3));
  return esc(String(value));
}

function signalsTable(m: ScenarioMetrics): string {
  // [label, value html, signal or component name it gates as]
  const rows: [string, string, string][] = [
    ['is_action_match', fmtSignal(m.is_action_match), 'is_action_match'],
    [
      'db_state_match',
      `${fmtSignal(m.db_state_match)} <span class="hash">${esc(hashPair(m.db_state_expected_hash, m.db_state_actual_hash))}</span>`,
      'db_state_match',
    ],
    [
      'user_db_state_match',
      `${fmtSignal(m.user_db_state_match)} <span class="hash">${esc(hashPair(m.user_db_state_expected_hash, m.user_db_state_actual_hash))}</span>`,
      'db_state_match',
    ],
    [
      'db_state_assertion_pass_rate',
      fmtSignal(m.db_state_assertion_pass_rate),
      'db_state_assertion',
    ],
    ['nl_assertion_pass_rate', fmtSignal(m.nl_assertion_pass_rate), 'nl_assertion'],
    ['judge_score', fmtSignal(m.judge_score), 'judge_passed'],
    ['judge_passed', fmtSignal(m.judge_passed), 'judge_passed'],
    ['clean_exit', fmtSignal(m.clean_exit), 'clean_exit'],
  ];
  if (m.tau2) {
    rows.push(['tau2 reward', fmtSignal(m.tau2.reward), '']);
    for (const [component, value] of Object.entries(m.tau2.reward_breakdown)) {
      const inBasis = (m.tau2.reward_basis as string[]).includes(component);
      const note = (m.tau2.notes as Record<string, string | undefined>)[component];
      rows.push([
        `tau2 ${component}${inBasis ? '' : ' (diagnostic)'}`,
        `${fmtSignal(value)}${note ? ` <span class="muted">${esc(note)}</span>` : ''}`,
        component,
      ]);
    }
  }
  const gating: string[] = [
    ...m.success_breakdown.passed,
    ...m.success_breakdown.failed,
    ...m.success_breakdown.not_applicable,
  ];
  return (
    `<div class="scroll"><table class="kv"><tbody>${rows
      .map(
        ([k, v, signal]) =>
          `<tr${gating.includes(signal) ? ' class="gating"' : ''}><th>${esc(k)}</th><td>${v}</td></tr>`,
      )
      .join('')}</tbody></table></div>` +
    `<p class="muted">Gating: ${esc(gating.join(', ') || 'none')}; failed: ${esc(m.success_breakdown.failed.join(', ') || 'none')}; not applicable: ${esc(m.success_breakdown.not_applicable.join(', ') || 'none')}.</p>`
  );
}

function hashPair(expected: string | null, actual: string | null): string {
  if (expected === null && actual === null) return '';
  const s = (h: string | null): string => (h === null ? 'none' : h.slice(0, 12));
  return `expected ${s(expected)} / actual ${s(actual)}`;
}

function transcript(m: ScenarioMetrics): string {
  if (m.turns.length === 0) return '<p class="muted">No turns.</p>';
  const items = m.turns
    .map((t) => {
      const meta = [`${t.start.toFixed(1)}s`];
      if (t.latency_ms !== undefined) meta.push(`latency ${ms(t.latency_ms)}`);
      if (t.interrupted) meta.push('interrupted');
      return `<li class="turn ${t.role === 'agent' ? 'agent' : 'user'}"><span class="who">${esc(t.role)}</span><span class="meta">${esc(meta.join(' · '))}</span><div class="text">${esc(t.text)}</div></li>`;
    })
    .join('');
  return `<ol class="transcript">${items}</ol>`;
}

function actionList(actions: readonly ActionRecord[], side: string): string {
  if (actions.length === 0) return `<p class="muted">No ${esc(side)} actions.</p>`;
  return `<ol class="actions">${actions
    .map(
      (a) =>
        `<li><code>${esc(a.name)}</code> <span class="args">${esc(short(a.arguments, 600))}</span>${a.result !== undefined ? `<div class="muted">→ ${esc(short(a.result, 300))}</div>` : ''}</li>`,
    )
    .join('')}</ol>`;
}

interface DiffRow {
  path: string;
  expected: string;
  actual: string;
  note: string;
}

function flattenValueDiff(diff: ValueDiff, path: string, rows: DiffRow[]): void {
  if ('fields_modified' in diff) {
    for (const f of diff.fields_added)
      rows.push({ path: `${path}.${f}`, expected: '', actual: '', note: 'field added' });
    for (const f of diff.fields_removed)
      rows.push({ path: `${path}.${f}`, expected: '', actual: '', note: 'field removed' });
    for (const [f, d] of Object.entries(diff.fields_modified))
      flattenValueDiff(d, `${path}.${f}`, rows);
    return;
  }
  switch (diff.type) {
    case 'type_mismatch':
      rows.push({
        path,
        expected: short(diff.expected, 200, true),
        actual: short(diff.actual, 200, true),
        note: `type ${diff.expected_type} → ${diff.actual_type}`,
      });
      return;
    case 'list_length_mismatch':
      rows.push({
        path,
        expected: short(diff.expected, 200, true),
        actual: short(diff.actual, 200, true),
        note: `length ${diff.expected_length} → ${diff.actual_length}`,
      });
      return;
    case 'list_differences':
      for (const d of diff.differences) flattenValueDiff(d.diff, `${path}[${d.index}]`, rows);
      return;
    case 'value_mismatch':
      rows.push({
        path,
        expected: short(diff.expected, 200, true),
        actual: short(diff.actual, 200, true),
        note: '',
      });
      return;
  }
}

function diffRows(diff: DbDiff): DiffRow[] {
  const rows: DiffRow[] = [];
  for (const t of diff.tables_added)
    rows.push({ path: t, expected: '', actual: '', note: 'table added' });
  for (const t of diff.tables_removed)
    rows.push({ path: t, expected: '', actual: '', note: 'table removed' });
  for (const [table, tableDiff] of Object.entries(diff.tables_modified)) {
    if ('type' in tableDiff) {
      rows.push({
        path: table,
        expected: short(tableDiff.expected, 200, true),
        actual: short(tableDiff.actual, 200, true),
        note: 'table differs',
      });
      continue;
    }
    for (const r of tableDiff.records_added)
      rows.push({ path: `${table}[${r}]`, expected: '', actual: '', note: 'record added' });
    for (const r of tableDiff.records_removed)
      rows.push({ path: `${table}[${r}]`, expected: '', actual: '', note: 'record removed' });
    for (const [record, d] of Object.entries(tableDiff.records_modified))
      flattenValueDiff(d, `${table}[${record}]`, rows);
  }
  return rows;
}

function dbDiff(report: DbDiffReport | undefined, label: string): string {
  if (!report) return '';
  if (report.status !== 'computed')
    return `<h4>${esc(label)}</h4><p class="muted">${esc(report.message)}</p>`;
  const rows = diffRows(report.diff);
  const shown = rows.slice(0, 200);
  const body = shown
    .map(
      (r) =>
        `<tr><td><code>${esc(r.path)}</code></td><td>${esc(r.expected)}</td><td>${esc(r.actual)}</td><td>${esc(r.note)}</td></tr>`,
    )
    .join('');
  return (
    `<h4>${esc(label)}</h4>` +
    (rows.length === 0
      ? '<p class="muted">The dbs differ only in what hashing normalises away.</p>'
      : `<div class="scroll"><table class="diff"><thead><tr><th>path</th><th>expected</th><th>actual</th><th></th></tr></thead><tbody>${body}</tbody></table></div>` +
        (rows.length > shown.length
          ? `<p class="muted">${rows.length - shown.length} more differences not shown.</p>`
          : ''))
  );
}

function verdicts(m: ScenarioMetrics): string {
  const parts: string[] = [];
  if (m.db_state_assertion_verdicts.length > 0) {
    parts.push(
      '<h4>DB-state assertions</h4><div class="scroll"><table class="diff"><thead><tr><th>predicate</th><th>side</th><th>expected</th><th>actual</th><th></th></tr></thead><tbody>' +
        m.db_state_assertion_verdicts
          .map(
            (v) =>
              `<tr><td><code>${esc(v.func_name)}</code></td><td>${esc(v.side)}</td><td>${esc(short(v.expected, 120, true))}</td><td>${esc(short(v.actual, 120, true))}</td><td>${fmtSignal(v.passed)}${v.error ? ` <span class="muted">${esc(v.error)}</span>` : ''}${v.message ? ` <span class="muted">${esc(v.message)}</span>` : ''}</td></tr>`,
          )
          .join('') +
        '</tbody></table></div>',
    );
  }
  if (m.nl_assertion_verdicts.length > 0) {
    parts.push(
      '<h4>NL assertions</h4><ol class="actions">' +
        m.nl_assertion_verdicts
          .map(
            (v) =>
              `<li>${fmtSignal(v.passed)} ${esc(v.assertion)}<div class="muted">${esc(v.reason)}</div></li>`,
          )
          .join('') +
        '</ol>',
    );
  }
  if (m.judge) {
    parts.push(
      `<h4>Judge</h4><p>${m.judge.score === null ? 'no score' : `score ${esc(m.judge.score.toFixed(2))}`}${m.judge.model ? ` <span class="muted">(${esc(m.judge.model)})</span>` : ''}</p>` +
        (m.judge.error ? `<p class="bad-text">${esc(m.judge.error)}</p>` : '') +
        (m.judge.reason ? `<p class="pre">${esc(m.judge.reason)}</p>` : ''),
    );
  }
  return parts.join('');
}

function scenarioRow(m: ScenarioMetrics, index: number): string {
  const status = statusOf(m);
  const search = `${m.scenario_name} ${m.domain} ${m.stop_reason}`.toLowerCase();
  const notes: string[] = [];
  if (m.failure_reason) notes.push(`<p class="bad-text">${esc(m.failure_reason)}</p>`);
  if (m.not_scored_reason)
    notes.push(`<p class="muted">Not scored: ${esc(m.not_scored_reason)}</p>`);
  if (m.stalled)
    notes.push(
      '<p class="bad-text">Stalled: counted as a failure, left out of the per-signal rates.</p>',
    );
  for (const warning of m.scoring_warnings ?? [])
    notes.push(`<p class="muted">Scoring: ${esc(warning)}</p>`);
  if (m.sync_errors.length > 0)
    notes.push(`<p class="muted">Sync errors: ${esc(m.sync_errors.join('; '))}</p>`);
  return (
    `<details class="scenario" data-status="${status}" data-search="${esc(search)}" id="s${index}">` +
    `<summary><span class="name">${esc(m.scenario_name)}${m.trial > 1 ? ` <span class="muted">trial ${m.trial}</span>` : ''}</span>` +
    `<span class="tag ${status === 'passed' ? 'good' : status === 'failed' ? 'bad' : 'na'}">${STATUS_LABEL[status]}</span>` +
    `<span class="cell">${esc(m.stop_reason)}</span><span class="cell">${m.total_turns} turns</span>` +
    `<span class="cell">p50 ${esc(ms(m.latency_stats.p50_ms))}</span>` +
    (m.success_breakdown.failed.length > 0
      ? `<span class="cell bad-text">${esc(m.success_breakdown.failed.join(', '))}</span>`
      : '') +
    `</summary><div class="body">${notes.join('')}` +
    `<h4>Signals</h4>${signalsTable(m)}` +
    verdicts(m) +
    dbDiff(m.db_diff, 'Agent db diff') +
    dbDiff(m.user_db_diff, 'User db diff') +
    `<h4>Actions (${m.actions.agent.length} agent, ${m.actions.user.length} user; ${m.reference_action_count} gold)</h4>` +
    actionList(m.actions.agent, 'agent') +
    (m.actions.user.length > 0 ? actionList(m.actions.user, 'user') : '') +
    `<h4>Transcript</h4>${transcript(m)}</div></details>`
  );
}

// ---------------------------------------------------------------------------------------------
// Page
// ---------------------------------------------------------------------------------------------

const CSS = `
:root{--fg:#1d2330;--muted:#667085;--bg:#fff;--card:#f6f7f9;--line:#e2e5ea;--good:#2e8540;--bad:#c0392b;--na:#98a2b3;--neutral:#3b6fb6}
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:1100px;margin:0 auto;padding:16px}
h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.2em;margin:1.4em 0 .5em;border-bottom:1px solid var(--line);padding-bottom:.2em}
h4{margin:1em 0 .3em}
.muted{color:var(--muted)}.bad-text{color:var(--bad)}.pre{white-space:pre-wrap}
.banner{background:#fff4d6;border:1px solid #e7c35a;padding:10px 12px;border-radius:6px;margin:10px 0;font-weight:600}
.cards{display:flex;flex-wrap:wrap;gap:10px}
.card{background:var(--card);border-radius:8px;padding:10px 14px;min-width:150px;flex:1 1 150px}
.card .big{font-size:1.6em;font-weight:700}.card .sub{color:var(--muted);font-size:.85em}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(320px,1fr));gap:16px}
.chart{width:100%;height:auto;display:block}
.chart .lbl{font-size:12px;fill:var(--fg)}.chart .val{font-size:11px;fill:var(--muted)}
.chart .track{fill:#eef0f3}.chart .bar.good{fill:var(--good)}.chart .bar.bad{fill:var(--bad)}.chart .bar.neutral{fill:var(--neutral)}
.chart .axis{stroke:var(--line)}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:.9em}
th,td{border-bottom:1px solid var(--line);padding:4px 6px;text-align:left;vertical-align:top;word-break:break-word}
table.kv th{width:14em;font-weight:500;color:var(--muted)}tr.gating th{color:var(--fg);font-weight:700}
.tag{display:inline-block;border-radius:10px;padding:0 8px;font-size:.8em;font-weight:600;color:#fff}
.tag.good{background:var(--good)}.tag.bad{background:var(--bad)}.tag.na{background:var(--na)}
.hash{font-family:ui-monospace,monospace;font-size:.8em;color:var(--muted)}
.controls{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:8px 0}
.controls button{border:1px solid var(--line);background:var(--card);border-radius:6px;padding:4px 10px;cursor:pointer;font:inherit}
.controls button.on{background:var(--fg);color:#fff}
.controls input{flex:1 1 200px;padding:5px 8px;border:1px solid var(--line);border-radius:6px;font:inherit}
details.scenario{border:1px solid var(--line);border-radius:6px;margin:6px 0}
details.scenario>summary{cursor:pointer;padding:8px 10px;display:flex;flex-wrap:wrap;gap:6px 12px;align-items:center}
details.scenario>summary .name{font-weight:600;flex:1 1 260px;word-break:break-all}
details.scenario>summary .cell{font-size:.85em;color:var(--muted)}
details.scenario .body{padding:0 12px 12px}
ol.transcript{list-style:none;padding:0;margin:0}
.turn{margin:6px 0;padding:6px 10px;border-radius:8px;max-width:92%}
.turn.agent{background:#eaf1fb}.turn.user{background:#f2f2f2;margin-left:auto}
.turn .who{font-weight:700;margin-right:8px;text-transform:capitalize}.turn .meta{font-size:.8em;color:var(--muted)}
.turn .text{white-space:pre-wrap;word-break:break-word}
ol.actions{padding-left:1.4em}.args{font-family:ui-monospace,monospace;font-size:.85em;word-break:break-all}
code{font-family:ui-monospace,monospace;font-size:.9em}
.hidden{display:none}
@media (max-width:600px){main{padding:8px}.card{min-width:120px}table.kv th{width:auto}.turn{max-width:100%}}
`;

const SCRIPT = `
(function(){
  var filter='all';
  var buttons=document.querySelectorAll('[data-filter]');
  var input=document.getElementById('search');
  var rows=document.querySelectorAll('details.scenario');
  function apply(){
    var q=(input&&input.value||'').toLowerCase();
    var shown=0;
    rows.forEach(function(r){
      var ok=(filter==='all'||r.getAttribute('data-status')===filter)&&(q===''||r.getAttribute('data-search').indexOf(q)!==-1);
      r.classList.toggle('hidden',!ok);
      if(ok)shown++;
    });
    var c=document.getElementById('shown');if(c)c.textContent=String(shown);
  }
  buttons.forEach(function(b){b.addEventListener('click',function(){
    filter=b.getAttribute('data-filter');
    buttons.forEach(function(x){x.classList.toggle('on',x===b);});
    apply();
  });});
  if(input)input.addEventListener('input',apply);
  var ex=document.getElementById('expand');if(ex)ex.addEventListener('click',function(){rows.forEach(function(r){if(!r.classList.contains('hidden'))r.open=true;});});
  var co=document.getElementById('collapse');if(co)co.addEventListener('click',function(){rows.forEach(function(r){r.open=false;});});
})();
`;

function card(title: string, big: string, sub: string): string {
  return `<div class="card"><div class="sub">${esc(title)}</div><div class="big">${esc(big)}</div><div class="sub">${esc(sub)}</div></div>`;
}

function ci(r: { ci95: [number, number] | null }): string {
  return r.ci95 === null ? '' : `95% CI ${pct(r.ci95[0])}–${pct(r.ci95[1])}`;
}

function domainTable(perDomain: Record<string, DomainAggregate>): string {
  const rows = Object.entries(perDomain)
    .map(
      ([name, d]) =>
        `<tr><td>${esc(name)}</td><td>${d.scenarios}</td><td>${esc(pct(d.success.rate))} <span class="muted">(${d.success.passed}/${d.success.total})</span></td><td>${esc(pct(d.task_success.rate))}</td><td>${d.not_scored}</td><td>${d.stalled}</td><td>${esc(ms(d.latency.p50_ms))}</td></tr>`,
    )
    .join('');
  return `<div class="scroll"><table><thead><tr><th>domain</th><th>results</th><th>success</th><th>task success</th><th>not scored</th><th>stalled</th><th>p50 latency</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

/** Render the report page. */
export function renderReport(input: ReportInput): string {
  const { aggregate: a, metrics } = input;
  const title = input.title ?? 'Evaluation report';
  const generated =
    input.generatedAt instanceof Date ? input.generatedAt.toISOString() : (input.generatedAt ?? '');
  const header: string[] = [];
  if (input.runId) header.push(`Run ${input.runId}`);
  if (generated) header.push(`generated ${generated}`);
  header.push(`scorer ${a.scorer}`);
  const info = Object.entries(input.info ?? {})
    .map(([k, v]) => `<div><span class="muted">${esc(k)}:</span> ${esc(v)}</div>`)
    .join('');

  const banners: string[] = [];
  if (a.scripted) {
    banners.push(
      'Every result in this run came from scripted policies (no LLM). These numbers check the harness, not a model.',
    );
  } else if (a.scripted_agent_results > 0) {
    banners.push(
      `${a.scripted_agent_results} of ${a.results} result(s) had a scripted agent (no LLM); they do not measure a model.`,
    );
  }
  if (a.stalled.length > 0)
    banners.push(
      `${a.stalled.length} scenario(s) stalled (too few agent LLM calls) and were counted as failures.`,
    );
  if (a.not_scored.length > 0)
    banners.push(
      `${a.not_scored.length} scenario(s) were not scored and are left out of the success rates.`,
    );

  const cards = [
    card(
      'Overall success',
      pct(a.success.rate),
      `${a.success.passed}/${a.success.total} · ${ci(a.success)}`,
    ),
    card(
      'Task success (excl. clean exit)',
      pct(a.task_success.rate),
      `${a.task_success.passed}/${a.task_success.total}`,
    ),
    card(
      'Scenarios',
      String(a.unique_scenarios),
      `${a.results} results${a.trials > 1 ? ` · ${a.trials} trials` : ''}`,
    ),
    card(
      'Latency p50 / p95',
      `${ms(a.latency.p50_ms)}`,
      `p95 ${ms(a.latency.p95_ms)} · ${a.latency.count} measurements`,
    ),
    card(
      'Turns',
      a.turns.mean === null ? '—' : a.turns.mean.toFixed(1),
      `mean per scenario · ${a.turns.total} total`,
    ),
    card(
      'Tokens',
      a.tokens.total_tokens.toLocaleString('en-US'),
      `agent ${a.tokens.agent.n_calls} calls · user ${a.tokens.user.n_calls} calls`,
    ),
  ];
  if (a.tau2)
    cards.push(
      card(
        'tau2 average reward',
        a.tau2.avg_reward === null ? 'N/A' : a.tau2.avg_reward.toFixed(3),
        `${a.tau2.rewarded} scored`,
      ),
    );

  const s = a.signals;
  const signalChart = barChart(
    rateRows([
      ['action match', s.is_action_match],
      ['db state match', s.db_state_match],
      ['user db state match', s.user_db_state_match],
      ['db-state assertions', s.db_state_assertion],
      ['NL assertions', s.nl_assertion],
      ['judge passed', s.judge_passed],
      ['clean exit', s.clean_exit],
      ...Object.entries(a.tau2?.components ?? {}).map(([c, r]): [string, Rate] => [`tau2 ${c}`, r]),
    ]),
    'Pass rate by signal',
  );
  const domainChart = barChart(
    rateRows(Object.entries(a.per_domain).map(([d, agg]): [string, Rate] => [d, agg.success])),
    'Success rate by domain',
  );
  const reasons = Object.entries(a.failure_reasons).sort((x, y) => y[1] - x[1]);
  const maxReason = Math.max(1, ...reasons.map(([, n]) => n));
  const reasonChart = barChart(
    reasons.map(([label, n]) => ({
      label,
      fraction: n / maxReason,
      text: String(n),
      tone: label === 'not scored' ? 'neutral' : 'bad',
    })),
    'Failure reasons',
  );
  const latencyValues = metrics.flatMap((m) => m.latencies.map((l) => l.latency_ms));
  const latencyChart = histogram(latencyValues, {
    unit: 'agent response latency (ms)',
    caption: 'Latency distribution',
    format: (v) => (v >= 1000 ? `${(v / 1000).toFixed(1)}k` : v.toFixed(0)),
  });
  const turnChart = histogram(
    metrics.map((m) => m.total_turns),
    {
      integer: true,
      unit: 'turns per scenario',
      caption: 'Turn-count distribution',
      format: (v) => v.toFixed(0),
    },
  );

  const passK =
    a.pass_hat_k.length === 0
      ? ''
      : `<h2>pass^k</h2><div class="scroll"><table><thead><tr><th>k</th><th>all</th>${Object.keys(
          a.pass_hat_k[0]?.per_domain ?? {},
        )
          .map((d) => `<th>${esc(d)}</th>`)
          .join('')}</tr></thead><tbody>${a.pass_hat_k
          .map(
            (p) =>
              `<tr><td>${p.k}</td><td>${esc(pct(p.value))}</td>${Object.values(p.per_domain)
                .map((v) => `<td>${esc(pct(v))}</td>`)
                .join('')}</tr>`,
          )
          .join('')}</tbody></table></div>`;

  const counts = { passed: 0, failed: 0, 'not-scored': 0 } as Record<Status, number>;
  for (const m of metrics) counts[statusOf(m)]++;

  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${CSS}</style>
</head>
<body>
<main>
<h1>${esc(title)}</h1>
<p class="muted">${esc(header.join(' · '))}</p>
${info}
${banners.map((b) => `<div class="banner">${esc(b)}</div>`).join('\n')}
<div class="cards">${cards.join('')}</div>
<div class="grid">
<section><h2>Success by domain</h2>${domainChart}</section>
<section><h2>Pass rate by signal</h2>${signalChart}<p class="muted">Stalled scenarios are left out; assertions count one by one.</p></section>
<section><h2>Failure reasons</h2>${reasonChart}</section>
<section><h2>Latency</h2>${latencyChart}</section>
<section><h2>Turns</h2>${turnChart}</section>
</div>
<h2>Domains</h2>
${domainTable(a.per_domain)}
${passK}
<h2>Scenarios</h2>
<div class="controls">
<button type="button" data-filter="all" class="on">all (${metrics.length})</button>
<button type="button" data-filter="passed">passed (${counts.passed})</button>
<button type="button" data-filter="failed">failed (${counts.failed})</button>
<button type="button" data-filter="not-scored">not scored (${counts['not-scored']})</button>
<input id="search" type="search" placeholder="filter by name" aria-label="filter scenarios by name">
<button type="button" id="expand">expand</button><button type="button" id="collapse">collapse</button>
<span class="muted"><span id="shown">${metrics.length}</span> shown</span>
</div>
${metrics.map((m, i) => scenarioRow(m, i)).join('\n')}
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
