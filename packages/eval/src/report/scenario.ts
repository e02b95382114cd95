/**
 * One scenario's row in the report, expanding to its signals, transcript, actions, assertion
 * verdicts and db diff.
 *
 * @module
 */
import { audioCells, audioDetails } from './audio.js';
import type { ActionRecord } from '@scenaro/sdk/protocol';
import type { ScenarioMetrics } from '../scoring/types.js';
import { dbDiff } from './db-diff.js';
import { STATUS_LABEL, esc, ms, short, statusOf } from './format.js';

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

/**
 * An action's arguments; a record a tool builds itself (NeMo's eva tools: an `action_type` and
 * fields of its own, no `name` or `arguments`) shows its fields instead.
 */
function actionDetails(a: ActionRecord): unknown {
  if (a.arguments !== undefined) return a.arguments;
  const {
    action_type: _type,
    side: _side,
    ...fields
  } = a as ActionRecord & Record<string, unknown>;
  return fields;
}

function actionList(actions: readonly ActionRecord[], side: string): string {
  if (actions.length === 0) return `<p class="muted">No ${esc(side)} actions.</p>`;
  return `<ol class="actions">${actions
    .map(
      (a) =>
        `<li><code>${esc(a.name ?? a.action_type)}</code> <span class="args">${esc(short(actionDetails(a), 600))}</span>${a.result !== undefined ? `<div class="muted">→ ${esc(short(a.result, 300))}</div>` : ''}</li>`,
    )
    .join('')}</ol>`;
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

export function scenarioRow(m: ScenarioMetrics, index: number): string {
  const status = statusOf(m);
  const search = `${m.scenario_name} ${m.domain} ${m.stop_reason}`.toLowerCase();
  const notes: string[] = [];
  if (m.failure_reason) notes.push(`<p class="bad-text">${esc(m.failure_reason)}</p>`);
  if (m.failure_attribution)
    notes.push(`<p class="bad-text">Cause: ${esc(m.failure_attribution.summary)}</p>`);
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
    audioCells(m) +
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
    audioDetails(m) +
    `<h4>Transcript</h4>${transcript(m)}</div></details>`
  );
}
