import { describe, expect, it } from 'vitest';
import * as match from './match.js';

describe('isClose (np.isclose)', () => {
  it('uses rtol 1e-5 relative to the prediction and atol 1e-8', () => {
    expect(match.isClose(100, 100.0009)).toBe(true);
    expect(match.isClose(100, 100.002)).toBe(false);
    expect(match.isClose(0, 1e-9)).toBe(true);
    expect(match.isClose(0, 1e-7)).toBe(false);
    expect(match.isClose(Infinity, Infinity)).toBe(true);
    expect(match.isClose(Infinity, -Infinity)).toBe(false);
    expect(match.isClose(Number.NaN, Number.NaN)).toBe(false);
  });
});

describe('leaf matching', () => {
  it('compares numerically when both sides are numbers to Python', () => {
    expect(match.matchLeaf('9.99', 9.99)).toBe(true);
    expect(match.matchLeaf('1', '1.0')).toBe(true);
    expect(match.matchLeaf('11.49', '11.490001')).toBe(true);
    expect(match.matchLeaf('11.49', '11.50')).toBe(false);
    expect(match.matchLeaf(true, 1)).toBe(true);
  });

  it('compares strings exactly unless told to ignore case or punctuation', () => {
    expect(match.matchLeaf('Pepperoni Pizza', 'pepperoni pizza')).toBe(false);
    expect(
      match.matchLeaf('Pepperoni Pizza', 'pepperoni pizza', { ignoreCapitalization: true }),
    ).toBe(true);
    expect(match.matchLeaf('314-527-8960', '3145278960')).toBe(false);
    expect(match.matchLeaf('314-527-8960', '3145278960', { ignorePunctuation: true })).toBe(true);
    expect(match.matchLeaf("Charlie's", 'charlies', { ignorePunctuation: true })).toBe(false);
    expect(
      match.matchLeaf("Charlie's", 'charlies', {
        ignorePunctuation: true,
        ignoreCapitalization: true,
      }),
    ).toBe(true);
    expect(match.matchLeaf('Zoë_1', 'Zoë_1!', { ignorePunctuation: true })).toBe(true);
    expect(match.matchLeaf('a  b', 'a b!', { cleanText: true })).toBe(true);
  });

  it('uses Python str() forms for non-numeric leaves', () => {
    expect(match.matchLeaf(null, 'None')).toBe(true);
    expect(match.matchLeaf(null, null)).toBe(true);
    expect(match.matchLeaf(true, 'True')).toBe(true);
    expect(match.matchLeaf('x', { a: 1 })).toBe(false);
  });
});

describe('dict and list matching', () => {
  it('dicts: reference keys must be present and match, extra prediction keys are fine', () => {
    expect(match.matchItem({ a: 1 }, { a: '1', b: 2 })).toBe(true);
    expect(match.matchItem({ a: 1, c: 3 }, { a: 1, b: 2 })).toBe(false);
    expect(match.matchItem({ a: { b: [1, 2] } }, { a: { b: [2, 1], c: 0 } })).toBe(true);
    expect(match.matchItem({ a: 1 }, [{ a: 1 }])).toBe(false);
  });

  it('lists: order-independent, each prediction element used once', () => {
    expect(match.matchItem([1, 2], [2, 1])).toBe(true);
    expect(match.matchItem([1, 1], [1, 2])).toBe(false);
    expect(match.matchItem([1, 1], [1, 1, 2])).toBe(true);
    expect(match.matchItem([{ n: 'a' }, { n: 'a' }], [{ n: 'a', q: 1 }])).toBe(false);
    expect(match.matchItem([], [1])).toBe(true);
  });

  it('lists: finds an assignment the greedy first-match would miss', () => {
    // The loose reference {} matches both predictions; greedy would take x for it and leave nothing for {k: 1}.
    const reference = [{}, { k: 1 }];
    const prediction = [{ k: 1 }, { z: 2 }];
    expect(match.matchItem(reference, prediction)).toBe(true);
  });
});

describe('checkActionMatch (check_if_task_success)', () => {
  const order = {
    items: [
      { name: 'Pepperoni Pizza', unit_price: '9.99', quantity: '1' },
      { name: 'Extra Cheese', unit_price: '1.50', quantity: '1' },
    ],
    customer_name: 'Charlie',
    total_price: '11.49',
  };

  it('normalises a list of one dict to that dict', () => {
    expect(match.normalizeScenarioPayload([{ a: 1 }])).toEqual({ a: 1 });
    expect(match.normalizeScenarioPayload([{ a: 1 }, { a: 2 }])).toEqual([{ a: 1 }, { a: 2 }]);
    expect(match.normalizeScenarioPayload([1])).toEqual([1]);
    expect(match.checkActionMatch([order], order)).toBe(true);
    expect(match.checkActionMatch(order, [order])).toBe(true);
  });

  it('matches a flat order with numeric leaves and reordered items', () => {
    const prediction = {
      items: [
        { name: 'Extra Cheese', unit_price: 1.5, quantity: 1 },
        { name: 'Pepperoni Pizza', unit_price: 9.99, quantity: 1, notes: '' },
      ],
      customer_name: 'Charlie',
      total_price: 11.49,
      extra: true,
    };
    expect(match.checkActionMatch(order, prediction)).toBe(true);
    expect(match.checkActionMatch(order, { ...prediction, total_price: 11.5 })).toBe(false);
  });

  it('with one reference item and several predictions, only the last prediction counts', () => {
    expect(match.checkActionMatch(order, [{ message: 'working on it' }, order])).toBe(true);
    expect(match.checkActionMatch(order, [order, { message: 'bye' }])).toBe(false);
  });

  it('gold actions against pulled actions with sides', () => {
    const reference = {
      actions: [
        { action_type: 'toggle_roaming', name: 'toggle_roaming', arguments: {}, side: 'user' },
        {
          action_type: 'enable_roaming',
          name: 'enable_roaming',
          arguments: { line_id: 'L1' },
          side: 'agent',
        },
      ],
    };
    const prediction = [
      {
        actions: [
          {
            action_type: 'enable_roaming',
            name: 'enable_roaming',
            arguments: { line_id: 'L1' },
            result: 'ok',
            side: 'agent',
          },
          {
            action_type: 'toggle_roaming',
            name: 'toggle_roaming',
            arguments: {},
            result: true,
            side: 'user',
          },
        ],
      },
    ];
    expect(match.checkActionMatch(reference, prediction)).toBe(true);
    const wrongSide = [{ actions: prediction[0]?.actions.map((a) => ({ ...a, side: 'agent' })) }];
    expect(match.checkActionMatch(reference, wrongSide)).toBe(false);
    expect(match.checkActionMatch({ actions: [] }, [{ actions: [{ name: 'anything' }] }])).toBe(
      true,
    );
    expect(match.checkActionMatch({ actions: [] }, [{ message: 'no actions key' }])).toBe(false);
  });

  it('strict match compares top-level lengths only', () => {
    const reference = [{ a: 1 }, { b: 2 }];
    const prediction = [{ b: 2 }, { a: 1 }, { c: 3 }];
    expect(match.checkActionMatch(reference, prediction)).toBe(true);
    expect(match.checkActionMatch(reference, prediction, { disallowExtraItems: true })).toBe(false);
    // Nested lists stay lenient.
    expect(
      match.checkActionMatch({ actions: [1] }, { actions: [1, 2] }, { disallowExtraItems: true }),
    ).toBe(true);
  });
});
