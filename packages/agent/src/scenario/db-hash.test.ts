import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DbHashDepthError,
  canonicalJson,
  compareCodePoints,
  computeDbDiff,
  getDictHash,
  getTau2DbHash,
  normalizeForComparison,
  pyFloat,
  pythonFloatRepr,
  pythonJsonDumps,
} from './db-hash.js';
import { DbCache } from './db-loader.js';

/** Directory holding the root package.json (the monorepo root). */
function findRepoRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json')) || !isWorkspaceRoot(dir)) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('repo root not found');
    dir = parent;
  }
  return dir;
}
function isWorkspaceRoot(dir: string): boolean {
  const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
    workspaces?: unknown;
  };
  return pkg.workspaces !== undefined;
}

const repoRoot = findRepoRoot();
const evalData = path.resolve(repoRoot, '../shared/eval-data');
const hasEvalData = existsSync(evalData);
if (!hasEvalData) {
  console.warn(`db-hash.test: skipping real-data hash tests: ${evalData} does not exist`);
}

const sha256 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');

/** Stands in for a Python object serialized through `default=str`. */
class PyStr {
  constructor(private readonly s: string) {}
  toString(): string {
    return this.s;
  }
}

// db-hash.md §2, first table (Python literals transcribed to JS).
const NEMO_VECTORS: [name: string, input: unknown, canonical: string, hash: string][] = [
  ['empty', {}, '{}', '44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a'],
  [
    'simple',
    { b: 1, a: 'x' },
    '{"a":"x","b":1}',
    'cdab067e9f3beb32d1252cfd63e492592fecbf591b0d08cadb24bb17f3864246',
  ],
  [
    'float_int',
    { x: 1.0, y: 2.5, z: -0 },
    '{"x":1,"y":2.5,"z":0}',
    '00e31587501997e4eb133bb7515e70c5f2078e970b2c1363cc2f33398f7e9af5',
  ],
  [
    'int_equiv',
    { x: 1, y: 2.5, z: 0 },
    '{"x":1,"y":2.5,"z":0}',
    '00e31587501997e4eb133bb7515e70c5f2078e970b2c1363cc2f33398f7e9af5',
  ],
  [
    'none_strings',
    { a: 'None', b: ' null ', c: null, d: 'NULL', e: 'nonex' },
    '{"a":null,"b":null,"c":null,"d":null,"e":"nonex"}',
    '68aea2d438dded341d62714f03bb4352e3ce8d8a13828f5556cf4b2c0e30b947',
  ],
  [
    'session_excluded',
    { session: { tok: 1 }, a: 1 },
    '{"a":1}',
    '015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862',
  ],
  [
    'nested_session_kept',
    { a: { session: 1 } },
    '{"a":{"session":1}}',
    '466c852845c7b441370f229726db3fa9ad36d99f96887200f57d3478d7eefb1f',
  ],
  [
    'order_independent',
    { bookings: [{ id: 2 }, { id: 1 }], other: [{ id: 2 }, { id: 1 }] },
    '{"bookings":[{"id":1},{"id":2}],"other":[{"id":2},{"id":1}]}',
    '4a3bfb44636abfc60b32b4f48e0912ea392be8dfbae88ceaa1d781502fb8ac3d',
  ],
  [
    'order_independent_swapped',
    { bookings: [{ id: 1 }, { id: 2 }], other: [{ id: 2 }, { id: 1 }] },
    '{"bookings":[{"id":1},{"id":2}],"other":[{"id":2},{"id":1}]}',
    '4a3bfb44636abfc60b32b4f48e0912ea392be8dfbae88ceaa1d781502fb8ac3d',
  ],
  [
    'unicode',
    { name: 'Zoë', emoji: '😀', cjk: '東京' },
    '{"cjk":"\\u6771\\u4eac","emoji":"\\ud83d\\ude00","name":"Zo\\u00eb"}',
    '4977d05b585a3d13a4c406cb596bc41dec193cf55f25f51cec7eefa532a2b7e2',
  ],
  [
    'small_floats',
    { a: 1e-5, b: 0.0001, c: 1.5e-7, d: 0.1, e: 123456.789, f: 1e22, g: 3.14159 },
    '{"a":1e-05,"b":0.0001,"c":1.5e-07,"d":0.1,"e":123456.789,"f":10000000000000000000000,"g":3.14159}',
    '12d72cb2e425b93163b1618bc252e8fd5290d24ffc87d8eb77185d1cbe067d8b',
  ],
  [
    'bools_nulls',
    { t: true, f: false, n: null, list: [true, 1, 1.0, '1'] },
    '{"f":false,"list":[true,1,1,"1"],"n":null,"t":true}',
    '34f6db44389571788309e1fefcae5e3451ea894d0bdc2c3ee1581f4d51d09f61',
  ],
  [
    'escapes',
    { q: 'a"b\\c\n\t\u0001/<>&\'' },
    '{"q":"a\\"b\\\\c\\n\\t\\u0001/<>&\'"}',
    'b495ca518cbf27a104bd7751a7d5d2a8b9705224364625e3eb548413c7122dae',
  ],
  [
    'key_order',
    { B: 1, a: 2, _: 3, Z: 4, aa: 5, é: 6 },
    '{"B":1,"Z":4,"_":3,"a":2,"aa":5,"\\u00e9":6}',
    'fbbc7bc6951a7afde49c66b5eacd4f07431aa2fb6612b416ac559ab71b1432a6',
  ],
  [
    'list_top',
    [3, 1, 2],
    '[3,1,2]',
    '51bda7ab4e44726cde71fcb6e4b515357059bb6b6dd5146d1fc50f73f11678c6',
  ],
  [
    'notifications_mixed',
    { notifications: ['b', 'a', 3, null, { k: 'v' }] },
    '{"notifications":["a","b",3,null,{"k":"v"}]}',
    '34119953853788f25dfc57ed7a8a43abc68fb0084cb59f63556988bfc1b18bcc',
  ],
  [
    'big_int_float',
    { x: 1e20, y: 12345678901234567890n },
    '{"x":100000000000000000000,"y":12345678901234567890}',
    '211411d4832be2634f0d350e6769f1aae3b80e1b79f635da8d705fe63313ac4a',
  ],
];

// db-hash.md §2, second table: NeMo hashes of the tau2 comparison inputs of §5.
const TAU2_INPUTS_NEMO: [name: string, input: unknown, canonical: string, hash: string][] = [
  ['empty', {}, '{}', '44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a'],
  [
    'flat_sorted',
    { b: 1, a: 'x' },
    '{"a":"x","b":1}',
    'cdab067e9f3beb32d1252cfd63e492592fecbf591b0d08cadb24bb17f3864246',
  ],
  [
    'floats',
    { amount: 1.0, price: 15.1, zero: 0.0, neg: -2.5 },
    '{"amount":1,"neg":-2.5,"price":15.1,"zero":0}',
    '5cd14805464ecadee93562adc611c6d4b4a306d325f16da7e71c736740166050',
  ],
  [
    'float_exp',
    { big: 1e16, small: 1e-5, mid: 0.0001, huge: 1.2345678901234568e20 },
    '{"big":10000000000000000,"huge":123456789012345683968,"mid":0.0001,"small":1e-05}',
    '48dc5d7cfb5575544ce4889485244195d53b910e7e881bb085f555b7c111541e',
  ],
  [
    'int_vs_float',
    { n_int: 1, n_float: 1.0 },
    '{"n_float":1,"n_int":1}',
    '126f4dc27a07cd02361135b47a501222670e7649c1cb738f23deb3c9c112b0ef',
  ],
  [
    'nulls_bools',
    { none: null, t: true, f: false },
    '{"f":false,"none":null,"t":true}',
    'e3d1c399332c2b128243871bcece0791ae2c37e9f8f7f90e6682fee3fcaf469a',
  ],
  [
    'unicode',
    { name: 'José Müller', emoji: '😀', cjk: '東京' },
    '{"cjk":"\\u6771\\u4eac","emoji":"\\ud83d\\ude00","name":"Jos\\u00e9 M\\u00fcller"}',
    '4217af46b4e7f9fb13125889f5306cc330c29a39f908a42fcd061aed5671e187',
  ],
  [
    'nested',
    {
      users: { u2: { tags: ['b', 'a'], balance: 100.0 }, u1: { tags: [], balance: 15.1 } },
      meta: { v: 2 },
    },
    '{"meta":{"v":2},"users":{"u1":{"balance":15.1,"tags":[]},"u2":{"balance":100,"tags":["b","a"]}}}',
    '043e3eda89cfbba81adb178c120152cca3f95dac0a6a25e7d7062000b30aad07',
  ],
  [
    'list_of_dicts',
    {
      items: [
        { id: 2, z: null },
        { id: 1, a: [1, 2.0, '3'] },
      ],
    },
    '{"items":[{"id":2,"z":null},{"a":[1,2,"3"],"id":1}]}',
    '219de41284b39f2c95d580bafdc987a165cb0463a0205d71b891f1f4e9be8749',
  ],
  [
    'escapes',
    { q: 'say "hi"\n\ttab\\', ctrl: '\u0001' },
    '{"ctrl":"\\u0001","q":"say \\"hi\\"\\n\\ttab\\\\"}',
    '8782c77faafbf66f7654a4bae77d4127b3bd1ecd0e4093a22384da5f4e389b35',
  ],
  [
    'null_string',
    { status: 'None', session: { tok: 'abc' } },
    '{"status":null}',
    '467892055be1596fa5b024f7d23e2bec683c55b46b62fc06dc17da28fb7778f3',
  ],
  [
    'standby',
    { standby_list: ['b', 'a'] },
    '{"standby_list":["a","b"]}',
    '9c54c7de65ffbae190ab39006847021c9e36986c1c2c5fc4b7ac064f462e2bd9',
  ],
  [
    'default_str_types',
    {
      date: new PyStr('2025-01-01'),
      dt: new PyStr('2025-01-01 13:05:00'),
      dt_us: new PyStr('2025-01-01 00:00:00.123000'),
      senum: 'red',
      penum: new PyStr('Plain.A'),
    },
    '{"date":"2025-01-01","dt":"2025-01-01 13:05:00","dt_us":"2025-01-01 00:00:00.123000","penum":"Plain.A","senum":"red"}',
    '48c67f0c8bd3cd20a0faac81b5fed442999245aa08156ad43a66ab2da5ee2089',
  ],
  [
    'pydantic_model',
    { items: { i1: { price: 10, qty: 2 } }, when: '2025-01-01' },
    '{"items":{"i1":{"price":10,"qty":2}},"when":"2025-01-01"}',
    '1540fdf4d5a7f4499ab750e5cec2184d3c558ab39d3818f5334b848584bd0281',
  ],
];

// db-hash.md §5: tau2 variant, with float-typed values marked by pyFloat.
const TAU2_VECTORS: [name: string, input: unknown, serialized: string, hash: string][] = [
  ['empty', {}, '{}', '44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a'],
  [
    'flat_sorted',
    { b: 1, a: 'x' },
    '{"a": "x", "b": 1}',
    '385820f0096fd558f4091319e7fa742cebf877dc3baca180981889f1c40eca84',
  ],
  [
    'floats',
    { amount: pyFloat(1), price: pyFloat(15.1), zero: pyFloat(0), neg: pyFloat(-2.5) },
    '{"amount": 1.0, "neg": -2.5, "price": 15.1, "zero": 0.0}',
    '3da173ed88a4b1be0ea0960d2d2e9a37cf094f6286c2ff0d1c7121595c1001d6',
  ],
  [
    'float_exp',
    {
      big: pyFloat(1e16),
      small: pyFloat(1e-5),
      mid: pyFloat(0.0001),
      huge: pyFloat(1.2345678901234568e20),
    },
    '{"big": 1e+16, "huge": 1.2345678901234568e+20, "mid": 0.0001, "small": 1e-05}',
    'df8076f7c9d281b24e7d916f607899bf85a550c1ac60c51421be2ab223e5811a',
  ],
  [
    'int_vs_float',
    { n_int: 1, n_float: pyFloat(1) },
    '{"n_float": 1.0, "n_int": 1}',
    'af69f2bca37d05e7c1d4b60eb9a1faefa23c4bd3697b01c3cf0aa1f73ba8cac6',
  ],
  [
    'nulls_bools',
    { none: null, t: true, f: false },
    '{"f": false, "none": null, "t": true}',
    '8cd1e2b26c4ee1a8cefb7f1f79f80f0dbfc463dcebad64faed73fa7604f37afd',
  ],
  [
    'unicode',
    { name: 'José Müller', emoji: '😀', cjk: '東京' },
    '{"cjk": "\\u6771\\u4eac", "emoji": "\\ud83d\\ude00", "name": "Jos\\u00e9 M\\u00fcller"}',
    '521c6611eb44b2be8a9e8fc8088856a14f91d77a17dda0d6592ebbf374eef048',
  ],
  [
    'nested',
    {
      users: {
        u2: { tags: ['b', 'a'], balance: pyFloat(100) },
        u1: { tags: [], balance: pyFloat(15.1) },
      },
      meta: { v: 2 },
    },
    '{"meta": {"v": 2}, "users": {"u1": {"balance": 15.1, "tags": []}, "u2": {"balance": 100.0, "tags": ["b", "a"]}}}',
    'f29da6058dda82eec647d4be62a1eb79804bed874d37cc123900ee8636eadf52',
  ],
  [
    'list_of_dicts',
    {
      items: [
        { id: 2, z: null },
        { id: 1, a: [1, pyFloat(2), '3'] },
      ],
    },
    '{"items": [{"id": 2, "z": null}, {"a": [1, 2.0, "3"], "id": 1}]}',
    '54d045203ca69479a56b3fced8712851c0de07e305ce965ebdfcd754c133ed22',
  ],
  [
    'escapes',
    { q: 'say "hi"\n\ttab\\', ctrl: '\u0001' },
    '{"ctrl": "\\u0001", "q": "say \\"hi\\"\\n\\ttab\\\\"}',
    '1934814623d99cddd52617579f85bba669e1c25108a5c0da32f5500d4581e866',
  ],
  [
    'null_string',
    { status: 'None', session: { tok: 'abc' } },
    '{"session": {"tok": "abc"}, "status": "None"}',
    '9c29e6c1793f872917b77d9db6659e3068867a4aec868dd15f00b5f8bdd8dc68',
  ],
  [
    'standby',
    { standby_list: ['b', 'a'] },
    '{"standby_list": ["b", "a"]}',
    '4e8e2f4b35187f5388f8515f9d985f2129d6290a41db821fd2813364d43a46bc',
  ],
  [
    'default_str_types',
    {
      date: new PyStr('2025-01-01'),
      dt: new PyStr('2025-01-01 13:05:00'),
      dt_us: new PyStr('2025-01-01 00:00:00.123000'),
      senum: 'red',
      penum: new PyStr('Plain.A'),
    },
    '{"date": "2025-01-01", "dt": "2025-01-01 13:05:00", "dt_us": "2025-01-01 00:00:00.123000", "penum": "Plain.A", "senum": "red"}',
    '3382a76e2a3b730d433655b6cb0fe76e07589d61daa0cd301af363329c010c3a',
  ],
  [
    'pydantic_model',
    { items: { i1: { price: pyFloat(10), qty: 2, note: null } }, when: new PyStr('2025-01-01') },
    '{"items": {"i1": {"note": null, "price": 10.0, "qty": 2}}, "when": "2025-01-01"}',
    '3ea18a1314a9b079c5893e5e3b79de78451c1298a4da8d79afe3e85b944c2ce9',
  ],
  [
    'raw_dict_no_model',
    { items: { i1: { price: 10, qty: 2 } }, when: '2025-01-01' },
    '{"items": {"i1": {"price": 10, "qty": 2}}, "when": "2025-01-01"}',
    '9ee4296271463c45d040a8f36b76b093ae395b6fdca308cfa5dcf43e0f66be94',
  ],
];

// db-hash.md §3.
const REPR_TABLE: [number, string][] = [
  [0.0, '0.0'],
  [-0.0, '-0.0'],
  [1.0, '1.0'],
  [15.1, '15.1'],
  [0.1 + 0.2, '0.30000000000000004'],
  [1e16, '1e+16'],
  [1e15, '1000000000000000.0'],
  [123456789012345.6, '123456789012345.6'],
  [9999999999999998.0, '9999999999999998.0'],
  [1e-4, '0.0001'],
  [1e-5, '1e-05'],
  [0.00012345, '0.00012345'],
  [5e-324, '5e-324'],
  [1.7976931348623157e308, '1.7976931348623157e+308'],
  [1e22, '1e+22'],
  [2.5e-7, '2.5e-07'],
  [100.5, '100.5'],
  [1234.5678, '1234.5678'],
  [NaN, 'NaN'],
  [Infinity, 'Infinity'],
  [-Infinity, '-Infinity'],
];

describe('getDictHash / canonicalJson: db-hash.md §2 NeMo vectors', () => {
  it.each(NEMO_VECTORS)('%s', (_name, input, canonical, hash) => {
    expect(canonicalJson(input)).toBe(canonical);
    expect(sha256(canonical)).toBe(hash);
    expect(getDictHash(input)).toBe(hash);
  });
});

describe('getDictHash / canonicalJson: db-hash.md §2 tau2 inputs under NeMo', () => {
  it.each(TAU2_INPUTS_NEMO)('%s', (_name, input, canonical, hash) => {
    expect(canonicalJson(input)).toBe(canonical);
    expect(sha256(canonical)).toBe(hash);
    expect(getDictHash(input)).toBe(hash);
  });
});

describe('getTau2DbHash / pythonJsonDumps: db-hash.md §5 tau2 vectors', () => {
  it.each(TAU2_VECTORS)('%s', (_name, input, serialized, hash) => {
    expect(pythonJsonDumps(input)).toBe(serialized);
    expect(getTau2DbHash(input)).toBe(hash);
  });

  it('compact separators on request, no normalization', () => {
    expect(pythonJsonDumps({ b: [1, 'None'], a: pyFloat(2) }, { separators: 'compact' })).toBe(
      '{"a":2.0,"b":[1,"None"]}',
    );
  });
});

describe('pythonFloatRepr: db-hash.md §3', () => {
  it.each(REPR_TABLE)('repr(%s) = %s', (x, repr) => {
    expect(pythonFloatRepr(x)).toBe(repr);
  });

  it('round-trips every double through Number()', () => {
    fc.assert(
      fc.property(fc.double(), (x) => {
        expect(Object.is(Number(pythonFloatRepr(x)), x)).toBe(true);
      }),
      { numRuns: 20_000 },
    );
  });

  it('uses fixed notation exactly for -4 <= exponent < 16, else d[.ddd]e±XX', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        const repr = pythonFloatRepr(x);
        const exp = x === 0 ? 0 : Number(x.toExponential().split('e')[1]);
        if (exp >= -4 && exp < 16) expect(repr).toMatch(/^-?\d+\.\d+$/);
        else expect(repr).toMatch(/^-?\d(\.\d+)?e[+-]\d{2,3}$/);
      }),
      { numRuns: 20_000 },
    );
  });
});

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
        const dropped =
          typeof v === 'object' && v !== null && !Array.isArray(v)
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

describe('real data: db-hash.md §6', () => {
  const cache = new DbCache();
  const REAL: [dbPath: string, keys: string[], hash: string][] = [
    [
      'tau2_airline/db.json',
      ['flights', 'reservations', 'users'],
      '4da8c3f8adaffe176a9daaa5f20658bb9b36cd945733ab8f9ecf2e8bcbaabcc8',
    ],
    [
      'tau2_retail/db.json',
      ['products', 'users', 'orders'],
      '743c9e1ec7e53de1b992f5521630e347ec3e25e5e215a2b056651106540ac0f8',
    ],
    [
      'tau2_telecom/db.json',
      ['plans', 'customers', 'lines', 'bills', 'devices'],
      '4833e8dc608e1b5ff53fbb6efc0222d0b1b7c8eb659a4afd9724094301160eb1',
    ],
    [
      'tau2_telecom/user_db.json',
      ['device', 'surroundings'],
      '5021b231bbb2d8dd3dbcc2d880da4321e8da83a55f31c2dd91c05fc7632d3e35',
    ],
  ];

  it.skipIf(!hasEvalData).each(REAL)('%s', async (dbPath, keys, hash) => {
    const db = await cache.get(evalData, dbPath);
    expect(Object.keys(db as object).sort()).toEqual([...keys].sort());
    expect(getDictHash(db)).toBe(hash);
    expect(sha256(canonicalJson(db))).toBe(hash);
  });

  it.skipIf(!hasEvalData)(
    'matches expected_db_hash of every reference scenario with nothing to replay',
    async () => {
      const scenarios = JSON.parse(
        readFileSync(path.join(evalData, 'reference_scenarios.json'), 'utf8'),
      ) as Record<
        string,
        {
          shared_state_init_agent: string;
          initialization_actions: unknown[] | null;
          reference_answer: { actions?: unknown[] } | null;
          expected_db_hash: string | null;
        }
      >;
      const hashes = new Map<string, string>();
      let checked = 0;
      for (const s of Object.values(scenarios)) {
        const replay = s.reference_answer?.actions ?? [];
        if (replay.length > 0 || (s.initialization_actions ?? []).length > 0) continue;
        const init = JSON.parse(s.shared_state_init_agent) as { db_path?: string };
        if (init.db_path === undefined || s.expected_db_hash === null) continue;
        let hash = hashes.get(init.db_path);
        if (hash === undefined) {
          hash = getDictHash(await cache.get(evalData, init.db_path));
          hashes.set(init.db_path, hash);
        }
        expect(hash).toBe(s.expected_db_hash);
        checked++;
      }
      expect(checked).toBeGreaterThan(20);
    },
  );
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
