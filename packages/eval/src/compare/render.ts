/**
 * A run comparison for people: a terminal table and a self-contained `compare.html` in the
 * style of the run report (flips first, then metric deltas with their intervals).
 *
 * @module
 */
import { REPORT_CSS } from '../report/html.js';
import { esc, ms, pct } from '../report/format.js';
import type { MetricDelta, RunComparison, ScenarioComparison, Verdict } from './compare.js';

const VERDICT_TEXT: Record<Verdict, string> = {
  'no-change': 'no change: no scenario flipped',
  'within-noise': 'within noise: the difference is inside what repeated trials move by chance',
  'not-significant': 'not significant: the flips could be chance (exact McNemar)',
  improved: 'improved beyond noise',
  regressed: 'regressed beyond noise',
};

/** The verdict in one sentence. */
export function verdictText(verdict: Verdict): string {
  return VERDICT_TEXT[verdict];
}

function signed(value: number, unit: MetricDelta['unit'] | 'rate'): string {
  const sign = value > 0 ? '+' : value < 0 ? '-' : '±';
  const abs = Math.abs(value);
  switch (unit) {
    case 'ms':
      return `${sign}${ms(abs)}`;
    case 'rate':
      return `${sign}${(abs * 100).toFixed(1)} pt`;
    case 'ratio':
      return `${sign}${abs.toFixed(3)}`;
    case 'turns':
      return `${sign}${abs.toFixed(1)}`;
  }
}

function interval(ci: [number, number], unit: MetricDelta['unit'] | 'rate'): string {
  return `[${signed(ci[0], unit)}, ${signed(ci[1], unit)}]`;
}

function flipped(c: RunComparison): ScenarioComparison[] {
  const order = { broken: 0, mixed: 1, fixed: 2 } as const;
  return c.scenarios
    .filter((s) => s.flip !== null)
    .sort((x, y) => order[x.flip!] - order[y.flip!] || (x.scenario < y.scenario ? -1 : 1));
}

function trialText(s: ScenarioComparison, side: 'a' | 'b'): string {
  const passes = side === 'a' ? s.passes_a : s.passes_b;
  return s.trials === 1 ? (passes === 1 ? 'pass' : 'fail') : `${passes}/${s.trials}`;
}

function pad(cells: string[][]): string[] {
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  return cells.map((row) =>
    row
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd(),
  );
}

/** The comparison as terminal lines. */
export function comparisonLines(c: RunComparison): string[] {
  const lines: string[] = [];
  lines.push(`compare ${c.a.name} (A) -> ${c.b.name} (B), scorer ${c.scorer}`);
  lines.push(
    `${c.paired_scenarios} scenarios in common, ${c.paired_trials} trial pairs scored in both` +
      (c.only_in_a.length ? `; ${c.only_in_a.length} only in A` : '') +
      (c.only_in_b.length ? `; ${c.only_in_b.length} only in B` : ''),
  );
  lines.push(
    `pass rate ${pct(c.pass_rate_a)} -> ${pct(c.pass_rate_b)}` +
      (c.pass_rate_delta
        ? ` (${signed(c.pass_rate_delta.mean, 'rate')}, 95% CI ${interval(c.pass_rate_delta.ci95, 'rate')})`
        : ''),
  );
  lines.push(
    `flips: ${c.fixed} fixed, ${c.broken} broken (flip rate ${pct(c.flip_rate)}); exact McNemar p = ${c.mcnemar_p.toPrecision(3)}`,
  );
  lines.push(
    c.noise_floor
      ? `noise floor: ${c.noise_floor.expected_flips.toFixed(1)} flips expected from chance, pass rate ±${(c.noise_floor.pass_rate_band * 100).toFixed(1)} pt`
      : 'noise floor: unknown (one trial per scenario; run with --trials k to measure it)',
  );
  lines.push(`verdict: ${verdictText(c.verdict)}`);
  const flips = flipped(c);
  if (flips.length > 0) {
    lines.push('', 'flipped scenarios:');
    const rows = [['flip', 'scenario', 'A', 'B', 'cause']];
    for (const s of flips)
      rows.push([
        s.flip!,
        s.scenario,
        trialText(s, 'a'),
        trialText(s, 'b'),
        (s.flip === 'fixed' ? s.causes_a : s.causes_b)[0] ?? '',
      ]);
    lines.push(...pad(rows).map((l) => `  ${l}`));
  }
  if (c.metrics.length > 0) {
    lines.push('', 'metrics (mean over paired scenarios, B - A with 95% CI):');
    const rows = [['metric', 'A', 'B', 'delta', '95% CI', 'pairs']];
    for (const m of c.metrics)
      rows.push([
        m.label,
        value(m.mean_a, m.unit),
        value(m.mean_b, m.unit),
        signed(m.mean, m.unit),
        interval(m.ci95, m.unit),
        String(m.n),
      ]);
    lines.push(...pad(rows).map((l) => `  ${l}`));
  }
  return lines;
}

function value(v: number, unit: MetricDelta['unit']): string {
  return unit === 'ms' ? ms(v) : unit === 'ratio' ? v.toFixed(3) : v.toFixed(1);
}

/** The comparison as one self-contained HTML page. */
export function renderComparison(c: RunComparison): string {
  const flips = flipped(c);
  const flipRows = flips
    .map(
      (s) =>
        `<tr><td><span class="tag ${s.flip === 'fixed' ? 'good' : 'bad'}">${esc(s.flip)}</span></td>` +
        `<td>${esc(s.scenario)}</td><td>${esc(trialText(s, 'a'))}</td><td>${esc(trialText(s, 'b'))}</td>` +
        `<td>${esc(s.causes_a.join('; '))}</td><td>${esc(s.causes_b.join('; '))}</td></tr>`,
    )
    .join('');
  const metricRows = c.metrics
    .map((m) => {
      const worse = m.better === 'lower' ? m.ci95[0] > 0 : m.ci95[1] < 0;
      const better = m.better === 'lower' ? m.ci95[1] < 0 : m.ci95[0] > 0;
      const cls = worse ? ' class="bad-text"' : better ? ' style="color:var(--good)"' : '';
      return (
        `<tr><td>${esc(m.label)}</td><td>${esc(value(m.mean_a, m.unit))}</td><td>${esc(value(m.mean_b, m.unit))}</td>` +
        `<td${cls}>${esc(signed(m.mean, m.unit))}</td><td>${esc(interval(m.ci95, m.unit))}</td><td>${m.n}</td></tr>`
      );
    })
    .join('');
  const scenarioRows = c.scenarios
    .map((s) => {
      const cells = ['latency_p50_ms', 'turns', 'agent_wer'].map((k) => {
        const d = s.metrics[k];
        const spec = c.metrics.find((m) => m.key === k);
        return `<td>${d && spec ? esc(signed(d.delta, spec.unit)) : ''}</td>`;
      });
      return `<tr><td>${esc(s.scenario)}</td><td>${esc(trialText(s, 'a'))}</td><td>${esc(trialText(s, 'b'))}</td>${cells.join('')}</tr>`;
    })
    .join('');
  const delta = c.pass_rate_delta;
  const cards = [
    ['Pass rate A', pct(c.pass_rate_a), esc(c.a.name)],
    ['Pass rate B', pct(c.pass_rate_b), esc(c.b.name)],
    [
      'Difference',
      delta ? signed(delta.mean, 'rate') : 'N/A',
      delta ? `95% CI ${interval(delta.ci95, 'rate')}` : '',
    ],
    ['Flips', `${c.fixed} fixed · ${c.broken} broken`, `McNemar p = ${c.mcnemar_p.toPrecision(3)}`],
    [
      'Noise floor',
      c.noise_floor ? `±${(c.noise_floor.pass_rate_band * 100).toFixed(1)} pt` : 'N/A',
      c.noise_floor
        ? `${c.noise_floor.expected_flips.toFixed(1)} flips expected by chance`
        : 'one trial per scenario: run with --trials k',
    ],
  ]
    .map(
      ([label, big, sub]) =>
        `<div class="card"><div class="sub">${esc(label)}</div><div class="big">${esc(big)}</div><div class="sub">${sub}</div></div>`,
    )
    .join('');
  const regressed = c.verdict === 'regressed';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Compare ${esc(c.a.name)} → ${esc(c.b.name)}</title>
<style>${REPORT_CSS}</style></head>
<body><main>
<h1>Compare ${esc(c.a.name)} → ${esc(c.b.name)}</h1>
<p class="muted">scorer ${esc(c.scorer)} · ${c.paired_scenarios} scenarios in common · ${c.paired_trials} trial pairs · bootstrap seed ${c.seed}</p>
<div class="banner"${regressed ? ' style="background:#fde2e0;border-color:#c0392b"' : ''}>${esc(verdictText(c.verdict))}</div>
<div class="cards">${cards}</div>
<h2>Flipped scenarios</h2>
${flips.length === 0 ? '<p class="muted">No scenario flipped.</p>' : `<div class="scroll"><table><thead><tr><th>flip</th><th>scenario</th><th>A</th><th>B</th><th>cause in A</th><th>cause in B</th></tr></thead><tbody>${flipRows}</tbody></table></div>`}
<h2>Metric deltas</h2>
${c.metrics.length === 0 ? '<p class="muted">No metric present in both runs.</p>' : `<div class="scroll"><table><thead><tr><th>metric</th><th>A</th><th>B</th><th>B − A</th><th>95% CI</th><th>pairs</th></tr></thead><tbody>${metricRows}</tbody></table></div>`}
${c.only_in_a.length + c.only_in_b.length > 0 ? `<h2>Not paired</h2><p>Only in A: ${esc(c.only_in_a.join(', ') || 'none')}</p><p>Only in B: ${esc(c.only_in_b.join(', ') || 'none')}</p>` : ''}
<h2>Every scenario</h2>
<div class="scroll"><table><thead><tr><th>scenario</th><th>A</th><th>B</th><th>Δ latency p50</th><th>Δ turns</th><th>Δ agent WER</th></tr></thead><tbody>${scenarioRows}</tbody></table></div>
</main></body></html>
`;
}
