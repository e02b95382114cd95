/**
 * Gold replay of NeMo's eva_airline suite with our tools: every derived gold call must deliver
 * its recorded result, and every scenario must reach the published expected hash (and eva's
 * expected end state, where the data root has it).
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  DbCache,
  DomainRegistry,
  getDictHash,
  registerControlTools,
} from '@scenaro/agent/scenario';
import { evaAirline } from '@scenaro/domains';
import { replayDomain } from './replay.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const dataRoot = path.resolve(here, '../../../../../shared/eval-data');
const hasData = existsSync(path.join(dataRoot, 'eva_airline', 'scenarios.json'));
if (!hasData) {
  console.warn(`[nemo-replay.test] skipping eva_airline replay: no suite data under ${dataRoot}`);
}

describe.skipIf(!hasData)('gold replay of eva_airline', () => {
  it('reproduces every recorded result and every published expected hash', async () => {
    const registry = registerControlTools(new DomainRegistry().register(evaAirline.module));
    const results = await replayDomain(evaAirline, {
      registry,
      dataRoot,
      cache: new DbCache(),
    });
    expect(results).toHaveLength(50);
    const scenarios = new Map((await evaAirline.loadScenarios(dataRoot)).map((s) => [s.name, s]));
    let published = 0;
    let againstEva = 0;
    for (const result of results) {
      expect(result.errors, result.scenario).toEqual([]);
      expect(result.warnings, result.scenario).toEqual([]);
      for (const action of result.results) expect(action.match, result.scenario).toBe(true);
      const scenario = scenarios.get(result.scenario);
      if (typeof scenario?.expectedDbHash === 'string') {
        published++;
        expect(result.db_hash).toBe(scenario.expectedDbHash);
      }
      const evaId = result.scenario.replace(/^eva_airline__/, '').replace(/_/g, '.');
      const expectedFile = path.join(dataRoot, 'eva_airline', 'expected', `${evaId}.json`);
      if (existsSync(expectedFile)) {
        againstEva++;
        expect(result.db_hash).toBe(getDictHash(JSON.parse(readFileSync(expectedFile, 'utf8'))));
      }
    }
    expect(published).toBe(25);
    expect(againstEva).toBeGreaterThan(0);
  });
});
