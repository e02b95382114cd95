// Hostile input against the bot server over real sockets. Every case is followed by proof that
// the same session (when it is meant to survive) and another open session still work: a
// get_scenario_summary round trip that returns each session's own db_hash.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTROL_MESSAGE_NAMES, clientMessage, encodeRtviFrame } from '@scenaro/sdk/protocol';
import type { RTVIMessage } from '@scenaro/sdk/protocol';
import type { BotServer } from '../src/index.js';
import type { DomainRegistry } from '../src/scenario/index.js';
import { getDictHash } from '../src/scenario/index.js';
import {
  TEST_DB,
  listenTestServer,
  makeDataRoot,
  setUpBalanceScenario,
  testDbWith,
  testRegistry,
} from './fixtures.js';
import { RtviClient, nextRequestId, pollUntil } from '../src/testing/index.js';

// A real pino logger at debug level into a sink: hostile data is serialized by the logger too.
const sink = new Writable({
  write(_chunk, _encoding, callback) {
    callback();
  },
});
const logger = pino({ level: 'debug' }, sink);

let server: BotServer;
let data: { root: string; cleanup: () => void };
let outside: string;
let a: RtviClient;
let b: RtviClient;
const extraClients: RtviClient[] = [];
const hashes = new Map<RtviClient, string | null>();

const DEPTH = 100_000;
const deepObject = `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`;
const deepArray = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;

function dbWithBalance(balance: number): typeof TEST_DB {
  return testDbWith({ u1: balance });
}

/** update_system_prompt + apply_initialization (u1's balance set); records the expected hash. */
async function startScenario(client: RtviClient, balance: number): Promise<string> {
  const hash = await setUpBalanceScenario(client, `scenario ${balance}`, balance);
  hashes.set(client, hash);
  return hash;
}

/** A fresh ready session with an empty scenario (no db). */
async function freshSession(): Promise<RtviClient> {
  const client = await RtviClient.ready(server.url);
  extraClients.push(client);
  expect(await client.call('update_system_prompt', { prompt: 'fresh', add_suffix: false })).toBe(
    true,
  );
  hashes.set(client, null);
  return client;
}

/** Each client is open and answers a summary round trip with its own, unchanged db_hash. */
async function expectWorking(...clients: RtviClient[]): Promise<void> {
  for (const client of clients) {
    expect(client.isOpen, 'the connection is still open').toBe(true);
    expect(hashes.has(client), 'the client has an expected hash').toBe(true);
    expect(await client.call('get_scenario_summary', {})).toEqual({
      actions: [],
      db_hash: hashes.get(client),
    });
  }
}

function expectNonFatalErrors(replies: RTVIMessage[], pattern: RegExp, count = 1): void {
  expect(replies).toHaveLength(count);
  for (const reply of replies) {
    expect(reply.type).toBe('error');
    expect(reply.id).toBeUndefined();
    expect(reply.data).toEqual({ error: expect.stringMatching(pattern), fatal: false });
  }
}

function expectNoPollution(): void {
  for (const key of ['polluted', 'x', 'y', 'isAdmin']) {
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, key), key).toBe(false);
    expect(({} as Record<string, unknown>)[key], key).toBeUndefined();
  }
}

beforeAll(async () => {
  data = makeDataRoot();
  outside = mkdtempSync(join(tmpdir(), 'scenaro-outside-'));
  writeFileSync(join(outside, 'secret.json'), '{"secret": true}');
  mkdirSync(join(outside, 'shards'));
  writeFileSync(join(outside, 'shards', 'a.json'), '{"secret": true}');
  // Symlinks inside the root: one to a file outside, one to a directory outside, one inside.
  symlinkSync(join(outside, 'secret.json'), join(data.root, 'test', 'escape.json'));
  symlinkSync(join(outside, 'shards'), join(data.root, 'linkdir'));
  symlinkSync(join(data.root, 'test', 'db.json'), join(data.root, 'test', 'inner.json'));
  server = await listenTestServer({
    registry: withNesting(testRegistry()),
    dataRoot: data.root,
    logger,
  });
  a = await RtviClient.ready(server.url);
  b = await RtviClient.ready(server.url);
  await startScenario(a, 1);
  await startScenario(b, 2);
});

afterAll(async () => {
  await Promise.all([a, b, ...extraClients].map((c) => c?.close()));
  await server?.close();
  data?.cleanup();
  if (outside) rmSync(outside, { recursive: true, force: true });
});

describe('undecodable bytes', () => {
  it('survives random bytes (fast-check), answering at most one non-fatal error each', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 0, maxLength: 300 }), async (bytes) => {
        const replies = await a.repliesTo(() => a.sendRaw(bytes));
        expect(replies.length).toBeLessThanOrEqual(1);
        for (const reply of replies) {
          expect(reply.type).toBe('error');
          expect((reply.data as { fatal: boolean }).fatal).toBe(false);
        }
      }),
      { numRuns: 150 },
    );
    await expectWorking(a, b);
  });

  it('survives byte-level mutations of a valid request frame', async () => {
    const frame = encodeRtviFrame(clientMessage('mut', 'get_scenario_summary', { x: 1 }));
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: frame.length - 1 }),
        fc.integer({ min: 1, max: 255 }),
        async (at, xor) => {
          const mutated = Uint8Array.from(frame);
          mutated[at] = (mutated[at] as number) ^ xor;
          const replies = await a.repliesTo(() => a.sendRaw(mutated));
          expect(replies.length).toBeLessThanOrEqual(1);
          for (const reply of replies) {
            expect(['error', 'error-response', 'server-response']).toContain(reply.type);
          }
        },
      ),
      { numRuns: 150 },
    );
    await expectWorking(a, b);
  });

  it('answers every truncation of a valid frame with "Undecodable frame"', async () => {
    const frame = encodeRtviFrame(clientMessage('trunc', 'get_scenario_summary', {}));
    for (let length = 0; length < frame.length; length++) {
      const replies = await a.repliesTo(() => a.sendRaw(frame.subarray(0, length)));
      expectNonFatalErrors(replies, /^Undecodable frame: /);
    }
    await expectWorking(a, b);
  });
});

describe('malformed envelopes', () => {
  it('answers a MessageFrame that is not JSON with an RTVI error', async () => {
    for (const text of ['{not json', '', 'rtvi-ai', '{"label":"rtvi-ai",']) {
      const replies = await a.repliesTo(() => a.sendMessageFrame(text));
      expectNonFatalErrors(replies, /^Invalid RTVI transport message: message is not valid JSON/);
    }
    await expectWorking(a, b);
  });

  it('answers JSON that is not an envelope with an RTVI error', async () => {
    for (const text of [
      '[1,2]',
      '"client-ready"',
      '42',
      'null',
      '{}',
      '{"type":"client-message","id":"x"}',
      '{"label":"rtvi-ai"}',
      '{"label":"rtvi-ai","type":""}',
      '{"label":"rtvi-ai","type":7,"id":"x"}',
      '{"label":"rtvi-ai","type":"client-message","id":42}',
    ]) {
      const replies = await a.repliesTo(() => a.sendMessageFrame(text));
      expectNonFatalErrors(replies, /^Invalid RTVI transport message: /);
    }
    await expectWorking(a, b);
  });

  it('ignores envelopes with a foreign label', async () => {
    const replies = await a.repliesTo(() =>
      a.sendMessageFrame(
        '{"label":"not-rtvi","type":"client-message","id":"f1","data":{"t":"reset"}}',
      ),
    );
    expect(replies).toEqual([]);
    await expectWorking(a, b);
  });

  it('answers an envelope without an id with an RTVI error (fatal false), not an error-response', async () => {
    const replies = await a.repliesTo(() =>
      a.sendMessageFrame(
        '{"label":"rtvi-ai","type":"client-message","data":{"t":"get_scenario_summary"}}',
      ),
    );
    expectNonFatalErrors(replies, /^Invalid RTVI transport message: id/);
    await expectWorking(a, b);
  });

  it('answers an unknown RTVI type with error-response "Unsupported type X"', async () => {
    for (const type of ['bogus-type', 'append-to-context', 'server-response', 'bot-ready']) {
      const id = nextRequestId('unknown');
      const replies = await a.repliesTo(() =>
        a.send({ label: 'rtvi-ai', type, id, data: { role: 'user', content: 'x' } }),
      );
      expect(replies).toEqual([
        {
          label: 'rtvi-ai',
          type: 'error-response',
          id,
          data: { error: `Unsupported type ${type}` },
        },
      ]);
    }
    await expectWorking(a, b);
  });

  it('never answers inbound error or error-response messages, even malformed ones', async () => {
    const texts = [
      '{"label":"rtvi-ai","type":"error","data":{"error":"boom","fatal":false}}',
      '{"label":"rtvi-ai","type":"error","id":"e1","data":{"error":"boom","fatal":true}}',
      '{"label":"rtvi-ai","type":"error-response","id":"e2","data":{"error":"Unsupported type bot-ready"}}',
      '{"label":"rtvi-ai","type":"error-response","data":"not an object"}',
      '{"label":"rtvi-ai","type":"error","id":5}',
      '{"label":"rtvi-ai","type":"error-response","id":{"nested":true},"data":null}',
      `{"label":"rtvi-ai","type":"error","data":${deepObject}}`,
    ];
    for (const text of texts) {
      const replies = await a.repliesTo(() => a.sendMessageFrame(text));
      expect(replies, text.slice(0, 80)).toEqual([]);
    }
    await expectWorking(a, b);
  });

  it('answers a text WebSocket message with an RTVI error and keeps the connection', async () => {
    const replies = await a.repliesTo(() =>
      a.sendTextFrame(
        JSON.stringify(
          clientMessage('txt', 'get_scenario_summary', {}),
        ) /* valid JSON, wrong frame */,
      ),
    );
    expectNonFatalErrors(replies, /^Text WebSocket messages are not supported/);
    await expectWorking(a, b);
  });
});

describe('oversized messages', () => {
  it('closes a connection sending 2 MiB with 1009; other sessions are unaffected', async () => {
    const c = await RtviClient.ready(server.url);
    extraClients.push(c);
    const before = server.sessionCount;
    c.send(clientMessage('big', 'get_scenario_summary', { blob: 'x'.repeat(2 * 1024 * 1024) }));
    const { code } = await c.waitForClose();
    expect(code).toBe(1009);
    await pollUntil(() => server.sessionCount === before - 1, 'the session to be dropped');
    await expectWorking(a, b);
  });
});

describe('prototype pollution', () => {
  it('refuses __proto__, constructor and prototype in delta paths, each with an error', async () => {
    const paths = [
      '__proto__',
      '__proto__.polluted',
      'constructor.prototype.polluted',
      'prototype',
      'settings.__proto__.polluted',
      'settings.constructor',
      'users[__proto__].x',
      'users[u1].__proto__.isAdmin',
    ];
    const delta = `{${paths.map((p) => `${JSON.stringify(p)}: {"polluted": "yes"}`).join(', ')}}`;
    const reply = await a.requestJson('apply_sync_delta', `{"domain": "test", "delta": ${delta}}`);
    expect(reply.type).toBe('server-response');
    const result = (reply.data as { d: { success: boolean; errors: string[] } }).d;
    expect(result.success).toBe(false);
    expect(result.errors).toHaveLength(paths.length);
    paths.forEach((p, i) =>
      expect(result.errors[i]).toMatch(new RegExp(`^forbidden path segment .* in '${escape(p)}'$`)),
    );
    expectNoPollution();
    await expectWorking(a, b);
  });

  it('refuses a top-level __proto__/constructor/prototype key in shared_state_init', async () => {
    const c = await freshSession();
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      const init = `{"db_path": "test/db.json", ${JSON.stringify(key)}: {"polluted": "yes"}}`;
      expect(
        await c.call('apply_initialization', { domain: 'test', shared_state_init: init }),
      ).toEqual({ success: false, errors: [`shared_state_init key '${key}' is not allowed.`] });
    }
    expectNoPollution();
    await expectWorking(c, a, b);
  });

  it('keeps nested __proto__/constructor keys in shared_state_init as plain data', async () => {
    const c = await freshSession();
    const dbText =
      '{"users": [{"user_id": "u1", "__proto__": {"isAdmin": true}}], "constructor": {"prototype": {"polluted": "yes"}}}';
    const init = JSON.stringify(`{"db": ${dbText}, "meta": {"__proto__": {"polluted": "yes"}}}`);
    const reply = await c.requestJson(
      'apply_initialization',
      `{"domain": "test", "shared_state_init": ${init}}`,
    );
    expect((reply.data as { d: unknown }).d).toEqual({ success: true, errors: [] });
    const summary = await c.call<{ db: unknown; db_hash: string }>('get_scenario_summary', {
      include_db: true,
    });
    // The db comes back with the same own keys (compared as JSON text: an object literal with
    // a __proto__ key would set a prototype instead).
    expect(JSON.stringify(summary.db)).toBe(JSON.stringify(JSON.parse(dbText)));
    const user = (summary.db as { users: Record<string, unknown>[] }).users[0] as object;
    expect(Object.prototype.hasOwnProperty.call(user, '__proto__')).toBe(true);
    expect((user as { isAdmin?: unknown }).isAdmin).toBeUndefined();
    hashes.set(c, summary.db_hash);
    expect(summary.db_hash).toBe(getDictHash(JSON.parse(dbText) as Record<string, unknown>));
    expectNoPollution();
    await expectWorking(c, a, b);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('db_path confinement', () => {
  it('refuses paths that escape the data root with success:false and a clear error', async () => {
    const c = await freshSession();
    const cases: [string, RegExp][] = [
      ['../x', /escapes the data root/],
      ['../../../../etc/passwd', /escapes the data root/],
      ['test/../../x.json', /escapes the data root/],
      [join(outside, 'secret.json'), /absolute paths are refused/],
      ['/etc/passwd', /absolute paths are refused/],
      ['test/escape.json', /symlink .*outside the data root/],
      ['linkdir', /symlink .*outside the data root/],
      ['test/nope.json', /neither .* is a file nor .* is a directory/],
    ];
    for (const [dbPath, pattern] of cases) {
      const result = await c.call<{ success: boolean; errors: string[] }>('apply_initialization', {
        domain: 'test',
        shared_state_init: JSON.stringify({ db_path: dbPath }),
      });
      expect(result.success, dbPath).toBe(false);
      expect(result.errors, dbPath).toHaveLength(1);
      expect(result.errors[0], dbPath).toMatch(/^DbPathError: db path /);
      expect(result.errors[0], dbPath).toMatch(pattern);
      expect(result.errors[0], dbPath).not.toContain('"secret"');
    }
    // Nothing was loaded; a symlink that stays inside the root is fine.
    await expectWorking(c);
    expect(
      await c.call('apply_initialization', {
        domain: 'test',
        shared_state_init: '{"db_path": "test/inner.json"}',
      }),
    ).toEqual({ success: true, errors: [] });
    hashes.set(c, getDictHash(structuredClone(TEST_DB)));
    await expectWorking(c, a, b);
  });
});

describe('db_path errors', () => {
  it("name paths relative to the data root, never the server's own paths", async () => {
    symlinkSync('/etc/passwd', join(data.root, 'test', 'passwd.json'));
    mkdirSync(join(data.root, 'test', 'locked'), { recursive: true });
    writeFileSync(join(data.root, 'test', 'broken.json'), '{"a": ');
    const c = await freshSession();
    const cases = [
      'test/passwd.json',
      'test/escape.json',
      'linkdir',
      'test/nope.json',
      `test/${'x'.repeat(300)}`,
      `${'d/'.repeat(3000)}x`,
      'test/broken.json',
      '../x',
      join(outside, 'secret.json'),
    ];
    const secrets = [data.root, realpathSync(data.root), outside, realpathSync(outside), tmpdir()];
    for (const dbPath of cases) {
      const result = await c.call<{ success: boolean; errors: string[] }>('apply_initialization', {
        domain: 'test',
        shared_state_init: JSON.stringify({ db_path: dbPath }),
      });
      expect(result.success, dbPath).toBe(false);
      const text = result.errors.join('\n');
      expect(text, dbPath).not.toContain('/etc/passwd');
      // The client's own absolute path may be echoed back; nothing else of the server's.
      const own = text.replaceAll(join(outside, 'secret.json'), '<given>');
      for (const secret of secrets) expect(own, dbPath).not.toContain(secret);
    }
    await expectWorking(c, a, b);
  });
});

describe('deeply nested JSON (100k levels)', () => {
  const names = [...CONTROL_MESSAGE_NAMES, 'no_such_handler'];

  it.each(names)('survives a 100k-deep d for %s', async (t) => {
    for (const d of [deepObject, `{"delta": {"settings.x": ${deepObject}}, "x": ${deepArray}}`]) {
      const reply = await a.requestJson(t, d, { timeoutMs: 10_000 });
      expect(['server-response', 'error-response']).toContain(reply.type);
    }
    await expectWorking(a, b);
  });

  it('keeps a deep delta value out of the db (the db stays hashable)', async () => {
    const reply = await a.requestJson(
      'apply_sync_delta',
      `{"domain": "test", "delta": {"settings.deep": ${deepObject}}}`,
    );
    expect(['server-response', 'error-response']).toContain(reply.type);
    await expectWorking(a, b);
  });

  it('refuses a deep inline db in shared_state_init; the session can still be initialized', async () => {
    const c = await freshSession();
    const init = JSON.stringify(`{"db": {"x": ${deepObject}}}`);
    const reply = await c.requestJson('apply_initialization', `{"shared_state_init": ${init}}`);
    expect(reply.type).toBe('server-response');
    expect((reply.data as { d: { success: boolean } }).d.success).toBe(false);
    await expectWorking(c);
    await startScenario(c, 33);
    await expectWorking(c, a, b);
  });

  it('survives deep data in other message types (client-ready, send-text, no id)', async () => {
    const texts = [
      `{"label":"rtvi-ai","type":"client-ready","id":"deep1","data":{"version":"2.1.0","about":${deepObject}}}`,
      `{"label":"rtvi-ai","type":"send-text","id":"deep2","data":{"content":"x","options":${deepArray}}}`,
      `{"label":"rtvi-ai","type":"client-message","data":${deepObject}}`,
    ];
    for (const text of texts) {
      const replies = await a.repliesTo(() => a.sendMessageFrame(text));
      expect(replies.length).toBeLessThanOrEqual(1);
      for (const r of replies) expect(['error', 'error-response', 'bot-ready']).toContain(r.type);
    }
    await expectWorking(a, b);
  });
});

describe('nesting built up across messages', () => {
  /** `{"a": {"a": ... 1 ...}}` with `levels` objects. */
  const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
  const delta = (path: string, valueJson: string) =>
    `{"domain": "test", "delta": {${JSON.stringify(path)}: ${valueJson}}}`;

  it('refuses a delta that would make the db deeper than 1,000 levels', async () => {
    const c = await freshSession();
    const init = await c.call('apply_initialization', {
      domain: 'test',
      shared_state_init: '{"db": {"settings": {"currency": "EUR"}}}',
    });
    expect(init).toEqual({ success: true, errors: [] });
    // 990 levels at depth 2: accepted (992 in all).
    const first = await c.requestJson('apply_sync_delta', delta('settings.deep', nested(990)));
    expect((first.data as { d: unknown }).d).toEqual({ success: true, errors: [] });
    // 990 more below the first 990: the db would nest ~1,980 levels deep.
    const path = ['settings', 'deep', ...Array.from({ length: 985 }, () => 'a')].join('.');
    const second = await c.requestJson('apply_sync_delta', delta(path, nested(990)));
    const result = (second.data as { d: { success: boolean; errors: string[] } }).d;
    expect(result.success).toBe(false);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toContain('deeper than 1000 levels');
    // The session works on: its db can be cloned, hashed and extended.
    const summary = await c.call<{ db_hash: string | null }>('get_scenario_summary', {});
    expect(summary.db_hash).toMatch(/^[0-9a-f]{64}$/);
    const again = await c.call('apply_initialization', {
      domain: 'test',
      shared_state_init: '{"flag": true}',
    });
    expect(again).toEqual({ success: true, errors: [] });
    await expectWorking(a, b);
  });

  it('refuses a db file nested deeper than 1,000 levels', async () => {
    writeFileSync(join(data.root, 'test', 'deep.json'), `{"x": ${nested(20_000)}}`);
    const c = await freshSession();
    const reply = await c.call<{ success: boolean; errors: string[] }>('apply_initialization', {
      domain: 'test',
      shared_state_init: '{"db_path": "test/deep.json"}',
    });
    expect(reply.success).toBe(false);
    expect(reply.errors[0]).toContain('deeper than 1000 levels');
    await expectWorking(c, a, b);
  });

  it('refuses initialization actions that would nest the db deeper than 1,000 levels', async () => {
    const c = await freshSession();
    const reply = await c.call<{ success: boolean; errors: string[] }>('apply_initialization', {
      domain: 'test',
      shared_state_init: '{"db_path": "test/db.json"}',
      actions: [
        { func_name: 'nest_settings', arguments: { levels: 600 } },
        { func_name: 'nest_settings', arguments: { levels: 600 } },
      ],
    });
    expect(reply.success).toBe(false);
    expect(reply.errors.join(' ')).toContain('deeper than 1000 levels');
    expect(await c.call('get_scenario_summary', {})).toEqual({ actions: [], db_hash: null });
    await expectWorking(c, a, b);
  });
});

/** The test domain plus `nest_settings`, which wraps `db.settings` in `levels` more objects. */
function withNesting(registry: DomainRegistry): DomainRegistry {
  registry.registerInitializationFunction('test', 'nest_settings', (db, args) => {
    for (let i = 0; i < (args['levels'] as number); i++) db['settings'] = { a: db['settings'] };
  });
  return registry;
}

describe('many concurrent sessions', () => {
  it('runs 200 sessions at once, each getting the db_hash of its own initialization', async () => {
    const count = 200;
    const clients: RtviClient[] = [];
    try {
      const results = await Promise.all(
        Array.from({ length: count }, async (_, i) => {
          const client = await RtviClient.connect(server.url, { connectTimeoutMs: 10_000 });
          clients.push(client);
          await client.handshake();
          const balance = 1000 + i;
          await startScenario(client, balance);
          const summary = await client.call<{ db_hash: string }>('get_scenario_summary', {});
          return { balance, hash: summary.db_hash };
        }),
      );
      for (const { balance, hash } of results) {
        expect(hash).toBe(getDictHash(dbWithBalance(balance)));
      }
      expect(new Set(results.map((r) => r.hash)).size).toBe(count);
      expect(server.sessionCount).toBeGreaterThanOrEqual(count + 2);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
      for (const c of clients) hashes.delete(c);
    }
    await expectWorking(a, b);
  });
});
