import { describe, expect, it } from 'vitest';
import {
  applyInitialization,
  createScenarioState,
  DbCache,
  getDictHash,
} from '@scenaro/agent/scenario';
import { hasSuiteData, nemoDataRoot, registryOf } from '../../test-support/nemo-data.js';
import { evaAirline } from './domain.js';

describe.skipIf(!hasSuiteData('eva_airline'))('eva_airline scenarios', () => {
  it('carries NeMo prompts, tools JSON order, signals and the inline db', async () => {
    const scenarios = await evaAirline.loadScenarios(nemoDataRoot);
    expect(scenarios).toHaveLength(50);
    for (const s of scenarios) {
      expect(s.name.startsWith('eva_airline__')).toBe(true);
      expect(s.successSignals).toEqual(['db_state_match', 'clean_exit']);
      expect(s.agent.toolDomain).toBe('eva_airline');
      expect(Object.keys(s.agent.tools)).toHaveLength(16);
      expect(Object.keys(s.agent.tools)[0]).toBe('GetReservationTool');
      const db = s.agent.sharedStateInit['db'] as Record<string, unknown>;
      expect(typeof db['_current_date']).toBe('string');
      expect(s.referenceActions.length).toBeGreaterThan(0);
    }
    expect(scenarios.filter((s) => typeof s.expectedDbHash === 'string')).toHaveLength(25);
  });

  it('loads a db_path such as eva_airline/1.1.2.json (NeMo cannot: it reads 1.1.json)', async () => {
    const state = createScenarioState();
    const result = await applyInitialization(
      state,
      {
        domain: 'eva_airline',
        shared_state_init: JSON.stringify({ db_path: 'eva_airline/1.1.2.json' }),
        actions: [],
      },
      registryOf([evaAirline]),
      { dataRoot: nemoDataRoot, cache: new DbCache() },
    );
    expect(result.errors).toEqual([]);
    // The hash of eva's 1.1.2.json as reference/db-hash.md lists it.
    expect(getDictHash(state.db)).toBe(
      '1c8ca8c775d255dcedbcc1641eed5ea6925dc965b672302db254a9dc2c59fb16',
    );
  });
});
