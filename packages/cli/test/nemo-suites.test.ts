// NeMo's suites through the built `scenaro` command: listed, and eva_airline's replay reaching
// every published hash (`npm run build` first; the suites come from ../shared/eval-data).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliBuilt, killCliChildren, repoRoot, runCliToEnd } from './built-cli.js';

const built = cliBuilt('packages/cli/test/nemo-suites.test.ts');
const dataRoot = join(repoRoot, '../shared/eval-data');
const hasData = existsSync(join(dataRoot, 'eva_airline', 'scenarios.json'));
if (!hasData) console.warn(`NeMo suite CLI tests skipped: no suite data under ${dataRoot}`);

const SUITES: Record<string, number> = {
  eva_airline: 50,
  restaurant: 11,
  fastbite: 1,
  customer_service: 10,
  qa: 10,
  simple_qa: 3,
};

afterAll(() => killCliChildren());

describe.skipIf(!built || !hasData)('scenaro with the NeMo suites', { timeout: 60_000 }, () => {
  it('eval --list lists every scenario of each suite', async () => {
    const args = ['eval', '--list', '--data-root', dataRoot];
    for (const suite of Object.keys(SUITES)) args.push('--domain', suite);
    const { code, stdout } = await runCliToEnd(args);
    expect(code).toBe(0);
    const names = stdout.trim().split('\n');
    for (const [suite, count] of Object.entries(SUITES)) {
      const entries = JSON.parse(
        readFileSync(join(dataRoot, suite, 'scenarios.json'), 'utf8'),
      ) as Record<string, unknown>;
      expect(Object.keys(entries)).toHaveLength(count);
      for (const name of Object.keys(entries)) expect(names).toContain(name);
    }
    expect(names).toHaveLength(85);
  });

  it('replay --domain eva_airline reaches every published expected hash', async () => {
    const { code, stdout } = await runCliToEnd(
      ['replay', '--domain', 'eva_airline', '--data-root', dataRoot, '--json'],
      60_000,
    );
    expect(code).toBe(0);
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { scenario: string; db_hash: string; errors: string[] });
    expect(lines).toHaveLength(50);
    const entries = JSON.parse(
      readFileSync(join(dataRoot, 'eva_airline', 'scenarios.json'), 'utf8'),
    ) as Record<string, { expected_db_hash: string | null }>;
    let published = 0;
    for (const line of lines) {
      expect(line.errors, line.scenario).toEqual([]);
      const expected = entries[line.scenario]?.expected_db_hash;
      if (typeof expected === 'string') {
        published++;
        expect(line.db_hash, line.scenario).toBe(expected);
      }
    }
    expect(published).toBe(25);
  });
});
