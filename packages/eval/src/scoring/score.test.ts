import { describe, expect, it } from 'vitest';
import { nemoRestaurant } from '@scenaro/domains';
import { makeRun, makeScenario } from '../test-support/scoring-fixtures.js';
import { scoreRun } from './score.js';

const order = {
  items: [{ name: 'Pepperoni Pizza', unit_price: '9.99', quantity: '1' }],
  customer_name: 'Charlie',
  customer_phone: '314-527-8960',
  total_price: '9.99',
};

async function score(finalResponses: unknown[], options: { ignore?: boolean } = {}) {
  const scenario = makeScenario({
    domain: 'restaurant',
    successSignals: ['is_action_match', 'clean_exit'],
    referenceAnswer: order,
    actionMatch: {
      ignoreCapitalization: options.ignore ?? true,
      ignorePunctuation: options.ignore ?? true,
    },
  });
  return scoreRun(
    { scenario, domain: nemoRestaurant, trial: 1, key: scenario.name },
    makeRun({ finalResponses }),
    { dbHash: null, userDbHash: null, errors: [], recordedActions: [] },
    { dir: '', minAgentTurns: 3, scorer: 'nemo' },
  );
}

describe('scoring against a scenario’s own reference answer', () => {
  it('matches the pushed order with the scenario’s string options', async () => {
    const pushed = { ...order, customer_name: 'charlie!', total_price: 9.99 };
    expect((await score([pushed])).is_action_match).toBe(true);
    expect((await score([pushed], { ignore: false })).is_action_match).toBe(false);
  });

  it('uses the last of several pushes and fails a wrong order', async () => {
    const wrong = { ...order, total_price: 10.99 };
    expect((await score([wrong, order])).is_successful).toBe(true);
    const metrics = await score([order, wrong]);
    expect(metrics.is_action_match).toBe(false);
    expect(metrics.is_successful).toBe(false);
  });
});
