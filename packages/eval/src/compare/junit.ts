/**
 * JUnit XML, the test-report format CI systems read: one `<testcase>` per scenario (and trial)
 * of a run, or per paired scenario of a comparison. A failure's message names the signal that
 * failed and what it saw (the first differing db leaf, the action counts, the stop reason), so a
 * CI page says why without opening the report.
 *
 * @module
 */
import { diffRows } from '../report/db-diff.js';
import type { DbDiffReport, ScenarioMetrics } from '../scoring/types.js';
import type { RunComparison } from './compare.js';
import { failureCause } from './compare.js';

/** Text made safe for an XML attribute or element (and free of characters XML 1.0 forbids). */
export function xmlText(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- removing the control characters XML 1.0 forbids
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '\ufffd')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/\n/g, '&#10;')
  );
}

interface TestCase {
  name: string;
  classname: string;
  seconds: number;
  failure?: { type: string; message: string; detail: string };
  error?: { type: string; message: string; detail: string };
  skipped?: string;
  output?: string;
}

function firstLeaf(report: DbDiffReport | undefined): string | null {
  if (!report || report.status !== 'computed') return null;
  const first = diffRows(report.diff)[0];
  if (!first) return null;
  const note = first.note ? ` (${first.note})` : '';
  return `first difference at ${first.path}: expected ${first.expected || '(absent)'}, got ${first.actual || '(absent)'}${note}`;
}

function short(hash: string | null): string {
  return hash ? hash.slice(0, 12) : 'none';
}

/** Why one failed signal failed, in one line. */
export function signalMessage(m: ScenarioMetrics, signal: string): string {
  switch (signal) {
    case 'is_action_match':
    case 'ACTION': {
      const made = m.actions.agent.length;
      return `action list: the agent's actions do not match the gold plan (${m.reference_action_count} gold, ${made} made)`;
    }
    case 'db_state_match':
    case 'DB':
      return (
        'db state: ' +
        (firstLeaf(m.db_diff) ??
          firstLeaf(m.user_db_diff) ??
          `hash ${short(m.db_state_actual_hash)} != expected ${short(m.db_state_expected_hash)}`)
      );
    case 'db_state_assertion':
    case 'ENV_ASSERTION': {
      const failed = m.db_state_assertion_verdicts.filter((v) => !v.passed);
      return `db assertions: ${failed.length} failed${failed[0] ? ` (first: ${failed[0].func_name}: ${failed[0].message ?? failed[0].error ?? ''})` : ''}`;
    }
    case 'nl_assertion':
    case 'NL_ASSERTION': {
      const failed = m.nl_assertion_verdicts.filter((v) => !v.passed);
      return `judged assertions: ${failed.length} failed${failed[0] ? ` (first: ${failed[0].assertion})` : ''}`;
    }
    case 'judge_passed':
      return `judge: score ${m.judge_score ?? 'none'}${m.judge?.reason ? ` (${m.judge.reason})` : ''}`;
    case 'clean_exit':
      return `clean exit: the conversation ended with ${m.stop_reason}${m.stalled ? ' after a stall' : ''}`;
    case 'COMMUNICATE':
      return 'communicate: the agent did not tell the user what the task needed';
    default:
      return signal;
  }
}

function scenarioCase(m: ScenarioMetrics, withTrial: boolean): TestCase {
  const testCase: TestCase = {
    name: withTrial ? `${m.scenario_name} (trial ${m.trial})` : m.scenario_name,
    classname: m.domain,
    seconds: m.scenario_duration,
  };
  if (m.failure?.infrastructure) {
    testCase.error = {
      type: 'infrastructure',
      message: `infrastructure (${m.failure.phase}): ${m.failure.message}`,
      detail: m.failure.message,
    };
    return testCase;
  }
  if (m.is_successful === true) return testCase;
  if (m.is_successful !== false) {
    testCase.skipped = m.not_scored_reason ?? 'not scored';
    return testCase;
  }
  const messages = m.success_breakdown.failed.map((signal) => signalMessage(m, signal));
  const cause = failureCause(m);
  testCase.failure = {
    type: m.success_breakdown.failed[0] ?? 'failed',
    message: messages.join('; ') || cause,
    detail: [
      ...messages,
      `cause: ${cause}`,
      `stop reason: ${m.stop_reason}`,
      `turns: ${m.total_turns}`,
    ].join('\n'),
  };
  return testCase;
}

function caseXml(c: TestCase): string {
  const open = `    <testcase name="${xmlText(c.name)}" classname="${xmlText(c.classname)}" time="${c.seconds.toFixed(3)}"`;
  const body: string[] = [];
  if (c.failure)
    body.push(
      `      <failure message="${xmlText(c.failure.message)}" type="${xmlText(c.failure.type)}">${xmlText(c.failure.detail)}</failure>`,
    );
  if (c.error)
    body.push(
      `      <error message="${xmlText(c.error.message)}" type="${xmlText(c.error.type)}">${xmlText(c.error.detail)}</error>`,
    );
  if (c.skipped !== undefined) body.push(`      <skipped message="${xmlText(c.skipped)}"/>`);
  if (c.output) body.push(`      <system-out>${xmlText(c.output)}</system-out>`);
  return body.length === 0 ? `${open}/>` : `${open}>\n${body.join('\n')}\n    </testcase>`;
}

function suitesXml(name: string, cases: readonly TestCase[], timestamp: Date): string {
  const count = (f: (c: TestCase) => boolean): number => cases.filter(f).length;
  const seconds = cases.reduce((s, c) => s + c.seconds, 0).toFixed(3);
  const stats =
    `tests="${cases.length}" failures="${count((c) => !!c.failure)}" errors="${count((c) => !!c.error)}" ` +
    `skipped="${count((c) => c.skipped !== undefined)}" time="${seconds}"`;
  const iso = timestamp.toISOString().replace(/\.\d+Z$/, '');
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<testsuites name="${xmlText(name)}" ${stats}>\n` +
    `  <testsuite name="${xmlText(name)}" ${stats} timestamp="${iso}" hostname="localhost">\n` +
    cases.map(caseXml).join('\n') +
    (cases.length > 0 ? '\n' : '') +
    `  </testsuite>\n</testsuites>\n`
  );
}

/** A run's results as JUnit XML: one test case per scenario, and per trial when there are several. */
export function runJunit(
  name: string,
  metrics: readonly ScenarioMetrics[],
  timestamp: Date = new Date(),
): string {
  const withTrial = metrics.some((m) => m.trial > 1);
  const sorted = [...metrics].sort((a, b) =>
    a.scenario_name < b.scenario_name
      ? -1
      : a.scenario_name > b.scenario_name
        ? 1
        : a.trial - b.trial,
  );
  return suitesXml(
    name,
    sorted.map((m) => scenarioCase(m, withTrial)),
    timestamp,
  );
}

/**
 * A comparison as JUnit XML: one test case per paired scenario; a scenario that broke (passed in
 * A, failed in B) fails with B's cause; a fixed one passes and says so.
 */
export function compareJunit(c: RunComparison, timestamp: Date = new Date()): string {
  const cases = c.scenarios.map((s): TestCase => {
    const testCase: TestCase = { name: s.scenario, classname: s.domain, seconds: 0 };
    if (s.trials === 0) testCase.skipped = 'not scored in both runs';
    else if (s.broken_trials > 0)
      testCase.failure = {
        type: 'regression',
        message: `passed in ${c.a.name}, failed in ${c.b.name} (${s.broken_trials} of ${s.trials} trial pairs): ${s.causes_b[0] ?? ''}`,
        detail: s.causes_b.join('\n'),
      };
    else if (s.fixed_trials > 0)
      testCase.output = `fixed: failed in ${c.a.name}, passes in ${c.b.name} (${s.fixed_trials} of ${s.trials} trial pairs)`;
    return testCase;
  });
  return suitesXml(`compare ${c.a.name} -> ${c.b.name}`, cases, timestamp);
}
