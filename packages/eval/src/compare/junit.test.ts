import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fieldMismatch, makeMetrics } from '../test-support/scoring-fixtures.js';
import type { ScenarioMetrics } from '../scoring/types.js';
import { compareRuns } from './compare.js';
import { compareJunit, runJunit } from './junit.js';

const schema = new URL('../../test/fixtures/junit.xsd', import.meta.url).pathname;
const hasXmllint = spawnSync('xmllint', ['--version']).status === 0;
if (!hasXmllint && process.env.CI)
  throw new Error('xmllint is missing: install Debian libxml2-utils (.ci/run does)');
if (!hasXmllint) console.warn('SKIPPED: JUnit schema checks need xmllint (Debian libxml2-utils)');

function validate(xml: string): { ok: boolean; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'junit-'));
  const file = join(dir, 'report.xml');
  writeFileSync(file, xml);
  const r = spawnSync('xmllint', ['--noout', '--schema', schema, file], { encoding: 'utf8' });
  return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
}

function failed(name: string, extra: Partial<ScenarioMetrics>): ScenarioMetrics {
  return makeMetrics({ scenario_name: name, is_successful: false, ...extra });
}

const metrics: ScenarioMetrics[] = [
  makeMetrics({
    scenario_name: 'tau2_airline__1',
    domain: 'tau2_airline',
    scenario_duration: 1.25,
  }),
  failed('tau2_airline__2 <&"hostile\u0001">', {
    domain: 'tau2_airline',
    success_breakdown: {
      passed: [],
      failed: ['db_state_match', 'clean_exit'],
      not_applicable: [],
      excluded: [],
    },
    stop_reason: '[MAX_TURNS]',
    db_diff: fieldMismatch('reservations', 'EHGLP3', 'status', 'cancelled', 'active'),
  }),
  failed('tau2_airline__3', {
    domain: 'tau2_airline',
    success_breakdown: {
      passed: [],
      failed: ['is_action_match'],
      not_applicable: [],
      excluded: [],
    },
    reference_action_count: 2,
  }),
  makeMetrics({
    scenario_name: 'tau2_airline__4',
    is_successful: 'N/A',
    not_scored_reason: 'no signal applies',
  }),
  failed('tau2_airline__5', {
    failure: {
      phase: 'connect',
      message: 'agent bot refused the connection',
      infrastructure: true,
    },
  }),
];

describe.skipIf(!hasXmllint)('JUnit XML', () => {
  it('validates against the JUnit schema, one test case per scenario', () => {
    const xml = runJunit('tau2 airline', metrics, new Date('2026-12-05T10:00:00Z'));
    const result = validate(xml);
    expect(result.output).toContain('validates');
    expect(result.ok).toBe(true);
    expect(xml.match(/<testcase /g)).toHaveLength(5);
    expect(xml).toContain('tests="5" failures="2" errors="1" skipped="1"');
  });

  it('names the failed signal and what it saw', () => {
    const xml = runJunit('run', metrics);
    expect(xml).toContain(
      'db state: first difference at reservations[EHGLP3].status: expected &quot;cancelled&quot;, got &quot;active&quot;',
    );
    expect(xml).toContain('clean exit: the conversation ended with [MAX_TURNS]');
    expect(xml).toContain(
      "action list: the agent's actions do not match the gold plan (2 gold, 0 made)",
    );
    expect(xml).toContain(
      '<error message="infrastructure (connect): agent bot refused the connection"',
    );
    expect(xml).toContain('<skipped message="no signal applies"/>');
    expect(xml).not.toContain('\u0001');
  });

  it('names trials when a scenario ran several times', () => {
    const xml = runJunit('run', [
      makeMetrics({ scenario_name: 's__1', trial: 1 }),
      makeMetrics({ scenario_name: 's__1', trial: 2 }),
    ]);
    expect(xml).toContain('name="s__1 (trial 2)"');
    expect(validate(xml).ok).toBe(true);
  });

  it('fails a scenario that broke between two runs, and validates', () => {
    const a = [makeMetrics({ scenario_name: 's__1' }), makeMetrics({ scenario_name: 's__2' })];
    const b = [makeMetrics({ scenario_name: 's__1' }), metrics[2]!].map((m, i) =>
      i === 1 ? { ...m, scenario_name: 's__2' } : m,
    );
    const c = compareRuns(
      { dir: '/a', name: 'a', scorer: 'nemo', metrics: a },
      { dir: '/b', name: 'b', scorer: 'nemo', metrics: b },
    );
    const xml = compareJunit(c);
    expect(validate(xml).ok).toBe(true);
    expect(xml).toContain('<failure message="passed in a, failed in b (1 of 1 trial pairs)');
  });

  it('has a schema that rejects a broken report', () => {
    const good = runJunit('run', metrics.slice(0, 1));
    expect(validate(good.replace(' classname="', ' class="')).ok).toBe(false);
    expect(validate(good.replace('time="1.250"', 'time="soon"')).ok).toBe(false);
    expect(
      validate(
        execFileSync('echo', ['<testsuites><testcase name="x"/></testsuites>'], {
          encoding: 'utf8',
        }),
      ).ok,
    ).toBe(false);
  });
});
