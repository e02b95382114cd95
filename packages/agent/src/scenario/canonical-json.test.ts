import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isJsonObject } from '@scenaro/sdk/util';
import { compareCodePoints, DbHashDepthError } from '../python/index.js';
import { canonicalJson, normalizeForComparison } from './canonical-json.js';
import { getDictHash } from './db-hash.js';

describe('serialization details', () => {
  it('sorts keys by code point, not UTF-16 code unit', () => {
    // U+FFFF < U+1F600 in Python; JS default sort puts the surrogate pair (0xD83D) first.
    expect(canonicalJson({ '😀': 1, '\uffff': 2, a: 3 })).toBe(
      '{"a":3,"\\uffff":2,"\\ud83d\\ude00":1}',
    );
    // A lone high surrogate (code point U+D800) sorts before U+E000, which sorts before astral.
    expect(canonicalJson({ '\ue000': 1, '\ud800': 2, '\u{10000}': 3 })).toBe(
      '{"\\ud800":2,"\\ue000":1,"\\ud800\\udc00":3}',
    );
    expect(compareCodePoints('\ud83d\ude00', '\ud83dA')).toBeGreaterThan(0);
    expect(compareCodePoints('\ud83d\ude00', '\ud83d\uffff')).toBeGreaterThan(0);
    expect(compareCodePoints('ab', 'abc')).toBeLessThan(0);
  });

  it('escapes like ensure_ascii: U+007F, lone surrogates, lowercase hex; / < > & literal', () => {
    expect(canonicalJson(['\u007f\u0080\ud800x\udfff', '/<>&', '\b\f\r\u001f'])).toBe(
      '["\\u007f\\u0080\\ud800x\\udfff","/<>&","\\b\\f\\r\\u001f"]',
    );
  });

  it('emits NaN/Infinity bare, big integers exactly, bigints as ints', () => {
    expect(canonicalJson([NaN, Infinity, -Infinity])).toBe('[NaN,Infinity,-Infinity]');
    expect(canonicalJson([2 ** 53, -(2 ** 60), 1.2345678901234568e20, -5n])).toBe(
      '[9007199254740992,-1152921504606846976,123456789012345683968,-5]',
    );
  });

  it('skips undefined object members, writes undefined list items as null, String() for others', () => {
    const d = new Date(0);
    expect(canonicalJson({ a: undefined, b: [undefined], c: d })).toBe(
      `{"b":[null],"c":${JSON.stringify(String(d))}}`,
    );
  });

  it('keeps a top-level session when the top level is not a dict', () => {
    expect(canonicalJson([{ session: 1 }])).toBe('[{"session":1}]');
  });

  it('applies order-independent sorting at any depth, by the Python sort-key string', () => {
    // Sort key `{"a": 10}` vs `{"a": 1, "b": 0}`: '0' (0x30) > ',' (0x2C), so the longer one first.
    const input = { x: { bookings: [{ a: 10 }, { a: 1, b: 0 }] } };
    expect(canonicalJson(input)).toBe('{"x":{"bookings":[{"a":1,"b":0},{"a":10}]}}');
    // `[1, 2]` before `[1]`: ',' (0x2C) < ']' (0x5D).
    expect(canonicalJson({ group_memberships: [[2], [1, 2], [1]] })).toBe(
      '{"group_memberships":[[1,2],[1],[2]]}',
    );
    // Sort keys see normalized elements: 1.0 → "1" sorts before "1.5".
    expect(canonicalJson({ system_accounts: [1.5, 1.0, 'None'] })).toBe(
      '{"system_accounts":[1,1.5,null]}',
    );
  });

  it('sorts order-independent lists after normalizing their elements, stably', () => {
    const input = {
      asset_recoveries: ['None', 'b', { k: 2.0, z: ' NULL ' }, 'a', null, { k: 1 }],
    };
    expect(canonicalJson(input)).toBe(
      '{"asset_recoveries":["a","b",null,null,{"k":1},{"k":2,"z":null}]}',
    );
  });

  it('strips with the Python whitespace set', () => {
    expect(canonicalJson(['\u001cnone\u0085', '\u00a0NULL\u3000', '\u2028nOnE\u205f'])).toBe(
      '[null,null,null]',
    );
    // Python does not strip U+FEFF or U+200B.
    expect(canonicalJson(['\ufeffnone', 'none\u200b'])).toBe('["\\ufeffnone","none\\u200b"]');
  });

  it('treats __proto__ keys as data without touching prototypes', () => {
    const input: unknown = JSON.parse('{"__proto__": {"polluted": 1}, "a": "none"}');
    expect(canonicalJson(input)).toBe('{"__proto__":{"polluted":1},"a":null}');
    const normalized = normalizeForComparison(input) as Record<string, unknown>;
    expect(Object.keys(normalized)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(normalized)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((normalized as { polluted?: unknown }).polluted).toBeUndefined();
  });
});

describe('normalizeForComparison', () => {
  it('returns new values and leaves the input untouched', () => {
    const input = { session: 1, bookings: [{ id: 2 }, { id: 1 }], s: 'None', n: -0 };
    const before = structuredClone(input);
    const out = normalizeForComparison(input);
    expect(input).toEqual(before);
    expect(out).toEqual({ session: 1, bookings: [{ id: 1 }, { id: 2 }], s: null, n: 0 });
    expect(Object.is((out as { n: number }).n, 0)).toBe(true);
  });

  it('never mutates (deep-frozen input) and is idempotent under canonicalJson', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const frozen = deepFreeze(structuredClone(v));
        const normalized = normalizeForComparison(frozen);
        expect(frozen).toEqual(v);
        expect(canonicalJson(normalized)).toBe(canonicalJson(v));
      }),
      { numRuns: 500 },
    );
  });
});

describe('property-based', () => {
  it('canonicalJson never throws on JSON values and emits ASCII', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const s = canonicalJson(v);
        expect(s).toMatch(/^[\x20-\x7e]*$/);
      }),
      { numRuns: 1000 },
    );
  });

  it('canonicalJson parses back to the normalized value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const dropped = isJsonObject(v)
          ? Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'session'))
          : v;
        expect(JSON.parse(canonicalJson(v))).toEqual(normalizeForComparison(dropped));
      }),
      { numRuns: 500 },
    );
  });

  it('hash is invariant under key-order permutation', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer(), (v, seed) => {
        expect(getDictHash(permuteKeys(v, seed))).toBe(getDictHash(v));
      }),
      { numRuns: 500 },
    );
  });

  it('hash is invariant under permutation of order-independent lists', () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 8 }),
        fc.integer(),
        (list, seed) => {
          const shuffled = shuffle(list, seed);
          expect(getDictHash({ t: { standby_list: shuffled } })).toBe(
            getDictHash({ t: { standby_list: list } }),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('depth limit', () => {
  const nestArrays = (depth: number): unknown => {
    let v: unknown = 1;
    for (let i = 0; i < depth; i++) v = [v];
    return v;
  };
  const nestObjects = (depth: number): unknown => {
    let v: unknown = 'none';
    for (let i = 0; i < depth; i++) v = { a: v };
    return v;
  };

  it('handles 10,000 levels (the default limit) without recursion', () => {
    expect(canonicalJson(nestArrays(10_000))).toBe('['.repeat(10_000) + '1' + ']'.repeat(10_000));
    expect(getDictHash(nestObjects(10_000))).toMatch(/^[0-9a-f]{64}$/);
    expect(normalizeForComparison(nestObjects(10_000))).toBeTypeOf('object');
  });

  it('throws DbHashDepthError beyond maxDepth', () => {
    expect(() => canonicalJson(nestArrays(10_001))).toThrow(DbHashDepthError);
    expect(() => getDictHash(nestObjects(6), { maxDepth: 5 })).toThrow(DbHashDepthError);
    expect(getDictHash(nestObjects(5), { maxDepth: 5 })).toMatch(/^[0-9a-f]{64}$/);
    expect(() => normalizeForComparison(nestArrays(6), { maxDepth: 5 })).toThrow(RangeError);
    // Inside an order-independent list the limit still applies.
    expect(() => canonicalJson({ bookings: [nestArrays(5)] }, { maxDepth: 5 })).toThrow(
      DbHashDepthError,
    );
  });

  it('reports cycles as DbHashDepthError instead of hanging', () => {
    const a: Record<string, unknown> = {};
    a.self = a;
    expect(() => getDictHash(a)).toThrow(DbHashDepthError);
    expect(() => normalizeForComparison(a)).toThrow(DbHashDepthError);
  });
});

// ---------------------------------------------------------------------------------------------

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null) {
    for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
    Object.freeze(v);
  }
  return v;
}

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

function shuffle<T>(list: readonly T[], seed: number): T[] {
  const out = [...list];
  const rand = rng(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Rebuilds `v` with every object's keys inserted in a seeded random order. */
function permuteKeys(v: unknown, seed: number): unknown {
  if (Array.isArray(v)) return v.map((x, i) => permuteKeys(x, seed + i + 1));
  if (typeof v !== 'object' || v === null) return v;
  const src = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of shuffle(Object.keys(src), seed)) {
    Object.defineProperty(out, k, {
      value: permuteKeys(src[k], seed * 31 + 7),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
