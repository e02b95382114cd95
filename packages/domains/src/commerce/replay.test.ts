/**
 * Gold replay of every shipped commerce scenario: initialize a fresh session with
 * `applyInitialization` (db from COMMERCE_DATA_ROOT), run each gold action through
 * `executeBoundTool`, then check the expected end state and the pinned db hash.
 *
 * After an intended change to the data or the tools, refresh the pinned hashes with
 *   COMMERCE_UPDATE_HASHES=1 npx vitest run packages/domains/src/commerce/replay.test.ts
 * and review the diff.
 */
import { readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { DbCache, getDictHash, loadDbArtifact } from '@scenaro/agent/scenario';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Scenario } from '../scenario.js';
import { COMMERCE_DATA_ROOT } from './data-root.js';
import { commerceEvalDomain } from './eval-domain.js';
import { replayCommerceScenario } from './replay.js';
import { formatMismatches } from './scenarios/expected-state.js';

const UPDATE = process.env['COMMERCE_UPDATE_HASHES'] === '1';
const cache = new DbCache();
const scenarios: Scenario[] = await commerceEvalDomain.loadScenarios(COMMERCE_DATA_ROOT);
let initialHash: string;

beforeAll(async () => {
  initialHash = getDictHash(await loadDbArtifact(COMMERCE_DATA_ROOT, 'commerce/db.json'));
});

async function pinHash(scenario: Scenario, hash: string): Promise<void> {
  const text = await readFile(scenario.source, 'utf8');
  const updated = text.replace(/("expected_db_hash":\s*")[0-9a-f]{64}(")/, `$1${hash}$2`);
  if (updated !== text) await writeFile(scenario.source, updated);
}

describe('shipped commerce scenarios', () => {
  it('has at least 20 scenarios with unique names', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(20);
    expect(new Set(scenarios.map((s) => s.name)).size).toBe(scenarios.length);
  });

  it.each(scenarios.map((s) => [s.name, s] as const))(
    '%s replays its gold actions',
    async (_name, scenario) => {
      const result = await replayCommerceScenario(scenario, { cache });
      const failures = result.failures.map((f) => `${f.action.name}: ${f.outcome.error ?? ''}`);
      expect(failures).toEqual([]);
      expect(result.expectedState, 'scenario states an expected end state').toBeDefined();
      if (result.expectedState && !result.expectedState.ok) {
        expect.fail(
          `${path.basename(scenario.source)}:\n${formatMismatches(result.expectedState.mismatches)}`,
        );
      }
      if (UPDATE) await pinHash(scenario, result.dbHash);
      else expect(result.dbHash).toBe(scenario.expectedDbHash);
      // Write scenarios change the db; read-only ones leave it exactly as initialized.
      const writes = result.steps.filter((s) => s.outcome.action !== undefined).length;
      const initWrites = scenario.initializationActions.filter(
        (a) => a.func_name !== 'sign_in',
      ).length;
      if (writes === 0 && initWrites === 0) expect(result.dbHash).toBe(initialHash);
      else expect(result.dbHash).not.toBe(initialHash);
      // Replays are deterministic: a second run gives the same end state.
      expect((await replayCommerceScenario(scenario, { cache })).dbHash).toBe(result.dbHash);
    },
  );
});
