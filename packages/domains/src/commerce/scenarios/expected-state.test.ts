import { describe, expect, it } from 'vitest';
import { pyEquals } from '@scenaro/agent/python';
import { checkExpectedState, formatMismatches, readAtPath } from './expected-state.js';

const db = {
  users: [
    {
      id: 'u_1',
      cart: { items: [{ product_id: 'p_1', sku: 'A-1-BLK', quantity: 2 }] },
      selection: { product_ids: ['p_2', 'p_3'] },
      payment_methods: [{ id: 'gift_1', type: 'gift_card', balance: 12.5 }],
    },
  ],
  orders: [{ id: 'o_1', status: 'pending', note: null }],
  products: [{ id: 'p_1', variants: [{ sku: 'A-1-BLK', stock: 3 }] }],
};

describe('readAtPath', () => {
  it('selects list elements by id, by sku and by index', () => {
    const found: [string, unknown][] = [
      ['users[u_1].cart.items[A-1-BLK].quantity', 2],
      ['users[u_1].cart.items[0].sku', 'A-1-BLK'],
      ['users[u_1].cart.items[p_1].quantity', 2],
      ['products[p_1].variants[A-1-BLK].stock', 3],
      ['users[u_1].selection.product_ids[1]', 'p_3'],
      ['orders[o_1]', db.orders[0]],
    ];
    for (const [path, value] of found) {
      expect(readAtPath(db, path), path).toEqual({ found: true, value });
    }
  });

  it('explains what is missing', () => {
    const missing: [string, string][] = [
      ['users[u_9].cart', "no element 'users[u_9]'"],
      ['users[u_1].wishlist', "no key 'users[u_1].wishlist'"],
      ['orders[o_1].status.code', "'orders[o_1].status' is not an object"],
      ['orders.status[x]', "'orders' is not an object"],
      ['users[u_1].cart[x]', "'users[u_1].cart' is not a list"],
    ];
    for (const [path, reason] of missing) {
      expect(readAtPath(db, path), path).toEqual({ found: false, reason });
    }
    expect(readAtPath(db, 'users[u_1].cart.items[5]')).toMatchObject({ found: false });
  });

  it('never reads inherited properties and refuses prototype paths', () => {
    expect(readAtPath(db, 'users[u_1].toString')).toMatchObject({ found: false });
    expect(() => readAtPath(db, '__proto__.polluted')).toThrow(/forbidden path segment/);
    expect(() => readAtPath(db, 'users[constructor]')).toThrow(/forbidden/);
    expect(() => readAtPath(db, 'a..b')).toThrow(/malformed/);
  });
});

describe('checkExpectedState', () => {
  it('passes when every value matches (deep, key order ignored)', () => {
    const report = checkExpectedState(db, {
      'users[u_1].cart.items': [{ quantity: 2, sku: 'A-1-BLK', product_id: 'p_1' }],
      'users[u_1].payment_methods[gift_1].balance': 12.5,
      'orders[o_1].note': null,
      'orders[o_1].missing': null,
    });
    expect(report).toEqual({ ok: true, checked: 4, mismatches: [] });
  });

  it('reports every mismatch with expected and actual values', () => {
    const report = checkExpectedState(db, {
      'orders[o_1].status': 'cancelled',
      'users[u_1].selection.product_ids': ['p_3', 'p_2'],
      'orders[o_2].status': 'pending',
      '__proto__.x': 1,
    });
    expect(report.ok).toBe(false);
    expect(report.mismatches).toEqual([
      { path: 'orders[o_1].status', expected: 'cancelled', actual: 'pending' },
      {
        path: 'users[u_1].selection.product_ids',
        expected: ['p_3', 'p_2'],
        actual: ['p_2', 'p_3'],
      },
      { path: 'orders[o_2].status', expected: 'pending', reason: "no element 'orders[o_2]'" },
      {
        path: '__proto__.x',
        expected: 1,
        reason: "forbidden path segment '__proto__' in '__proto__.x'",
      },
    ]);
    expect(formatMismatches(report.mismatches).split('\n')[0]).toBe(
      'orders[o_1].status: expected "cancelled", got "pending"',
    );
  });

  it('compares JSON values exactly', () => {
    expect(pyEquals({ a: [1, { b: null }] }, { a: [1, { b: null }] })).toBe(true);
    expect(pyEquals({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(pyEquals([1, 2], [2, 1])).toBe(false);
    expect(pyEquals(1, '1')).toBe(false);
    expect(pyEquals({}, [])).toBe(false);
  });
});
