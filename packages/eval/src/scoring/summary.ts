/**
 * The `all_summary.txt` text of a run: its aggregate numbers, then one block per scenario.
 *
 * @module
 */
import type { DomainAggregate, RunAggregate } from './aggregate.js';
import type { AudioAggregate, PooledEntityAccuracy } from './audio-aggregate.js';
import { audioOf } from './audio-aggregate.js';
import type { Rate, RateWithInterval } from './statistics.js';
import type { EntityAccuracySide, LatencyStats, ScenarioMetrics } from './types.js';

const RULE = '-'.repeat(80);

function pct(r: Rate): string {
  return r.rate === null ? 'N/A' : `${(r.rate * 100).toFixed(2)}%`;
}

function pctPadded(r: Rate): string {
  return r.rate === null ? '   N/A' : (r.rate * 100).toFixed(2).padStart(6) + '%';
}

function interval(r: RateWithInterval): string {
  return r.ci95 === null
    ? ''
    : `, 95% CI ${(r.ci95[0] * 100).toFixed(1)}-${(r.ci95[1] * 100).toFixed(1)}%`;
}

function fmtValue(v: unknown): string {
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (v === null || v === undefined) return 'None';
  return String(v);
}

function thousands(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

function latencyLines(stats: LatencyStats, indent: string): string[] {
  return [
    `${indent}Mean: ${stats.mean_ms.toFixed(1)}ms`,
    `${indent}P50: ${stats.p50_ms.toFixed(1)}ms`,
    `${indent}P95: ${stats.p95_ms.toFixed(1)}ms`,
    `${indent}Min: ${stats.min_ms.toFixed(1)}ms`,
    `${indent}Max: ${stats.max_ms.toFixed(1)}ms`,
  ];
}

function percent(value: number | null): string {
  return value === null ? 'N/A' : `${(value * 100).toFixed(2)}%`;
}

function accuracyText(a: PooledEntityAccuracy | EntityAccuracySide): string {
  return `${percent(a.accuracy)} (${a.heard_right}/${a.said} values)`;
}

/** A word error rate, N/A over no reference words. */
function werText(w: { wer: number | null; reference_words: number }): string {
  return percent(w.reference_words === 0 ? null : w.wer);
}

/** The audio lines of one scenario (none for a text-mode scenario). */
function scenarioAudioLines(m: ScenarioMetrics): string[] {
  const audio = audioOf(m);
  if (!audio) return [];
  const c = audio.clarifications;
  const lines = [
    `  Audio: entity accuracy, agent heard ${accuracyText(audio.entity_accuracy.agent_stt)}, user heard ${accuracyText(audio.entity_accuracy.user_stt)}`,
    `    WER agent heard ${werText(audio.wer.agent_stt)} (normalized ${werText(audio.normalized_wer.agent_stt)}), user heard ${werText(audio.wer.user_stt)} (normalized ${werText(audio.normalized_wer.user_stt)})`,
    `    Clarification turns: ${c.total}${c.total > 0 ? ` (${c.turns.map((t) => `${t.role} ${t.kind} (turn ${t.turn})`).join(', ')})` : ''}`,
  ];
  for (const side of ['agent_stt', 'user_stt'] as const) {
    const [speaker, listener] = side === 'agent_stt' ? ['user', 'agent'] : ['agent', 'user'];
    for (const e of audio.entity_accuracy[side].misheard)
      lines.push(
        `    Misheard: the ${speaker} said ${e.kind} ${e.said}, the ${listener} heard ${e.heard ?? 'something else'} (turn ${e.turn})`,
      );
  }
  return lines;
}

/** The run's audio block. */
function audioLines(a: AudioAggregate): string[] {
  const c = a.clarifications;
  return [
    '',
    '',
    `Audio (${a.scenarios} scenario(s)):`,
    RULE,
    `  ${'Entity accuracy, agent heard:'.padEnd(38)}${accuracyText(a.entity_accuracy.agent_stt)}`,
    `  ${'Entity accuracy, user heard:'.padEnd(38)}${accuracyText(a.entity_accuracy.user_stt)}`,
    `  ${'WER agent heard (raw / normalized):'.padEnd(38)}${werText(a.wer.agent_stt)} / ${werText(a.normalized_wer.agent_stt)}`,
    `  ${'WER user heard (raw / normalized):'.padEnd(38)}${werText(a.wer.user_stt)} / ${werText(a.normalized_wer.user_stt)}`,
    `  ${'Clarification turns:'.padEnd(38)}${c.total} (${c.per_scenario.toFixed(2)} per scenario; agent ${c.agent}, user ${c.user})`,
    `  ${'Barge-ins:'.padEnd(38)}${a.barge_ins}`,
    `  ${a.misheard_failures} failure(s) trace to a misheard entity.`,
  ];
}

function scenarioBlock(m: ScenarioMetrics): string[] {
  const lines = [`====== ${m.scenario_name}${m.trial > 1 ? ` (trial ${m.trial})` : ''} ======:`];
  lines.push(`  Is successful: ${fmtValue(m.is_successful)}`);
  lines.push(`  Is task-successful (excl. clean_exit): ${fmtValue(m.is_task_successful)}`);
  if (m.not_scored_reason) lines.push(`  [NOT SCORED: ${m.not_scored_reason}]`);
  if (m.failure_reason) lines.push(`  Failure: ${m.failure_reason}`);
  lines.push(`    Action-list match: ${fmtValue(m.is_action_match)}`);
  if (m.db_state_match !== 'N/A') lines.push(`    DB-state match: ${fmtValue(m.db_state_match)}`);
  if (m.user_db_state_match !== 'N/A')
    lines.push(`    User DB-state match: ${fmtValue(m.user_db_state_match)}`);
  if (typeof m.db_state_assertion_pass_rate === 'number') {
    lines.push(
      `    DB-state-assertion pass rate: ${(m.db_state_assertion_pass_rate * 100).toFixed(2)}%`,
    );
  }
  if (typeof m.nl_assertion_pass_rate === 'number') {
    lines.push(`    NL-assertion pass rate: ${(m.nl_assertion_pass_rate * 100).toFixed(2)}%`);
  }
  if (typeof m.judge_score === 'number') lines.push(`    Judge score: ${m.judge_score.toFixed(2)}`);
  if (m.judge_passed !== 'N/A') lines.push(`    Judge passed: ${fmtValue(m.judge_passed)}`);
  if (m.tau2) {
    const parts = m.tau2.reward_basis
      .map((c) => `${c}=${fmtValue(m.tau2?.reward_breakdown[c])}`)
      .join(', ');
    lines.push(`    tau2 reward: ${fmtValue(m.tau2.reward)} (${parts || 'empty basis'})`);
  }
  if (m.success_breakdown.failed.length > 0)
    lines.push(`    Failed signals: ${m.success_breakdown.failed.join(', ')}`);
  if (m.failure_attribution) lines.push(`  Failure cause: ${m.failure_attribution.summary}`);
  lines.push(`  Stop reason: ${m.stop_reason}`);
  lines.push(`  Turns: ${m.total_turns}`);
  if (m.stalled)
    lines.push(
      '  [COUNTED AS FAILURE: insufficient agent turns / stalled — excluded from per-signal rates]',
    );
  lines.push(`  Duration: ${m.scenario_duration.toFixed(1)}s`);
  if (m.scenario_duration > 0)
    lines.push(`  Turns/min: ${(m.total_turns / (m.scenario_duration / 60)).toFixed(1)}`);
  lines.push(`  Latency Measurements: ${m.latency_stats.count}`);
  if (m.latency_stats.count > 0) lines.push(...latencyLines(m.latency_stats, '    '));
  lines.push(...scenarioAudioLines(m));
  return lines;
}

/** The text of `all_summary.txt`. */
export function formatSummary(
  aggregate: RunAggregate,
  metrics: readonly ScenarioMetrics[],
): string {
  const out: string[] = [];
  const scriptedNote = aggregate.scripted
    ? 'Every result in this run came from SCRIPTED policies (no LLM). These numbers check the harness, not a model.'
    : aggregate.scripted_agent_results > 0
      ? `${aggregate.scripted_agent_results} of ${aggregate.results} result(s) had a SCRIPTED agent (no LLM); they do not measure a model.`
      : undefined;
  if (scriptedNote) {
    out.push('#'.repeat(80), `# ${scriptedNote}`, '#'.repeat(80), '');
  }
  out.push('EVALUATION SUMMARY', '='.repeat(80), '');
  out.push(`Total Scenarios: ${aggregate.unique_scenarios}`);
  if (aggregate.trials > 1)
    out.push(`Trials per Scenario: up to ${aggregate.trials} (${aggregate.results} results)`);
  out.push(`Scorer: ${aggregate.scorer}`);
  out.push(`Total Duration: ${(aggregate.duration_seconds / 60).toFixed(1)}mins`);
  out.push(`Total Turns: ${aggregate.turns.total}`, '');

  out.push('Per-Scenario Results:', RULE);
  for (const m of metrics) out.push('', ...scenarioBlock(m));

  out.push('', '', 'Overall Latency Statistics:', RULE);
  out.push(`  Total Measurements: ${aggregate.latency.count}`);
  out.push(...latencyLines(aggregate.latency, '  '));

  if (aggregate.stalled.length > 0) {
    const threshold =
      aggregate.min_agent_turns !== undefined
        ? `fewer than ${aggregate.min_agent_turns} agent turn(s)`
        : 'too few agent turns';
    out.push(
      '',
      '',
      `WARNING: ${aggregate.stalled.length} scenario(s) had ${threshold} (likely stalled LLM / server hang) and were counted as failures.`,
      `Stalled scenarios: ${aggregate.stalled.join(', ')}`,
      'Resume the run to retry them.',
    );
  }
  if (aggregate.audio) out.push(...audioLines(aggregate.audio));
  const causes = Object.entries(aggregate.failure_causes);
  if (causes.length > 0) {
    out.push('', '', 'Failures by cause (first point off the gold path):');
    for (const [cause, n] of causes) out.push(`  ${cause}: ${n}`);
    const misheard = aggregate.failure_causes.mishearing ?? 0;
    if (misheard > 0) out.push(`  ${misheard} failure(s) trace to a misheard entity.`);
  }
  if (aggregate.failures.length > 0) {
    out.push(
      '',
      '',
      `WARNING: ${aggregate.failures.length} scenario(s) failed in the harness and were counted as failures:`,
    );
    for (const f of aggregate.failures)
      out.push(`  ${f.scenario}: ${f.infrastructure ? '[infrastructure] ' : ''}${f.reason}`);
  }
  if (aggregate.not_scored.length > 0) {
    out.push(
      '',
      '',
      `NOT SCORED: ${aggregate.not_scored.length} scenario(s) left out of the success rates:`,
    );
    for (const n of aggregate.not_scored) out.push(`  ${n.scenario}: ${n.reason}`);
  }

  const s = aggregate.success;
  if (s.total > 0) {
    out.push(
      '',
      '',
      `Overall Success Rate: ${pct(s)} (${s.passed}/${s.total} scenarios — strict conjunction across all applicable signals${interval(s)})`,
    );
    const t = aggregate.task_success;
    if (t.total > 0)
      out.push(
        `Task Success Rate (excl. clean_exit): ${pct(t)} (${t.passed}/${t.total} scenarios${interval(t)})`,
      );
  } else {
    out.push('', '', 'Overall Success Rate: N/A (no scenarios had any applicable signal)');
  }

  const sig = aggregate.signals;
  out.push('', 'Per-signal pass rates:');
  const signalLine = (label: string, r: Rate, unit: string): void => {
    if (r.total > 0)
      out.push(`  ${label.padEnd(29)}${pctPadded(r)} (${r.passed}/${r.total} ${unit})`);
  };
  signalLine('Action-list match:', sig.is_action_match, 'scenarios');
  signalLine('DB-State match:', sig.db_state_match, 'scenarios');
  signalLine('User DB-State match:', sig.user_db_state_match, 'scenarios');
  signalLine('DB-State-Assertion pass:', sig.db_state_assertion, 'predicates');
  signalLine('NL-Assertion pass:', sig.nl_assertion, 'assertions');
  if (sig.judge_score_mean !== null) {
    out.push(
      `  ${'Judge score mean:'.padEnd(29)}${sig.judge_score_mean.toFixed(3)} (across ${sig.judge_score_count} scenarios)`,
    );
  }
  signalLine('Judge passed (>= threshold):', sig.judge_passed, 'scenarios');
  signalLine('Clean exit:', sig.clean_exit, 'scenarios');

  if (aggregate.tau2) {
    out.push('', 'tau2 reward:');
    out.push(
      `  Average reward: ${aggregate.tau2.avg_reward === null ? 'N/A' : aggregate.tau2.avg_reward.toFixed(4)} (${aggregate.tau2.rewarded} scored)`,
    );
    for (const [c, r] of Object.entries(aggregate.tau2.components)) {
      out.push(`  ${`${c}:`.padEnd(29)}${pctPadded(r)} (${r.passed}/${r.total} scenarios)`);
    }
  }

  if (aggregate.pass_hat_k.length > 0) {
    out.push('', '', 'pass^k (mean over tasks of C(c,k)/C(n,k)):', RULE);
    for (const p of aggregate.pass_hat_k) {
      const domains = Object.entries(p.per_domain)
        .map(([d, v]) => `${d} ${(v * 100).toFixed(2)}%`)
        .join(', ');
      out.push(
        `  pass^${p.k}: ${p.value === null ? 'N/A' : `${(p.value * 100).toFixed(2)}%`} (${p.tasks} tasks)${domains ? ` — ${domains}` : ''}`,
      );
    }
  }

  const tokens = aggregate.tokens;
  if (tokens.agent.n_calls + tokens.user.n_calls > 0) {
    out.push('', '', 'Token Usage:', RULE);
    for (const side of ['agent', 'user'] as const) {
      const b = tokens[side];
      out.push(
        `  ${side}: ${b.n_calls} call(s), prompt=${thousands(b.prompt_tokens)}, completion=${thousands(b.completion_tokens)}, total=${thousands(b.prompt_tokens + b.completion_tokens)}`,
      );
    }
    out.push(
      `  Run total: ${thousands(tokens.agent.prompt_tokens + tokens.agent.completion_tokens + tokens.user.prompt_tokens + tokens.user.completion_tokens)} tokens`,
    );
  }

  const domains = Object.entries(aggregate.per_domain);
  if (domains.length > 1) {
    const block = (title: string, pick: (d: DomainAggregate) => Rate): void => {
      const rows = domains.filter(([, d]) => pick(d).total > 0);
      if (rows.length === 0) return;
      out.push('', title, RULE);
      for (const [name, d] of rows) {
        const r = pick(d);
        out.push(`  ${name}: ${pct(r)} (${r.passed}/${r.total})`);
      }
    };
    out.push('');
    block('Per-Domain Success Rate:', (d) => d.success);
    block('Per-Domain Task Success Rate (excl. clean_exit):', (d) => d.task_success);
    block('Per-Domain DB-State Match Rate:', (d) => d.signals.db_state_match);
    block('Per-Domain NL-Assertion Pass Rate:', (d) => d.signals.nl_assertion);
    block('Per-Domain DB-State-Assertion Pass Rate:', (d) => d.signals.db_state_assertion);
  }
  return `${out.join('\n')}\n`;
}
