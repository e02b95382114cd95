import { describe, expect, it } from 'vitest';
import { getDictHash } from '@scenaro/agent/scenario';
import type { JsonObject } from '@scenaro/agent/scenario';
import { cloneJson, lazyDbCopy, replayDbHash } from './lazy-db.js';

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

function source(): JsonObject {
  return deepFreeze({
    flights: { F1: { price: 10.0, seats: [1, 2] }, F2: { price: 12.5, status: 'None' } },
    users: { u1: { name: 'Zoë', balance: 15.1 } },
    version: 3,
    meta: { session: { tok: 1 } },
  });
}

describe('lazy replay dbs', () => {
  it('copies a table only when touched, leaving the frozen source alone', () => {
    const original = source();
    const db = lazyDbCopy(original) as JsonObject;
    expect(Object.keys(db)).toEqual(['flights', 'users', 'version', 'meta']);
    const flights = db['flights'] as Record<string, { price: number }>;
    (flights['F1'] as { price: number }).price = 99;
    expect((original['flights'] as Record<string, { price: number }>)['F1']?.price).toBe(10);
    expect(db['flights']).toBe(flights);
  });

  it('hashes exactly like getDictHash whatever was touched, replaced, added or deleted', () => {
    const cases: ((db: JsonObject) => void)[] = [
      () => {},
      (db) => {
        ((db['users'] as JsonObject)['u1'] as JsonObject)['balance'] = 0.1 + 0.2;
      },
      (db) => {
        db['flights'] = { F9: { price: 1 } };
      },
      (db) => {
        delete db['users'];
      },
      (db) => {
        db['extra'] = ['b', 'a'];
        db['session'] = { ignored: true };
      },
      (db) => {
        db['bookings'] = [{ id: 2 }, { id: 1 }];
      },
    ];
    for (const mutate of cases) {
      const db = lazyDbCopy(source()) as JsonObject;
      mutate(db);
      const expected = getDictHash(cloneJson(db));
      expect(replayDbHash(db)).toBe(expected);
      expect(replayDbHash(db)).toBe(expected);
    }
  });

  it('clones parsed JSON, keeping __proto__ as data', () => {
    const parsed = JSON.parse('{"a":[1,{"b":null}],"__proto__":{"x":1}}') as JsonObject;
    const copy = cloneJson(parsed);
    expect(copy).toEqual(parsed);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['a', '__proto__']);
  });
});
