import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PyFloat, pyFloat, pythonJsonDumps } from '../python/index.js';
import { canonicalJson } from './canonical-json.js';
import { getDictHash, getTau2DbHash } from './db-hash.js';
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

/**
 * db-hash.md §5 (tau2 variant) and §2, second table (NeMo hashes of the same inputs). `input` is
 * the typed dump with float-typed values marked by pyFloat; the NeMo side hashes the same value
 * with plain numbers (what JSON.parse gives), or `nemoInput` where §2 hashes the raw dict.
 */
interface Tau2Case {
  name: string;
  input: unknown;
  tau2: [serialized: string, hash: string];
  nemo?: [canonical: string, hash: string];
  nemoInput?: unknown;
}

const TAU2_CASES: Tau2Case[] = [
  {
    name: 'empty',
    input: {},
    tau2: ['{}', '44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a'],
    nemo: ['{}', '44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a'],
  },
  {
    name: 'flat_sorted',
    input: { b: 1, a: 'x' },
    tau2: [
      '{"a": "x", "b": 1}',
      '385820f0096fd558f4091319e7fa742cebf877dc3baca180981889f1c40eca84',
    ],
    nemo: ['{"a":"x","b":1}', 'cdab067e9f3beb32d1252cfd63e492592fecbf591b0d08cadb24bb17f3864246'],
  },
  {
    name: 'floats',
    input: { amount: pyFloat(1), price: pyFloat(15.1), zero: pyFloat(0), neg: pyFloat(-2.5) },
    tau2: [
      '{"amount": 1.0, "neg": -2.5, "price": 15.1, "zero": 0.0}',
      '3da173ed88a4b1be0ea0960d2d2e9a37cf094f6286c2ff0d1c7121595c1001d6',
    ],
    nemo: [
      '{"amount":1,"neg":-2.5,"price":15.1,"zero":0}',
      '5cd14805464ecadee93562adc611c6d4b4a306d325f16da7e71c736740166050',
    ],
  },
  {
    name: 'float_exp',
    input: {
      big: pyFloat(1e16),
      small: pyFloat(1e-5),
      mid: pyFloat(0.0001),
      huge: pyFloat(1.2345678901234568e20),
    },
    tau2: [
      '{"big": 1e+16, "huge": 1.2345678901234568e+20, "mid": 0.0001, "small": 1e-05}',
      'df8076f7c9d281b24e7d916f607899bf85a550c1ac60c51421be2ab223e5811a',
    ],
    nemo: [
      '{"big":10000000000000000,"huge":123456789012345683968,"mid":0.0001,"small":1e-05}',
      '48dc5d7cfb5575544ce4889485244195d53b910e7e881bb085f555b7c111541e',
    ],
  },
  {
    name: 'int_vs_float',
    input: { n_int: 1, n_float: pyFloat(1) },
    tau2: [
      '{"n_float": 1.0, "n_int": 1}',
      'af69f2bca37d05e7c1d4b60eb9a1faefa23c4bd3697b01c3cf0aa1f73ba8cac6',
    ],
    nemo: [
      '{"n_float":1,"n_int":1}',
      '126f4dc27a07cd02361135b47a501222670e7649c1cb738f23deb3c9c112b0ef',
    ],
  },
  {
    name: 'nulls_bools',
    input: { none: null, t: true, f: false },
    tau2: [
      '{"f": false, "none": null, "t": true}',
      '8cd1e2b26c4ee1a8cefb7f1f79f80f0dbfc463dcebad64faed73fa7604f37afd',
    ],
    nemo: [
      '{"f":false,"none":null,"t":true}',
      'e3d1c399332c2b128243871bcece0791ae2c37e9f8f7f90e6682fee3fcaf469a',
    ],
  },
  {
    name: 'unicode',
    input: { name: 'José Müller', emoji: '😀', cjk: '東京' },
    tau2: [
      '{"cjk": "\\u6771\\u4eac", "emoji": "\\ud83d\\ude00", "name": "Jos\\u00e9 M\\u00fcller"}',
      '521c6611eb44b2be8a9e8fc8088856a14f91d77a17dda0d6592ebbf374eef048',
    ],
    nemo: [
      '{"cjk":"\\u6771\\u4eac","emoji":"\\ud83d\\ude00","name":"Jos\\u00e9 M\\u00fcller"}',
      '4217af46b4e7f9fb13125889f5306cc330c29a39f908a42fcd061aed5671e187',
    ],
  },
  {
    name: 'nested',
    input: {
      users: {
        u2: { tags: ['b', 'a'], balance: pyFloat(100) },
        u1: { tags: [], balance: pyFloat(15.1) },
      },
      meta: { v: 2 },
    },
    tau2: [
      '{"meta": {"v": 2}, "users": {"u1": {"balance": 15.1, "tags": []}, "u2": {"balance": 100.0, "tags": ["b", "a"]}}}',
      'f29da6058dda82eec647d4be62a1eb79804bed874d37cc123900ee8636eadf52',
    ],
    nemo: [
      '{"meta":{"v":2},"users":{"u1":{"balance":15.1,"tags":[]},"u2":{"balance":100,"tags":["b","a"]}}}',
      '043e3eda89cfbba81adb178c120152cca3f95dac0a6a25e7d7062000b30aad07',
    ],
  },
  {
    name: 'list_of_dicts',
    input: {
      items: [
        { id: 2, z: null },
        { id: 1, a: [1, pyFloat(2), '3'] },
      ],
    },
    tau2: [
      '{"items": [{"id": 2, "z": null}, {"a": [1, 2.0, "3"], "id": 1}]}',
      '54d045203ca69479a56b3fced8712851c0de07e305ce965ebdfcd754c133ed22',
    ],
    nemo: [
      '{"items":[{"id":2,"z":null},{"a":[1,2,"3"],"id":1}]}',
      '219de41284b39f2c95d580bafdc987a165cb0463a0205d71b891f1f4e9be8749',
    ],
  },
  {
    name: 'escapes',
    input: { q: 'say "hi"\n\ttab\\', ctrl: '\u0001' },
    tau2: [
      '{"ctrl": "\\u0001", "q": "say \\"hi\\"\\n\\ttab\\\\"}',
      '1934814623d99cddd52617579f85bba669e1c25108a5c0da32f5500d4581e866',
    ],
    nemo: [
      '{"ctrl":"\\u0001","q":"say \\"hi\\"\\n\\ttab\\\\"}',
      '8782c77faafbf66f7654a4bae77d4127b3bd1ecd0e4093a22384da5f4e389b35',
    ],
  },
  {
    name: 'null_string',
    input: { status: 'None', session: { tok: 'abc' } },
    tau2: [
      '{"session": {"tok": "abc"}, "status": "None"}',
      '9c29e6c1793f872917b77d9db6659e3068867a4aec868dd15f00b5f8bdd8dc68',
    ],
    nemo: ['{"status":null}', '467892055be1596fa5b024f7d23e2bec683c55b46b62fc06dc17da28fb7778f3'],
  },
  {
    name: 'standby',
    input: { standby_list: ['b', 'a'] },
    tau2: [
      '{"standby_list": ["b", "a"]}',
      '4e8e2f4b35187f5388f8515f9d985f2129d6290a41db821fd2813364d43a46bc',
    ],
    nemo: [
      '{"standby_list":["a","b"]}',
      '9c54c7de65ffbae190ab39006847021c9e36986c1c2c5fc4b7ac064f462e2bd9',
    ],
  },
  {
    name: 'default_str_types',
    input: {
      date: new PyStr('2025-01-01'),
      dt: new PyStr('2025-01-01 13:05:00'),
      dt_us: new PyStr('2025-01-01 00:00:00.123000'),
      senum: 'red',
      penum: new PyStr('Plain.A'),
    },
    tau2: [
      '{"date": "2025-01-01", "dt": "2025-01-01 13:05:00", "dt_us": "2025-01-01 00:00:00.123000", "penum": "Plain.A", "senum": "red"}',
      '3382a76e2a3b730d433655b6cb0fe76e07589d61daa0cd301af363329c010c3a',
    ],
    nemo: [
      '{"date":"2025-01-01","dt":"2025-01-01 13:05:00","dt_us":"2025-01-01 00:00:00.123000","penum":"Plain.A","senum":"red"}',
      '48c67f0c8bd3cd20a0faac81b5fed442999245aa08156ad43a66ab2da5ee2089',
    ],
  },
  {
    name: 'pydantic_model',
    input: {
      items: { i1: { price: pyFloat(10), qty: 2, note: null } },
      when: new PyStr('2025-01-01'),
    },
    tau2: [
      '{"items": {"i1": {"note": null, "price": 10.0, "qty": 2}}, "when": "2025-01-01"}',
      '3ea18a1314a9b079c5893e5e3b79de78451c1298a4da8d79afe3e85b944c2ce9',
    ],
    nemoInput: { items: { i1: { price: 10, qty: 2 } }, when: '2025-01-01' },
    nemo: [
      '{"items":{"i1":{"price":10,"qty":2}},"when":"2025-01-01"}',
      '1540fdf4d5a7f4499ab750e5cec2184d3c558ab39d3818f5334b848584bd0281',
    ],
  },
  {
    name: 'raw_dict_no_model',
    input: { items: { i1: { price: 10, qty: 2 } }, when: '2025-01-01' },
    tau2: [
      '{"items": {"i1": {"price": 10, "qty": 2}}, "when": "2025-01-01"}',
      '9ee4296271463c45d040a8f36b76b093ae395b6fdca308cfa5dcf43e0f66be94',
    ],
  },
];

/** `v` with every PyFloat marker replaced by its plain number (how the NeMo side sees it). */
function plainNumbers(v: unknown): unknown {
  if (v instanceof PyFloat) return v.value;
  if (Array.isArray(v)) return v.map(plainNumbers);
  if (typeof v !== 'object' || v === null || v instanceof PyStr) return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plainNumbers(x)]));
}

const TAU2_INPUTS_NEMO = TAU2_CASES.flatMap(({ name, input, nemo, nemoInput }) =>
  nemo ? [[name, nemoInput ?? plainNumbers(input), ...nemo] as const] : [],
);
const TAU2_VECTORS = TAU2_CASES.map(({ name, input, tau2 }) => [name, input, ...tau2] as const);

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
