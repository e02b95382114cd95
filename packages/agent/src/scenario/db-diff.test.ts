import { describe, expect, it } from 'vitest';
import { DbHashDepthError } from '../python/index.js';
import { computeDbDiff } from './db-diff.js';

describe('depth limit', () => {
  const nestObjects = (depth: number): unknown => {
    let v: unknown = 'none';
    for (let i = 0; i < depth; i++) v = { a: v };
    return v;
  };

  it('computeDbDiff converts deep recursion into DbHashDepthError', () => {
    const deepA = { t: { r: nestObjects(200) } };
    const deepB = { t: { r: nestObjects(201) } };
    expect(() => computeDbDiff(deepA, deepB, { maxDepth: 50 })).toThrow(DbHashDepthError);
    expect(computeDbDiff(deepA, deepB).tables_modified.t).toBeDefined();
  });
});

describe('computeDbDiff', () => {
  it('gives an empty diff for identical and normalization-equal inputs', () => {
    expect(computeDbDiff({}, {})).toEqual({
      tables_added: [],
      tables_removed: [],
      tables_modified: {},
    });
    const a = {
      users: { u1: { name: 'x', note: 'None', n: 1.0, bookings: [{ id: 2 }, { id: 1 }] } },
    };
    const b = { users: { u1: { name: 'x', note: null, n: 1, bookings: [{ id: 1 }, { id: 2 }] } } };
    expect(computeDbDiff(a, b)).toEqual({
      tables_added: [],
      tables_removed: [],
      tables_modified: {},
    });
  });

  it('reports tables, records and fields', () => {
    const expected = {
      gone: {},
      meta: [1, 2],
      users: {
        u1: { name: 'a', age: 1, tags: ['x'], extra: 1, pets: [1, 2] },
        u2: { name: 'b' },
        u3: { name: 'c', nested: { deep: 1 } },
      },
    };
    const actual = {
      meta: [1, 3],
      added: {},
      users: {
        u1: { name: 'z', age: 1.5, tags: ['x', 'y'], pets: [1, 3], born: 2000 },
        u3: { name: 'c', nested: { deep: 2 } },
        u4: { name: 'd' },
      },
    };
    const before = structuredClone(expected);
    expect(computeDbDiff(expected, actual)).toEqual({
      tables_added: ['added'],
      tables_removed: ['gone'],
      tables_modified: {
        meta: { type: 'non_dict_table', expected: [1, 2], actual: [1, 3] },
        users: {
          records_added: ['u4'],
          records_removed: ['u2'],
          records_modified: {
            u1: {
              fields_added: ['born'],
              fields_removed: ['extra'],
              fields_modified: {
                age: {
                  type: 'type_mismatch',
                  expected: 1,
                  actual: 1.5,
                  expected_type: 'int',
                  actual_type: 'float',
                },
                name: { type: 'value_mismatch', expected: 'a', actual: 'z' },
                pets: {
                  type: 'list_differences',
                  differences: [
                    { index: 1, diff: { type: 'value_mismatch', expected: 2, actual: 3 } },
                  ],
                },
                tags: {
                  type: 'list_length_mismatch',
                  expected: ['x'],
                  actual: ['x', 'y'],
                  expected_length: 1,
                  actual_length: 2,
                },
              },
            },
            u3: {
              fields_added: [],
              fields_removed: [],
              fields_modified: {
                nested: {
                  fields_added: [],
                  fields_removed: [],
                  fields_modified: { deep: { type: 'value_mismatch', expected: 1, actual: 2 } },
                },
              },
            },
          },
        },
      },
    });
    expect(expected).toEqual(before);
  });

  it('handles hostile keys as data and returns JSON-serializable output', () => {
    const e: unknown = JSON.parse(
      '{"__proto__": {"__proto__": {"v": 1}}, "constructor": {"a": {"v": 1}}}',
    );
    const a: unknown = JSON.parse(
      '{"__proto__": {"__proto__": {"v": 2}}, "constructor": {"a": {"v": 1}}}',
    );
    const diff = computeDbDiff(e, a);
    expect(JSON.parse(JSON.stringify(diff))).toEqual(
      JSON.parse(
        '{"tables_added":[],"tables_removed":[],"tables_modified":{"__proto__":{"records_added":[],"records_removed":[],"records_modified":{"__proto__":{"fields_added":[],"fields_removed":[],"fields_modified":{"v":{"type":"value_mismatch","expected":1,"actual":2}}}}}}}',
      ),
    );
    expect(({} as Record<string, unknown>).v).toBeUndefined();
  });

  it('rejects non-dict databases', () => {
    expect(() => computeDbDiff([], {})).toThrow(TypeError);
  });
});
