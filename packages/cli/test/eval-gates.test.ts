// CI gating: `scenaro eval --junit/--fail-under` and `scenaro eval compare` with their exit codes
// (0 pass, 1 gate failed, 2 usage or infrastructure error), run as the built command.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliBuilt, repoRoot, runCliToEnd } from './built-cli.js';

const built = cliBuilt('packages/cli/test/eval-gates.test.ts');
const schema = join(repoRoot, 'packages/eval/test/fixtures/junit.xsd');
const hasXmllint = spawnSync('xmllint', ['--version']).status === 0;
if (!hasXmllint && process.env.CI)
  throw new Error('xmllint is missing: install Debian libxml2-utils');
if (!hasXmllint)
  console.warn('SKIPPED: JUnit schema checks of eval-gates need xmllint (libxml2-utils)');

const scenarios =
  'commerce__browse_air_fryers_only,commerce__checkout_with_card,commerce__selection_to_cart';

/** The text of the JUnit file `file`, once it validates against the schema (where xmllint is). */
function validJunit(file: string): string {
  if (hasXmllint)
    expect(spawnSync('xmllint', ['--noout', '--schema', schema, file]).status, file).toBe(0);
  return readFileSync(file, 'utf8');
}

describe.skipIf(!built)('scenaro eval gates and compare', { timeout: 180_000 }, () => {
  const out = mkdtempSync(join(tmpdir(), 'scenaro-gates-'));
  const evalArgs = ['eval', '--scenarios', scenarios, '--output-dir', out, '--concurrency', '2'];

  it('exits 2 on a usage error', async () => {
    expect((await runCliToEnd(['eval', '--bogus'], 30_000)).code).toBe(2);
    const bad = await runCliToEnd([...evalArgs, '--fail-under', 'most'], 30_000);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--fail-under takes a rate from 0 to 1');
    expect((await runCliToEnd(['eval', 'compare', out], 30_000)).code).toBe(2);
  });

  it('passes a run over the bar, writes valid JUnit, and fails one under it with exit 1', async () => {
    const good = await runCliToEnd(
      [...evalArgs, '--run-id', 'good', '--junit', join(out, 'good.xml'), '--fail-under', '100%'],
      120_000,
    );
    expect(good.code, good.stderr).toBe(0);
    expect(good.stdout).toContain('gate passed: success rate 100.0% >= 100.0%');
    expect(validJunit(join(out, 'good.xml'))).toContain('tests="3" failures="0"');

    const faulty = await runCliToEnd(
      [
        ...evalArgs,
        '--run-id',
        'faulty',
        '--faulty-agent',
        'drop-last-action',
        '--junit',
        join(out, 'faulty.xml'),
        '--fail-under',
        '0.5',
      ],
      120_000,
    );
    expect(faulty.code, faulty.stderr).toBe(1);
    expect(faulty.stderr).toContain('success rate 33.3% is under --fail-under 50.0%');
    const xml = validJunit(join(out, 'faulty.xml'));
    expect(xml).toContain('tests="3" failures="2"');
    expect(xml).toMatch(/<failure message="db state: /);
  });

  it('compares: no flips against itself, a regression fails the gate, and refuses nonsense', async () => {
    const self = await runCliToEnd(
      ['eval', 'compare', join(out, 'good'), join(out, 'good'), '--fail-on-regression', '--json'],
      60_000,
    );
    expect(self.code, self.stderr).toBe(0);
    const same = JSON.parse(self.stdout) as { fixed: number; broken: number; verdict: string };
    expect([same.fixed, same.broken, same.verdict]).toEqual([0, 0, 'no-change']);

    const worse = await runCliToEnd(
      [
        'eval',
        'compare',
        join(out, 'good'),
        join(out, 'faulty'),
        '--junit',
        join(out, 'cmp.xml'),
        '--html',
        join(out, 'cmp.html'),
      ],
      60_000,
    );
    expect(worse.code, worse.stderr).toBe(0);
    expect(worse.stdout).toContain('flips: 0 fixed, 2 broken');
    validJunit(join(out, 'cmp.xml'));
    expect(readFileSync(join(out, 'cmp.html'), 'utf8')).toContain('commerce__checkout_with_card');
    const gated = await runCliToEnd(
      ['eval', 'compare', join(out, 'good'), join(out, 'faulty'), '--fail-on-regression'],
      60_000,
    );
    // Two flips out of three could be chance: the gate holds.
    expect(gated.code).toBe(0);
    expect(gated.stdout).toContain('not significant');
    expect(existsSync(join(out, 'faulty', 'compare-good.html'))).toBe(true);

    const missing = await runCliToEnd(
      ['eval', 'compare', join(out, 'good'), join(out, 'nope')],
      30_000,
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such run folder');
  });
});
