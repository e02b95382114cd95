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
import { audioOverview } from './audio.js';
import { interactionOverview } from './interaction.js';
import type { DomainAggregate, RunAggregate } from '../scoring/aggregate.js';
import type { Rate } from '../scoring/statistics.js';
import type { ScenarioMetrics } from '../scoring/types.js';
import { causesSection } from './causes.js';
import { barChart, histogram, rateRows } from './charts.js';
import { esc, ms, pct, statusOf } from './format.js';
import type { Status } from './format.js';
import { scenarioRow } from './scenario.js';

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

/** The report's style sheet, shared by the pages the harness writes. */
export const REPORT_CSS = `
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
<style>${REPORT_CSS}</style>
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
${causesSection(metrics)}
${audioOverview(metrics)}
${interactionOverview(metrics)}<h2>Domains</h2>
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
