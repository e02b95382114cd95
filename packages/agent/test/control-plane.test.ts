// The control plane over real sockets with a raw RTVI client: the six handlers' documented
// semantics and error strings, reply size limits, concurrency on one socket, server options
// (auth, session limits, profiles, HTTP endpoints, shutdown) and the handshake version rules.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clientReady } from '@scenaro/sdk/protocol';
import type { RTVIMessage } from '@scenaro/sdk/protocol';
import { sanitizeContextForTransport } from '../src/index.js';
import { getDictHash, pythonRepr } from '../src/scenario/index.js';
import type { BotServer, BotServerOptions, ConversationHost } from '../src/index.js';
import type { JsonObject } from '../src/scenario/index.js';
import { TEST_DB, listenTestServer, startTestServer, testDbWith } from './fixtures.js';
import type { TestServer } from './fixtures.js';
import {
  RtviClient,
  httpJson,
  nextRequestId,
  pollUntil,
  upgradeStatus,
} from '../src/testing/index.js';

const SUFFIX = 'Always answer in English.';
const OUTGOING_CAP = 50_000;
const BIG_DB = { ...structuredClone(TEST_DB), blob: 'x'.repeat(80_000) };

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
}
function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

let fixture: TestServer;
let server: BotServer;
let lastHost: ConversationHost | undefined;
let slowGate = deferred();
let slowStarted = 0;
const openClients: RtviClient[] = [];
const extraServers: BotServer[] = [];

/** A conversation that appends `send-text` content to the context (`json:` = a whole message). */
function recordingConversation(host: ConversationHost) {
  lastHost = host;
  return {
    onUserText(content: string) {
      if (content.startsWith('json:')) host.context.append(JSON.parse(content.slice(5)));
      else host.context.append({ role: 'user', content });
    },
  };
}

async function slowHandler(d: unknown): Promise<unknown> {
  slowStarted += 1;
  await slowGate.promise;
  return { slow: true, d };
}

async function startServer(options: BotServerOptions = {}): Promise<BotServer> {
  const s = await listenTestServer({ dataRoot: fixture.dataRoot, ...options });
  extraServers.push(s);
  return s;
}

/** A ready client of `s` and the conversation host of its session. */
async function connect(s: BotServer = server): Promise<{ c: RtviClient; host: ConversationHost }> {
  lastHost = undefined;
  const c = await RtviClient.ready(s.url);
  openClients.push(c);
  if (!lastHost) throw new Error('no conversation host was created');
  return { c, host: lastHost };
}

async function prompt(c: RtviClient, d: JsonObject): Promise<unknown> {
  return c.call('update_system_prompt', { add_suffix: false, tool_domain: 'test', ...d });
}

async function initialize(c: RtviClient, d: JsonObject): Promise<unknown> {
  return c.call('apply_initialization', { domain: 'test', ...d });
}

/** Load the test db into the session (`apply_initialization`), which must succeed. */
async function loadTestDb(c: RtviClient): Promise<void> {
  expect(await initialize(c, { shared_state_init: '{"db_path": "test/db.json"}' })).toEqual({
    success: true,
    errors: [],
  });
}

/** A user turn as a bare `send-text` (no options). */
function sendUserTurn(c: RtviClient, content: string): void {
  c.send({ label: 'rtvi-ai', type: 'send-text', id: nextRequestId('text'), data: { content } });
}

async function summary(
  c: RtviClient,
  includeDb = false,
): Promise<{ actions: unknown[]; db_hash: string | null; db?: unknown }> {
  return c.call('get_scenario_summary', { include_db: includeDb });
}

async function contextJson(c: RtviClient): Promise<unknown> {
  const { context } = await c.call<{ context: string }>('get_context_history', { format: 'json' });
  return JSON.parse(context);
}

function errorOf(reply: RTVIMessage): string {
  expect(reply.type).toBe('error-response');
  return (reply.data as { error: string }).error;
}

beforeAll(async () => {
  fixture = await startTestServer(
    {
      systemPromptSuffix: SUFFIX,
      maxOutgoingBytes: OUTGOING_CAP,
      conversation: recordingConversation,
    },
    { big: BIG_DB },
  );
  server = fixture.server;
  server.registerClientMessage('slow', slowHandler);
});

afterEach(async () => {
  slowGate.resolve();
  slowGate = deferred();
  slowStarted = 0;
  await Promise.all(openClients.splice(0).map((c) => c.close()));
});

afterAll(async () => {
  await Promise.all(extraServers.map((s) => s.close()));
  await fixture?.close();
});

describe('update_system_prompt', () => {
  it('binds tools by name or alias, installs the prompt and clears the scenario', async () => {
    const { c, host } = await connect();
    expect(
      await prompt(c, { prompt: 'P1', tools: '{"GetUserTool": {"x": 1}, "add_credit": {}}' }),
    ).toBe(true);
    expect([...host.state.tools.keys()]).toEqual(['get_user', 'add_credit']);
    expect(host.state.tools.get('get_user')?.options).toEqual({ x: 1 });
    expect(host.state.toolDomain).toBe('test');
    await loadTestDb(c);
    expect((await summary(c)).db_hash).toBe(getDictHash(TEST_DB));
    expect(await prompt(c, { prompt: 'P2', tools: '{}' })).toBe(true);
    expect(await summary(c, true)).toEqual({ actions: [], db_hash: null, db: null });
    expect(await contextJson(c)).toEqual([{ role: 'system', content: 'P2' }]);
    expect(host.state.tools.size).toBe(0);
  });

  it('is all-or-nothing: an unknown tool, an empty prompt or bad tools JSON change nothing', async () => {
    const { c, host } = await connect();
    expect(await prompt(c, { prompt: 'P1', tools: '{"get_user": {"x": 1}}' })).toBe(true);
    await loadTestDb(c);
    sendUserTurn(c, 'hello');
    const before = await summary(c, true);
    const contextBefore = await contextJson(c);
    expect(contextBefore).toEqual([
      { role: 'system', content: 'P1' },
      { role: 'user', content: 'hello' },
    ]);
    const toolsBefore = host.state.tools;

    const failures: JsonObject[] = [
      { prompt: 'P2', tools: '{"get_user": {}, "no_such_tool": {}}' },
      { prompt: 'P2', tools: '{"no_such_tool": {}}', tool_domain: 'default' },
      { prompt: '', tools: '{"add_credit": {}}' },
      { tools: '{"add_credit": {}}' },
      { prompt: 'P2', tools: '{not json' },
      { prompt: 'P2', tools: '["get_user"]' },
      { prompt: 'P2', tools: 'null' },
    ];
    for (const d of failures) {
      expect(await prompt(c, d), JSON.stringify(d)).toBe(false);
      expect(await summary(c, true)).toEqual(before);
      expect(await contextJson(c)).toEqual(contextBefore);
      expect(host.state.tools).toBe(toolsBefore);
      expect([...host.state.tools.keys()]).toEqual(['get_user']);
      expect(host.state.toolDomain).toBe('test');
    }
    // A wrongly typed argument is an error-response; nothing changes either.
    const reply = await c.request('update_system_prompt', {
      prompt: 'P2',
      tools: { get_user: {} },
      tool_domain: 'test',
    });
    expect(errorOf(reply)).toMatch(
      /^ValueError: update_system_prompt: tools must be a JSON string/,
    );
    expect(await summary(c, true)).toEqual(before);
    expect(await contextJson(c)).toEqual(contextBefore);
  });

  it("add_suffix appends a newline and the server's suffix (default true)", async () => {
    const { c } = await connect();
    expect(await prompt(c, { prompt: 'Base.', add_suffix: true })).toBe(true);
    expect(await contextJson(c)).toEqual([{ role: 'system', content: `Base.\n${SUFFIX}` }]);
    expect(await c.call('update_system_prompt', { prompt: 'Default.' })).toBe(true);
    expect(await contextJson(c)).toEqual([{ role: 'system', content: `Default.\n${SUFFIX}` }]);
    expect(await prompt(c, { prompt: 'Plain.', add_suffix: false })).toBe(true);
    expect(await contextJson(c)).toEqual([{ role: 'system', content: 'Plain.' }]);
  });

  it('reset returns the context to the last system prompt and keeps the db', async () => {
    const { c } = await connect();
    expect(await prompt(c, { prompt: 'P' })).toBe(true);
    await loadTestDb(c);
    sendUserTurn(c, 'hi');
    expect(await contextJson(c)).toHaveLength(2);
    expect(await c.call('reset', {})).toBe(true);
    expect(await contextJson(c)).toEqual([{ role: 'system', content: 'P' }]);
    expect((await summary(c)).db_hash).toBe(getDictHash(TEST_DB));
  });
});

describe('apply_initialization', () => {
  const AVAILABLE = "Available: ['fail_always', 'set_balance'].";

  it('is all-or-nothing: one failing action among good ones reports every error and changes nothing', async () => {
    const { c } = await connect();
    expect(await prompt(c, { prompt: 'P' })).toBe(true);
    expect(
      await initialize(c, {
        shared_state_init: '{"db_path": "test/db.json"}',
        actions: [
          { func_name: 'set_balance', arguments: { user_id: 'u1', balance: 5 }, side: 'agent' },
        ],
      }),
    ).toEqual({ success: true, errors: [] });
    const expected = testDbWith({ u1: 5 });
    const before = await summary(c, true);
    expect(before).toEqual({ actions: [], db_hash: getDictHash(expected), db: expected });

    const result = await initialize(c, {
      shared_state_init: '{"note": "second"}',
      actions: [
        { func_name: 'set_balance', arguments: { user_id: 'u2', balance: 7 } },
        { func_name: 'nope', arguments: {} },
        { func_name: 'fail_always' },
        { func_name: 'set_balance', arguments: { user_id: 'u9', balance: 1 } },
        { func_name: 'set_balance', arguments: { user_id: 'u1', balance: 100 } },
      ],
    });
    expect(result).toEqual({
      success: false,
      errors: [
        `[action 1] No initialization function 'nope' registered under domain='test'. ${AVAILABLE}`,
        "[action 2] 'fail_always' raised: TypeError: always fails",
        "[action 3] 'set_balance' raised: Error: no user u9",
      ],
    });
    expect(await summary(c, true)).toEqual(before);

    // An unknown domain lists what it has (nothing).
    expect(
      await c.call('apply_initialization', {
        domain: 'elsewhere',
        actions: [{ func_name: 'set_balance', arguments: {} }],
      }),
    ).toEqual({
      success: false,
      errors: [
        "[action 0] No initialization function 'set_balance' registered under domain='elsewhere'. Available: [].",
      ],
    });
    expect(await summary(c, true)).toEqual(before);
  });

  it('reports shared_state_init errors with the documented texts', async () => {
    const { c } = await connect();
    expect(await prompt(c, { prompt: 'P' })).toBe(true);
    const invalid = (await initialize(c, { shared_state_init: '{not json' })) as {
      success: boolean;
      errors: string[];
    };
    expect(invalid.success).toBe(false);
    expect(invalid.errors).toHaveLength(1);
    expect(invalid.errors[0]).toMatch(/^Invalid shared_state_init JSON: \S/);
    const cases: [string, string][] = [
      ['[1, 2]', 'list'],
      ['"text"', 'str'],
      ['3', 'int'],
      ['1.5', 'float'],
      ['true', 'bool'],
      ['null', 'NoneType'],
    ];
    for (const [text, type] of cases) {
      expect(await initialize(c, { shared_state_init: text })).toEqual({
        success: false,
        errors: [`shared_state_init must decode to a dict, got ${type}.`],
      });
    }
    expect(await initialize(c, { shared_state_init: '{"db": [1]}' })).toEqual({
      success: false,
      errors: ["shared_state_init 'db' must be a dict, got list."],
    });
    // Wrongly typed arguments come back as a failed result naming the field.
    const asObject = (await initialize(c, { shared_state_init: { db_path: 'x' } })) as {
      success: boolean;
      errors: string[];
    };
    expect(asObject.success).toBe(false);
    expect(asObject.errors[0]).toMatch(/shared_state_init/);
    const notList = (await initialize(c, { actions: 'set_balance' })) as {
      success: boolean;
      errors: string[];
    };
    expect(notList.success).toBe(false);
    expect(notList.errors[0]).toMatch(/actions/);
    expect(await summary(c)).toEqual({ actions: [], db_hash: null });
  });

  it('refuses actions without a db, accepts no actions without a db', async () => {
    const { c } = await connect();
    expect(await prompt(c, { prompt: 'P' })).toBe(true);
    const result = (await initialize(c, {
      actions: [{ func_name: 'set_balance', arguments: { user_id: 'u1', balance: 1 } }],
    })) as { success: boolean; errors: string[] };
    expect(result.success).toBe(false);
    expect(result.errors).toEqual([expect.stringMatching(/no db is available/)]);
    expect(await initialize(c, { shared_state_init: '{"k": 1}' })).toEqual({
      success: true,
      errors: [],
    });
    expect(await summary(c)).toEqual({ actions: [], db_hash: null });
  });

  it('loads an inline db, skips a different db_path once a db is loaded (with a warning), replaces it by another inline db', async () => {
    const { c } = await connect();
    expect(await prompt(c, { prompt: 'P' })).toBe(true);
    expect(
      await initialize(c, { shared_state_init: JSON.stringify({ db: { k: [1, 2.5, null] } }) }),
    ).toEqual({ success: true, errors: [] });
    expect(await summary(c, true)).toEqual({
      actions: [],
      db_hash: getDictHash({ k: [1, 2.5, null] }),
      db: { k: [1, 2.5, null] },
    });
    // As the reference documents, the db_path is skipped once a db is present; we say so.
    const again = (await initialize(c, {
      shared_state_init: '{"db_path": "test/db.json"}',
    })) as { success: boolean; errors: string[]; warnings?: string[] };
    expect(again.success).toBe(true);
    expect(again.errors).toEqual([]);
    expect(again.warnings).toEqual([
      expect.stringMatching(
        /^db_path 'test\/db.json' was skipped: a db is already loaded \(from inline\).*update_system_prompt/,
      ),
    ]);
    expect((await summary(c)).db_hash).toBe(getDictHash({ k: [1, 2.5, null] }));
    // A second inline db replaces the first (the reference merges it into shared_state).
    expect(
      await initialize(c, {
        shared_state_init: JSON.stringify({ db: structuredClone(TEST_DB) }),
        actions: [{ func_name: 'set_balance', arguments: { user_id: 'u2', balance: 3 } }],
      }),
    ).toEqual({ success: true, errors: [] });
    const expected = testDbWith({ u2: 3 });
    expect(await summary(c, true)).toEqual({
      actions: [],
      db_hash: getDictHash(expected),
      db: expected,
    });
  });
});

describe('apply_sync_delta', () => {
  it('refuses to run without a db', async () => {
    const { c } = await connect();
    expect(await prompt(c, { prompt: 'P' })).toBe(true);
    expect(await c.call('apply_sync_delta', { delta: { 'a.b': 1 } })).toEqual({
      success: false,
      errors: ["No shared_state['db'] available to apply the delta to."],
    });
    const bad = (await c.call('apply_sync_delta', { delta: ['a.b'] })) as {
      success: boolean;
      errors: string[];
    };
    expect(bad.success).toBe(false);
    expect(bad.errors[0]).toMatch(/delta/);
  });

  it('applies [id] selectors with the default applier and reports every bad path', async () => {
    const { c } = await connect();
    expect(await prompt(c, { prompt: 'P' })).toBe(true);
    const db = {
      users: [
        { user_id: 'u1', balance: 10 },
        { user_id: 'u2', balance: 0 },
      ],
      bills: [{ bill_id: 'B1002', status: 'Due' }],
      lines: [{ id: 'L1', plan: { name: 'basic' } }],
      orders: [{ order_ref_id: '#W1', status: 'pending' }],
      settings: { currency: 'EUR' },
    };
    expect(await initialize(c, { shared_state_init: JSON.stringify({ db }) })).toEqual({
      success: true,
      errors: [],
    });
    expect(
      await c.call('apply_sync_delta', {
        domain: 'test',
        delta: {
          'users[u2].balance': 42,
          'bills[B1002].status': 'Paid',
          'lines[L1].plan.name': 'premium',
          'orders[#W1].status': 'shipped',
          'settings.currency': 'USD',
          'settings.new_key': { nested: true },
        },
      }),
    ).toEqual({ success: true, errors: [] });
    const expected = structuredClone(db) as typeof db & { settings: Record<string, unknown> };
    (expected.users[1] as { balance: number }).balance = 42;
    (expected.bills[0] as { status: string }).status = 'Paid';
    (expected.lines[0] as { plan: { name: string } }).plan.name = 'premium';
    (expected.orders[0] as { status: string }).status = 'shipped';
    expected.settings['currency'] = 'USD';
    expected.settings['new_key'] = { nested: true };
    expect(await summary(c, true)).toEqual({
      actions: [],
      db_hash: getDictHash(expected),
      db: expected,
    });

    const result = await c.call('apply_sync_delta', {
      delta: {
        'users[u9].balance': 1,
        'missing.key': 1,
        'users.balance': 1,
        'settings[x].y': 1,
        'users[u1]': 1,
        'a..b': 1,
        'settings.currency': 'GBP',
      },
    });
    expect(result).toEqual({
      success: false,
      errors: [
        "'users[u9].balance': no element of 'users' with id 'u9'",
        "'missing.key': no key 'missing'",
        "'users.balance': cannot descend into a non-object",
        "'settings[x].y': 'settings' is not a list",
        "'users[u1]': a path cannot end on a list selector",
        "malformed path segment '' in 'a..b'",
      ],
    });
    // The good path of a partly bad delta still applies (failures are informational).
    expected.settings['currency'] = 'GBP';
    expect((await summary(c, true)).db).toEqual(expected);
  });
});

describe('get_context_history', () => {
  /** The last message: plain values, and one media key (`b64_json`). */
  const CLOSING = {
    role: 'assistant',
    content: 'café ☕ 15.1 \\ done',
    meta: {
      ok: true,
      no: false,
      missing: null,
      ratio: 1e-5,
      price: 15.1,
      n: 3,
      b64_json: 'AAAA',
      data: 'plain',
    },
  };
  const MESSAGES = [
    { role: 'system', content: 'You\'re "helpful"\nBe brief.' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'data: the numbers are 1, 2' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
        { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
        { type: 'file', file: { file_data: 'JVBERi0=', filename: 'a.pdf' } },
      ],
    },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'c1',
          type: 'function',
          function: { name: 'get_user', arguments: '{"user_id": "u1"}' },
        },
      ],
    },
    { role: 'tool', tool_call_id: 'c1', content: 'data:text/plain,hello' },
    CLOSING,
  ];
  const SANITIZED = [
    MESSAGES[0],
    {
      role: 'user',
      content: [
        { type: 'text', text: 'data: the numbers are 1, 2' },
        { type: 'image_url', image_url: { url: '<image>' } },
        { type: 'input_audio', input_audio: { data: '<audio>', format: 'wav' } },
        { type: 'file', file: { file_data: '<file>', filename: 'a.pdf' } },
      ],
    },
    MESSAGES[2],
    { role: 'tool', tool_call_id: 'c1', content: '<binary>' },
    { ...CLOSING, meta: { ...CLOSING.meta, b64_json: '<file>' } },
  ];
  // CPython 3's str() of json.loads(JSON.stringify(SANITIZED)).
  const PYTHON =
    `[{'role': 'system', 'content': 'You\\'re "helpful"\\nBe brief.'}, ` +
    `{'role': 'user', 'content': [{'type': 'text', 'text': 'data: the numbers are 1, 2'}, ` +
    `{'type': 'image_url', 'image_url': {'url': '<image>'}}, ` +
    `{'type': 'input_audio', 'input_audio': {'data': '<audio>', 'format': 'wav'}}, ` +
    `{'type': 'file', 'file': {'file_data': '<file>', 'filename': 'a.pdf'}}]}, ` +
    `{'role': 'assistant', 'content': None, 'tool_calls': [{'id': 'c1', 'type': 'function', ` +
    `'function': {'name': 'get_user', 'arguments': '{"user_id": "u1"}'}}]}, ` +
    `{'role': 'tool', 'tool_call_id': 'c1', 'content': '<binary>'}, ` +
    `{'role': 'assistant', 'content': 'café ☕ 15.1 \\\\ done', 'meta': {'ok': True, 'no': False, ` +
    `'missing': None, 'ratio': 1e-05, 'price': 15.1, 'n': 3, 'b64_json': '<file>', 'data': 'plain'}}]`;

  it('sanitizeContextForTransport replaces media payloads and data URLs, nothing else', () => {
    const input = structuredClone(MESSAGES);
    expect(sanitizeContextForTransport(input)).toEqual(SANITIZED);
    expect(input).toEqual(MESSAGES); // a copy; the input is untouched
    expect(
      sanitizeContextForTransport({
        audio: new Uint8Array([1, 2]),
        blob: new Uint8Array(1),
        image: { data: 'AAAA', note: 'data: text' },
        file_data: null,
      }),
    ).toEqual({
      audio: '<audio>',
      blob: '<binary>',
      image: { data: '<image>', note: 'data: text' },
      file_data: null,
    });
  });

  it('pythonRepr renders values the way Python str() does', () => {
    expect(pythonRepr(SANITIZED)).toBe(PYTHON);
    const strings: [string, string][] = [
      ["it's", `"it's"`],
      ['say "hi"', `'say "hi"'`],
      [`both ' and "`, `'both \\' and "'`],
      ['a\nb\tc\\d\r', `'a\\nb\\tc\\\\d\\r'`],
      ['café ☕ 日本 😀', `'café ☕ 日本 😀'`],
      ['\x00\x1f\x7f', `'\\x00\\x1f\\x7f'`],
      ['\u00a0\u00ad', `'\\xa0\\xad'`],
      ['\u2028', `'\\u2028'`],
      ['', `''`],
    ];
    for (const [value, repr] of strings) expect(pythonRepr(value), repr).toBe(repr);
    expect(pythonRepr([true, false, null, undefined])).toBe('[True, False, None, None]');
    expect(pythonRepr([15.1, 1e-5, 0.1, -0, 1e-7, 123456.789, 2.5e-10, 3, -4])).toBe(
      '[15.1, 1e-05, 0.1, -0.0, 1e-07, 123456.789, 2.5e-10, 3, -4]',
    );
    expect(pythonRepr({ a: { 'b c': [] }, d: {} })).toBe("{'a': {'b c': []}, 'd': {}}");
  });

  it('answers with the sanitized context as Python str() or as JSON', async () => {
    const { c } = await connect();
    expect(await prompt(c, { prompt: MESSAGES[0]?.content as string })).toBe(true);
    for (const message of MESSAGES.slice(1)) {
      sendUserTurn(c, `json:${JSON.stringify(message)}`);
    }
    expect(await c.call('get_context_history', {})).toEqual({ context: PYTHON });
    expect(await c.call('get_context_history', { format: 'python' })).toEqual({ context: PYTHON });
    expect(await c.call('get_context_history', { format: 'json' })).toEqual({
      context: JSON.stringify(SANITIZED),
    });
    expect(errorOf(await c.request('get_context_history', { format: 'xml' }))).toMatch(
      /^ValueError: get_context_history: format/,
    );
  });
});

describe('get_scenario_summary', () => {
  it('answers {actions: [], db_hash: null} without a db (db: null with include_db)', async () => {
    const { c } = await connect();
    expect(await c.call('get_scenario_summary')).toEqual({ actions: [], db_hash: null });
    expect(await summary(c, true)).toEqual({ actions: [], db_hash: null, db: null });
  });

  it('turns an include_db reply over the outgoing cap into an error-response naming db_hash', async () => {
    const { c } = await connect();
    expect(await prompt(c, { prompt: 'P' })).toBe(true);
    expect(await initialize(c, { shared_state_init: '{"db_path": "test/big.json"}' })).toEqual({
      success: true,
      errors: [],
    });
    const id = nextRequestId('big');
    const reply = await c.request('get_scenario_summary', { include_db: true }, { id });
    expect(reply.id).toBe(id);
    const error = errorOf(reply);
    expect(error).toContain('db_hash');
    expect(error).toContain(`over the ${OUTGOING_CAP}-byte message limit`);
    expect(c.isOpen).toBe(true);
    expect(await summary(c)).toEqual({ actions: [], db_hash: getDictHash(BIG_DB) });
  });
});

describe('concurrency on one socket', () => {
  it('answers a fast request while a slow one is still running', async () => {
    const { c } = await connect();
    const slowId = nextRequestId('slow');
    const slowReply = c.request('slow', { n: 1 }, { id: slowId });
    await pollUntil(() => slowStarted === 1, 'the slow handler to start');
    const fast = await c.request('get_scenario_summary', {});
    expect(fast.type).toBe('server-response');
    expect(c.messages.some((m) => m.id === slowId)).toBe(false);
    slowGate.resolve();
    expect(await slowReply).toEqual({
      label: 'rtvi-ai',
      type: 'server-response',
      id: slowId,
      data: { t: 'slow', d: { slow: true, d: { n: 1 } } },
    });
    const order = c.messages.map((m) => m.id);
    expect(order.indexOf(fast.id)).toBeLessThan(order.indexOf(slowId));
  });

  it('matches each of many interleaved replies to its request by id', async () => {
    const { c } = await connect();
    const names = ['get_scenario_summary', 'get_context_history', 'reset', 'nope'];
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, i) => {
        const t = names[i % names.length] as string;
        return c.request(t, {}).then((reply) => ({ t, reply }));
      }),
    );
    for (const { t, reply } of replies) {
      if (t === 'nope') expect(errorOf(reply)).toBe('unknown message type: nope');
      else expect((reply.data as { t: string }).t).toBe(t);
    }
  });
});

describe('handshake', () => {
  async function handshake(c: RtviClient, data: unknown): Promise<RTVIMessage[]> {
    const id = nextRequestId('ready');
    const replies = await c.repliesTo(() =>
      c.send({ label: 'rtvi-ai', type: 'client-ready', id, data }),
    );
    for (const reply of replies) expect(reply.id).toBe(id);
    return replies;
  }
  const about = { library: 'test', library_version: '0' };

  it('echoes a 1.x client version back and accepts 2.x', async () => {
    const c = await RtviClient.connect(server.url);
    openClients.push(c);
    for (const version of ['1.1.0', '1.0.0', '1.99.3']) {
      const [ready, ...rest] = await handshake(c, { version, about });
      expect(rest).toEqual([]);
      expect(ready).toMatchObject({
        type: 'bot-ready',
        data: { version, about: { library: '@scenaro/agent' } },
      });
    }
    const [ready, ...rest] = await handshake(c, { version: '2.0.7', about });
    expect(rest).toEqual([]);
    expect(ready).toMatchObject({ type: 'bot-ready', data: { version: '2.1.0' } });
  });

  it('answers an incompatible or missing version with an error-response, then bot-ready anyway', async () => {
    const c = await RtviClient.connect(server.url);
    openClients.push(c);
    const cases: [unknown, string][] = [
      [
        { version: '3.0.0', about },
        'RTVI version 3.0.0 is not compatible with server protocol 2.1.0. Compatibility issues may occur.',
      ],
      [
        { version: '2.1', about },
        'RTVI version 2.1 is not compatible with server protocol 2.1.0. Compatibility issues may occur.',
      ],
      [
        { about },
        'Client version unknown. Server protocol is 2.1.0. Compatibility issues may occur.',
      ],
    ];
    for (const [data, error] of cases) {
      const replies = await handshake(c, data);
      expect(replies.map((r) => r.type)).toEqual(['error-response', 'bot-ready']);
      expect(replies[0]?.data).toEqual({ error });
      expect(replies[1]?.data).toMatchObject({ version: '2.1.0' });
    }
  });

  it('uses the builder as the real client does', async () => {
    const c = await RtviClient.connect(server.url);
    openClients.push(c);
    const id = nextRequestId('ready');
    c.send(clientReady(id, { library: '@pipecat-ai/client-js', library_version: '1.13.1' }));
    const ready = await c.waitFor((m) => m.type === 'bot-ready', 'bot-ready');
    expect(ready.id).toBe(id);
  });
});

describe('server options', () => {
  it('requires the token (?token= or Authorization: Bearer) when one is set; else HTTP 401', async () => {
    const s = await startServer({ token: 's3cret' });
    expect(await upgradeStatus(s.url)).toBe(401);
    expect(await upgradeStatus(`${s.url}/?token=wrong`)).toBe(401);
    expect(await upgradeStatus(`${s.url}/?token=`)).toBe(401);
    expect(await upgradeStatus(s.url, { Authorization: 'Bearer wrong' })).toBe(401);
    expect(await upgradeStatus(s.url, { Authorization: 'Basic s3cret' })).toBe(401);
    expect(s.sessionCount).toBe(0);
    for (const [url, headers] of [
      [`${s.url}/?token=s3cret`, {}],
      [s.url, { Authorization: 'Bearer s3cret' }],
      [s.url, { Authorization: 'bearer   s3cret' }],
    ] as [string, Record<string, string>][]) {
      const c = await RtviClient.ready(url, { headers });
      openClients.push(c);
      expect(await c.call('reset', {})).toBe(true);
    }
  });

  it('closes connections over maxSessions with 1013 and accepts again once one leaves', async () => {
    const s = await startServer({ maxSessions: 2 });
    const c1 = await RtviClient.ready(s.url);
    const c2 = await RtviClient.ready(s.url);
    openClients.push(c1, c2);
    const c3 = await RtviClient.connect(s.url);
    openClients.push(c3);
    expect(await c3.waitForClose()).toEqual({
      code: 1013,
      reason: 'Server is at its session limit; try again later',
    });
    await c1.close();
    await pollUntil(() => s.sessionCount === 1, 'the first session to end');
    const c4 = await RtviClient.ready(s.url);
    openClients.push(c4);
    expect(await c4.call('get_scenario_summary', {})).toEqual({ actions: [], db_hash: null });
    expect(await c2.call('get_scenario_summary', {})).toEqual({ actions: [], db_hash: null });
  });

  it('with singleClient lets a second client take the session over, closing the first', async () => {
    const s = await startServer({ singleClient: true });
    const c1 = await RtviClient.ready(s.url);
    openClients.push(c1);
    expect(await prompt(c1, { prompt: 'P' })).toBe(true);
    const c2 = await RtviClient.ready(s.url);
    openClients.push(c2);
    expect(await c1.waitForClose()).toEqual({
      code: 1000,
      reason: 'Session taken over by a new connection',
    });
    expect(await contextJson(c2)).toEqual([{ role: 'system', content: 'P' }]);
    expect(await c2.call('reset', {})).toBe(true);
  });

  it('in the production profile answers reset only', async () => {
    const s = await startServer({ profile: 'production' });
    const c = await RtviClient.ready(s.url);
    openClients.push(c);
    expect(await c.call('reset', {})).toBe(true);
    for (const t of [
      'update_system_prompt',
      'get_context_history',
      'get_scenario_summary',
      'apply_initialization',
      'apply_sync_delta',
    ]) {
      expect(errorOf(await c.request(t, {}))).toBe(`unknown message type: ${t}`);
    }
  });

  it('serves POST /connect and GET /healthz', async () => {
    const { c } = await connect();
    expect(await httpJson(`${server.url}/connect`, 'POST')).toEqual({
      status: 200,
      body: { ws_url: server.url },
    });
    expect(await httpJson(`${server.url}/healthz`, 'GET')).toEqual({
      status: 200,
      body: { status: 'ok', sessions: server.sessionCount },
    });
    expect(server.sessionCount).toBeGreaterThanOrEqual(1);
    expect((await httpJson(`${server.url}/connect`, 'GET')).status).toBe(404);
    expect((await httpJson(`${server.url}/nope`, 'POST')).status).toBe(404);
    const s = await startServer({ publicHost: 'bots.example.test' });
    expect((await httpJson(`${s.url}/connect`, 'POST')).body).toEqual({
      ws_url: `ws://bots.example.test:${s.address.port}`,
    });
    expect(c.isOpen).toBe(true);
  });

  it('shuts down gracefully: an in-flight request is answered, then the socket closes with 1001', async () => {
    const s = await startServer({ shutdownGraceMs: 5000 });
    s.registerClientMessage('slow', slowHandler);
    const url = s.url;
    const c = await RtviClient.ready(url);
    openClients.push(c);
    const id = nextRequestId('slow');
    let answeredBeforeClose = false;
    c.ws.once('close', () => {
      answeredBeforeClose = c.messages.some((m) => m.id === id && m.type === 'server-response');
    });
    c.send({ label: 'rtvi-ai', type: 'client-message', id, data: { t: 'slow', d: { n: 2 } } });
    await pollUntil(() => slowStarted === 1, 'the slow handler to start');
    let closed = false;
    const closing = s.close().then(() => (closed = true));
    // While the request runs, the server waits (no close yet) and refuses new connections.
    await expect(upgradeStatus(url)).rejects.toThrow();
    expect(closed).toBe(false);
    expect(c.isOpen).toBe(true);
    slowGate.resolve();
    expect(await c.waitForClose()).toEqual({ code: 1001, reason: 'server shutting down' });
    expect(answeredBeforeClose).toBe(true);
    expect(c.messages.find((m) => m.id === id)?.data).toEqual({
      t: 'slow',
      d: { slow: true, d: { n: 2 } },
    });
    await closing;
    expect(s.sessionCount).toBe(0);
  });
});
