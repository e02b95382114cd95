// Property-based fuzzing (fast-check, bounded runs, fixed seed so failures reproduce) of the
// parsers that read untrusted input: the Pipecat frame decoder, the RTVI envelope parser, the
// control-plane argument handling of a live session, delta paths, and db loading. Inputs that
// once broke a property are kept below as named regression tests.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONTROL_MESSAGE_NAMES,
  FrameDecodeError,
  decodeFrame,
  decodeRtviFrame,
  encodeFrame,
  encodeRtviFrame,
  parseClientToServer,
  parseEnvelope,
} from '@scenaro/sdk/protocol';
import type { ControlMessageName, PipecatFrame } from '@scenaro/sdk/protocol';
import {
  DbCache,
  DbParseError,
  DbPathError,
  DeltaPathError,
  applyDeltaDefault,
  loadDbArtifact,
  parseDeltaPath,
  setAtPath,
} from '../src/scenario/index.js';
import type { BotServer } from '../src/index.js';
import type { Db } from '../src/scenario/index.js';
import { startTestServer } from './fixtures.js';
import type { TestServer } from './fixtures.js';
import { RtviClient } from '../src/testing/index.js';

/** Same seed every run: a failure prints its counterexample and reproduces. */
const SEED = 20_251_130;
const runs = (numRuns: number) => ({ numRuns, seed: SEED });

// --- shared arbitraries ------------------------------------------------------------------------

/** Keys that reach prototype machinery or shadow methods the code may call. */
const DANGEROUS_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'toJSON',
  '__defineGetter__',
  'length',
];
const key = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...DANGEROUS_KEYS) },
  { weight: 3, arbitrary: fc.constantFrom('id', 'user_id', 'bill_id', 'users', 'bills', 'a', 'b') },
  { weight: 2, arbitrary: fc.string({ maxLength: 8 }) },
);
/** JSON values whose objects use the keys above. */
const { json } = fc.letrec<{ json: unknown }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string({ maxLength: 12 }),
    fc.array(tie('json'), { maxLength: 4 }),
    fc.dictionary(key, tie('json'), { maxKeys: 5 }),
  ),
}));
/** A JSON value as `JSON.parse` builds it (own `__proto__` keys, ordinary prototypes). */
const parsedJson = json.map((v) => JSON.parse(JSON.stringify(v) ?? 'null') as unknown);

/** Own property names of the built-in prototypes, to prove nothing was added to them. */
function prototypeSnapshot(): string {
  return [Object.prototype, Array.prototype, Function.prototype, String.prototype]
    .map((p) => Object.getOwnPropertyNames(p).sort().join(','))
    .join('|');
}
const pristine = prototypeSnapshot();
function expectNoPollution(): void {
  expect(prototypeSnapshot()).toBe(pristine);
  for (const k of ['polluted', 'x', 'isAdmin', 'a', 'b', 'id'])
    expect(({} as Record<string, unknown>)[k], k).toBeUndefined();
}

// --- frame decoder -------------------------------------------------------------------------------

const bigint64 = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n });
const identity = fc.record(
  { id: bigint64.filter((v) => v !== 0n), name: fc.string({ minLength: 1, maxLength: 10 }) },
  { requiredKeys: [] },
);
const frameArb: fc.Arbitrary<PipecatFrame> = fc.oneof(
  fc.tuple(identity, fc.string()).map(([i, text]) => ({ kind: 'text' as const, ...i, text })),
  fc
    .tuple(
      identity,
      fc.uint8Array({ maxLength: 2048 }),
      fc.nat({ max: 2 ** 32 - 1 }),
      fc.nat({ max: 2 ** 32 - 1 }),
      fc.option(bigint64, { nil: undefined }),
    )
    .map(([i, audio, sampleRate, numChannels, pts]) => ({
      kind: 'audio' as const,
      ...i,
      audio,
      sampleRate,
      numChannels,
      ...(pts !== undefined ? { pts } : {}),
    })),
  fc.tuple(identity, fc.string(), fc.string(), fc.string()).map(([i, text, userId, timestamp]) => ({
    kind: 'transcription' as const,
    ...i,
    text,
    userId,
    timestamp,
  })),
  fc.string().map((data) => ({ kind: 'message' as const, data })),
  identity.map((i) => ({ kind: 'interruption' as const, ...i })),
);

/** Protobuf-shaped noise: random tags, wire types, varints and length-delimited payloads. */
function varint(n: number): number[] {
  const out: number[] = [];
  let v = n >>> 0;
  while (v > 0x7f) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
  return out;
}
const protoField: fc.Arbitrary<number[]> = fc
  .tuple(
    fc.integer({ min: 0, max: 20 }),
    fc.integer({ min: 0, max: 7 }),
    fc.uint8Array({ maxLength: 24 }),
    fc.nat(),
  )
  .map(([field, wire, payload, n]) => {
    const tag = varint((field << 3) | wire);
    if (wire === 0) return [...tag, ...varint(n)];
    if (wire === 2) return [...tag, ...varint(payload.length), ...payload];
    if (wire === 1) return [...tag, ...payload.slice(0, 8)];
    if (wire === 5) return [...tag, ...payload.slice(0, 4)];
    return [...tag, ...payload.slice(0, 4)];
  });
const protoNoise = fc
  .array(protoField, { maxLength: 8 })
  .map((fields) => Uint8Array.from(fields.flat()));
/** A valid frame nested in a message field of the oneof, with noise appended. */
const nestedNoise = fc
  .tuple(fc.integer({ min: 1, max: 5 }), protoNoise)
  .map(([field, inner]) =>
    Uint8Array.from([...varint((field << 3) | 2), ...varint(inner.length), ...inner]),
  );

function expectOnlyFrameDecodeError(bytes: Uint8Array): void {
  try {
    decodeFrame(bytes);
  } catch (err) {
    expect(err).toBeInstanceOf(FrameDecodeError);
  }
  const result = decodeRtviFrame(bytes); // never throws
  expect(typeof result.ok).toBe('boolean');
}

describe('frame decoder', () => {
  it('round-trips every frame kind', () => {
    fc.assert(
      fc.property(frameArb, (frame) => {
        expect(decodeFrame(encodeFrame(frame))).toEqual(frame);
      }),
      runs(500),
    );
  });

  it('throws nothing but FrameDecodeError on random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), expectOnlyFrameDecodeError),
      runs(2000),
    );
  });

  it('throws nothing but FrameDecodeError on protobuf-shaped noise', () => {
    fc.assert(
      fc.property(fc.oneof(protoNoise, nestedNoise), expectOnlyFrameDecodeError),
      runs(3000),
    );
  });

  it('throws nothing but FrameDecodeError on mutated and truncated valid frames', () => {
    fc.assert(
      fc.property(
        frameArb,
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { maxLength: 4 }),
        fc.nat(),
        (frame, flips, cut) => {
          const bytes = Uint8Array.from(encodeFrame(frame));
          for (const [at, xor] of flips)
            if (bytes.length > 0)
              bytes[at % bytes.length] = (bytes[at % bytes.length] as number) ^ xor;
          expectOnlyFrameDecodeError(bytes);
          expectOnlyFrameDecodeError(bytes.subarray(0, cut % (bytes.length + 1)));
        },
      ),
      runs(2000),
    );
  });

  it('survives deeply nested groups and length-delimited fields', () => {
    for (const depth of [1_000, 100_000]) {
      // start-group tags of an unknown field, never closed / closed
      const open = new Uint8Array(depth).fill((9 << 3) | 3);
      expectOnlyFrameDecodeError(open);
      const closed = Uint8Array.from([...open, ...new Uint8Array(depth).fill((9 << 3) | 4)]);
      expectOnlyFrameDecodeError(closed);
    }
    // a length prefix far beyond the buffer
    expectOnlyFrameDecodeError(Uint8Array.from([0x22, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x0a]));
  });
});

// --- envelope parser -----------------------------------------------------------------------------

const TYPES = [
  'client-ready',
  'client-message',
  'send-text',
  'llm-function-call-result',
  'disconnect-bot',
  'dtmf',
  'raw-audio',
  'raw-audio-batch',
  'ui-event',
  'ui-snapshot',
  'ui-cancel-job-group',
  'append-to-context',
  'bot-ready',
  'error',
];
/** Envelope-shaped objects: the right keys with random values, sometimes the right types. */
const envelopeArb = fc.record(
  {
    label: fc.oneof(fc.constant('rtvi-ai'), parsedJson),
    type: fc.oneof(fc.constantFrom(...TYPES), parsedJson),
    id: fc.oneof(fc.string({ maxLength: 8 }), parsedJson),
    data: parsedJson,
    extra: parsedJson,
  },
  { requiredKeys: [] },
);

describe('envelope parser', () => {
  it('never throws, on any JSON text or value', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), parsedJson, envelopeArb), (input) => {
        const parsed = parseEnvelope(typeof input === 'string' ? input : JSON.stringify(input));
        const direct = parseEnvelope(input);
        for (const result of [parsed, direct]) {
          if (result.ok) {
            expect(result.value.label).toBe('rtvi-ai');
            expect(typeof result.value.type).toBe('string');
            const typed = parseClientToServer(result.value); // never throws either
            expect(typeof typed.ok).toBe('boolean');
          } else {
            expect(typeof result.error.message).toBe('string');
          }
        }
        expectNoPollution();
      }),
      runs(3000),
    );
  });

  it('reads every valid envelope back unchanged', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TYPES),
        fc.string({ minLength: 1, maxLength: 10 }),
        parsedJson,
        (type, id, data) => {
          const envelope = { label: 'rtvi-ai', type, id, data };
          const bytes = encodeRtviFrame(envelope as never);
          const result = decodeRtviFrame(bytes);
          expect(result.ok).toBe(true);
          if (result.ok) expect(result.message).toEqual(JSON.parse(JSON.stringify(envelope)));
        },
      ),
      runs(1000),
    );
  });
});

// --- control-plane arguments over a live session ------------------------------------------------

const toolsJson = fc.oneof(
  fc.constantFrom(
    '{"get_user": {}}',
    '{"add_credit": {"amount": 2}}',
    '{}',
    '{"nope": {}}',
    '[',
    'null',
  ),
  parsedJson.map((v) => JSON.stringify(v)),
);
const dbPath = fc.oneof(
  fc.constantFrom('test/db.json', 'test/db', 'test', '../x', '/etc/passwd', 'nope.json', ''),
  fc.string({ maxLength: 12 }),
);
const action = fc.record(
  {
    func_name: fc.oneof(fc.constantFrom('set_balance', 'fail_always', 'nope'), parsedJson),
    arguments: fc.oneof(
      fc.record({ user_id: fc.constantFrom('u1', 'u2', 'u9'), balance: parsedJson }),
      parsedJson,
    ),
    side: fc.oneof(fc.constantFrom('agent', 'user'), parsedJson),
  },
  { requiredKeys: [] },
);
const sharedStateInit = fc.oneof(
  fc.record({ db_path: dbPath }, { requiredKeys: [] }).map((v) => JSON.stringify(v)),
  fc
    .record({ db: parsedJson, db_path: dbPath, x: parsedJson }, { requiredKeys: [] })
    .map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 20 }),
  parsedJson,
);
const deltaPath = fc.oneof(
  fc.constantFrom('users[u1].balance', 'settings.currency', 'users[u9].x', 'a.b', 'users'),
  fc.array(key, { minLength: 1, maxLength: 3 }).map((keys) => keys.join('.')),
  fc.string({ maxLength: 15 }),
);
/** Shape-aware `d` for each message: the documented keys, values of any type. */
const argsFor: Record<ControlMessageName, fc.Arbitrary<unknown>> = {
  reset: parsedJson,
  update_system_prompt: fc.record(
    {
      prompt: fc.oneof(fc.string({ maxLength: 20 }), parsedJson),
      tools: fc.oneof(toolsJson, parsedJson),
      add_suffix: fc.oneof(fc.boolean(), parsedJson),
      tool_domain: fc.oneof(fc.constantFrom('test', 'default', 'nope'), parsedJson),
    },
    { requiredKeys: [] },
  ),
  get_context_history: fc.record(
    { format: fc.oneof(fc.constantFrom('json', 'python', ''), parsedJson) },
    { requiredKeys: [] },
  ),
  get_scenario_summary: fc.record(
    { include_db: fc.oneof(fc.boolean(), parsedJson) },
    { requiredKeys: [] },
  ),
  apply_initialization: fc.record(
    {
      domain: fc.oneof(fc.constantFrom('test', 'nope'), parsedJson),
      shared_state_init: sharedStateInit,
      actions: fc.oneof(fc.array(action, { maxLength: 3 }), parsedJson),
    },
    { requiredKeys: [] },
  ),
  apply_sync_delta: fc.record(
    {
      domain: fc.oneof(fc.constantFrom('test', 'nope'), parsedJson),
      delta: fc.oneof(fc.dictionary(deltaPath, parsedJson, { maxKeys: 3 }), parsedJson),
    },
    { requiredKeys: [] },
  ),
};

describe('control-plane arguments over a live session', () => {
  let fixture: TestServer;
  let server: BotServer;
  let client: RtviClient;
  let bystander: RtviClient;
  let sequence = 0;

  beforeAll(async () => {
    fixture = await startTestServer();
    server = fixture.server;
    client = await RtviClient.ready(server.url);
    bystander = await RtviClient.ready(server.url);
    expect(
      await bystander.call('apply_initialization', {
        domain: 'test',
        shared_state_init: '{"db_path": "test/db.json"}',
      }),
    ).toEqual({ success: true, errors: [] });
  });

  afterAll(async () => {
    await client?.close();
    await bystander?.close();
    await fixture?.close();
  });

  for (const t of CONTROL_MESSAGE_NAMES) {
    it(`answers every ${t} with server-response or error-response and stays alive`, async () => {
      const replies = new Map<string, number>();
      await fc.assert(
        fc.asyncProperty(fc.oneof(argsFor[t], parsedJson), fc.boolean(), async (d, omit) => {
          const id = `fuzz_${t}_${++sequence}`;
          // raw JSON text: own __proto__ keys travel as they are
          const body = omit ? '' : `,"d":${JSON.stringify(d) ?? 'null'}`;
          client.sendMessageFrame(
            `{"label":"rtvi-ai","type":"client-message","id":${JSON.stringify(id)},"data":{"t":${JSON.stringify(t)}${body}}}`,
          );
          const reply = await client.waitFor((m) => m.id === id, `the reply to ${id}`);
          expect(['server-response', 'error-response']).toContain(reply.type);
          replies.set(reply.type, (replies.get(reply.type) ?? 0) + 1);
          if (reply.type === 'server-response') expect((reply.data as { t: string }).t).toBe(t);
          else expect(typeof (reply.data as { error: unknown }).error).toBe('string');
          expect(client.messages.filter((m) => m.type === 'error')).toEqual([]);
        }),
        runs(150),
      );
      // the session and its neighbour still work, and nothing reached a prototype
      expect(client.isOpen).toBe(true);
      expect((await client.request('get_scenario_summary', {})).type).toBe('server-response');
      expect(await bystander.call('get_scenario_summary', {})).toMatchObject({
        actions: [],
        db_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      expectNoPollution();
      expect(server.sessionCount).toBe(2);
      console.log(`fuzz ${t}: ${JSON.stringify(Object.fromEntries(replies))}`);
    });
  }
});

// --- delta paths -------------------------------------------------------------------------------

const pathSegment = fc.oneof(
  key,
  fc.tuple(key, fc.oneof(key, fc.constantFrom('u1', 'B1', '1', '0'))).map(([k, s]) => `${k}[${s}]`),
  fc.constantFrom('', '[', ']', '[]', 'a[b]c', 'a]', '.', '..'),
);
const deltaPathArb = fc.oneof(
  fc.array(pathSegment, { minLength: 1, maxLength: 4 }).map((s) => s.join('.')),
  fc.string({ maxLength: 20 }),
);
/** Values of id-like fields: ids, any JSON, and objects that shadow the conversion methods. */
const idValue = fc.oneof(
  fc.constantFrom('u1', 'B1', 1, 0, null, true),
  parsedJson,
  fc
    .dictionary(fc.constantFrom('toString', 'valueOf', 'toJSON'), parsedJson, {
      minKeys: 1,
      maxKeys: 2,
    })
    .map((v) => JSON.parse(JSON.stringify(v)) as unknown),
);
/** dbs with lists of records keyed by the id fields selectors look at. */
const record = fc.dictionary(
  fc.oneof(fc.constantFrom('id', 'user_id', 'bill_id', 'x_id', 'status'), key),
  idValue,
  { maxKeys: 4 },
);
const dbArb = fc
  .dictionary(
    fc.oneof(fc.constantFrom('users', 'bills', 'settings'), key),
    fc.oneof(fc.array(record, { maxLength: 3 }), record, parsedJson),
    { maxKeys: 4 },
  )
  .map((db) => JSON.parse(JSON.stringify(db)) as Db);

/** Paths that follow a db's own structure (keys, list selectors from its id values), plus noise. */
function pathsInto(db: unknown, depth = 0): string[] {
  if (depth > 2 || db === null || typeof db !== 'object' || Array.isArray(db)) return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(db)) {
    out.push(k);
    const children: [string, unknown][] = [];
    if (Array.isArray(v)) {
      for (const element of v) {
        if (element === null || typeof element !== 'object') continue;
        for (const id of Object.values(element as object))
          if (id === null || typeof id !== 'object')
            children.push([`${k}[${String(id)}]`, element]);
      }
      children.push([`${k}[u1]`, undefined], [`${k}[nomatch]`, undefined]);
    } else children.push([k, v]);
    for (const [prefix, child] of children) {
      out.push(`${prefix}.name`, `${prefix}.__proto__.polluted`);
      for (const rest of pathsInto(child, depth + 1)) out.push(`${prefix}.${rest}`);
    }
  }
  return out;
}
const dbAndPath = dbArb.chain((db) => {
  const paths = pathsInto(db);
  return fc.tuple(
    fc.constant(db),
    paths.length > 0 ? fc.oneof(fc.constantFrom(...paths), deltaPathArb) : deltaPathArb,
  );
});

function expectOnlyDeltaPathError(run: () => void): void {
  try {
    run();
  } catch (err) {
    expect(err, String(err)).toBeInstanceOf(DeltaPathError);
  }
}

describe('delta paths', () => {
  it('parseDeltaPath throws nothing but DeltaPathError and never yields a forbidden key', () => {
    fc.assert(
      fc.property(fc.oneof(deltaPathArb, parsedJson), (path) => {
        expectOnlyDeltaPathError(() => {
          for (const segment of parseDeltaPath(path as string)) {
            expect(['__proto__', 'constructor', 'prototype']).not.toContain(segment.key);
            if (segment.selector !== undefined)
              expect(['__proto__', 'constructor', 'prototype']).not.toContain(segment.selector);
          }
        });
      }),
      runs(3000),
    );
  });

  it('setAtPath and the default applier never pollute prototypes nor throw anything else', () => {
    fc.assert(
      fc.property(dbAndPath, parsedJson, ([original, path], value) => {
        const db = JSON.parse(JSON.stringify(original)) as Db; // the generated value stays intact
        expectOnlyDeltaPathError(() => setAtPath(db, path, value));
        const result = applyDeltaDefault(db, { [path]: value, 'x.__proto__.polluted': 1 });
        expect(result.applied.length + result.errors.length).toBe(2);
        expectNoPollution();
      }),
      runs(3000),
    );
  });

  // Regression (found by the property above): a list element whose id field is an object with
  // a non-callable `toString`/`valueOf` made the selector's String() throw a TypeError.
  it('regression: an id that cannot be converted to a string does not match and does not throw', () => {
    const db = JSON.parse(
      '{"users": [{"id": {"toString": 1}}, {"user_id": {"valueOf": 0, "toString": "x"}}, {"x_id": {"toString": []}, "id": "u1"}]}',
    ) as Db;
    expect(() => setAtPath(db, 'users[u9].name', 'x')).toThrow(DeltaPathError);
    setAtPath(db, 'users[u1].name', 'Ada');
    expect((db['users'] as Record<string, unknown>[])[2]?.['name']).toBe('Ada');
    expect(applyDeltaDefault(db, { 'users[zz].a': 1 }).errors).toEqual([
      "'users[zz].a': no element of 'users' with id 'zz'",
    ]);
  });
});

// --- db loading --------------------------------------------------------------------------------

describe('db loading', () => {
  let base: string;
  let root: string;
  const inside = new Set<string>();

  beforeAll(() => {
    base = mkdtempSync(join(tmpdir(), 'scenaro-fuzz-db-'));
    root = join(base, 'root');
    const outside = join(base, 'outside');
    mkdirSync(join(root, 'dir'), { recursive: true });
    mkdirSync(join(root, 'sub'), { recursive: true });
    mkdirSync(outside);
    const write = (file: string, value: unknown) => writeFileSync(file, JSON.stringify(value));
    write(join(root, 'a.json'), { where: 'a' });
    write(join(root, 'dir', 'x.json'), { where: 'x' });
    write(join(root, 'dir', 'y.json'), { where: 'y' });
    write(join(root, 'sub', 'b.json'), { where: 'b' });
    writeFileSync(join(root, 'bad.json'), '{not json');
    write(join(outside, 'secret.json'), { secret: true });
    write(join(base, 'sibling.json'), { secret: true });
    symlinkSync(outside, join(root, 'link'));
    symlinkSync(join(outside, 'secret.json'), join(root, 'sub', 'escape.json'));
    symlinkSync(join(root, 'a.json'), join(root, 'sub', 'inner.json'));
    for (const v of [{ where: 'a' }, { x: { where: 'x' }, y: { where: 'y' } }, { where: 'b' }])
      inside.add(JSON.stringify(v));
  });

  afterAll(() => {
    if (base) rmSync(base, { recursive: true, force: true });
  });

  const part = fc.oneof(
    fc.constantFrom(
      '..',
      '.',
      '',
      'a',
      'a.json',
      'dir',
      'dir.json',
      'sub',
      'b',
      'b.json',
      'inner',
      'escape',
      'link',
      'secret',
      'secret.json',
      'outside',
      'root',
      'sibling',
      'bad',
      '%2e%2e',
      '..\\..',
      '\\',
      '~',
      '\0',
    ),
    fc.string({ maxLength: 6 }),
  );
  const target = fc.constantFrom(
    'a',
    'a.json',
    'dir',
    'dir.json',
    'dir/x.json',
    'sub/b',
    'sub/b.json',
    'sub/inner.json',
    'sub/escape.json',
    'link/secret',
    'link',
    'bad.json',
  );
  const relPath = fc.oneof(
    // a real target with segments before and after it (`..`, `root`, `.`, noise, ...)
    {
      weight: 3,
      arbitrary: fc
        .tuple(
          fc.oneof(
            fc.constant([] as string[]),
            fc.array(fc.oneof(fc.constantFrom('.', '..', 'root', 'dir', 'sub', ''), part), {
              maxLength: 3,
            }),
          ),
          target,
          fc.option(fc.oneof(fc.constantFrom('.', '..', ''), part), { freq: 3 }),
          fc.constantFrom('/', '/', '/', '\\', '//'),
          fc.integer({ min: 0, max: 4 }),
        )
        .map(
          ([before, t, after, sep, lead]) =>
            (lead === 0 ? sep : '') + [...before, t, ...(after === null ? [] : [after])].join(sep),
        ),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.array(part, { minLength: 1, maxLength: 5 }), fc.constantFrom('/', '\\', '//'))
        .map(([parts, sep]) => parts.join(sep)),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
  );

  it('never returns anything from outside the root', async () => {
    const cache = new DbCache({ maxEntries: 4 });
    const outcomes = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(relPath, async (dbPath) => {
        for (const load of [() => loadDbArtifact(root, dbPath), () => cache.get(root, dbPath)]) {
          try {
            const value = await load();
            const text = JSON.stringify(value);
            expect(text).not.toContain('secret');
            // a db is only ever one of the files or shard directories inside the root
            expect(inside.has(text) || text.includes('"where"'), text).toBe(true);
            outcomes.set('loaded', (outcomes.get('loaded') ?? 0) + 1);
          } catch (err) {
            expect(
              err instanceof DbPathError || err instanceof DbParseError,
              `unexpected ${String(err)} for ${JSON.stringify(dbPath)}`,
            ).toBe(true);
            outcomes.set((err as Error).name, (outcomes.get((err as Error).name) ?? 0) + 1);
          }
        }
      }),
      runs(600),
    );
    console.log(`fuzz db loading: ${JSON.stringify(Object.fromEntries(outcomes))}`);
    // the inside paths do load
    expect(await loadDbArtifact(root, 'sub/inner.json')).toEqual({ where: 'a' });
    await expect(loadDbArtifact(root, 'sub/escape.json')).rejects.toBeInstanceOf(DbPathError);
    await expect(loadDbArtifact(root, 'link/secret.json')).rejects.toBeInstanceOf(DbPathError);
    await expect(loadDbArtifact(root, '../sibling.json')).rejects.toBeInstanceOf(DbPathError);
  });
});
