// Control messages sent without waiting for their answers (as NeMo's bridge sends `reset`,
// `update_system_prompt` and `apply_sync_delta`) take effect one at a time, in arrival order,
// each all or nothing: exactly as if the client had waited for every answer.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clientMessage } from '@scenaro/sdk/protocol';
import type { RTVIMessage } from '@scenaro/sdk/protocol';
import { BotServer, silentLogger } from '../src/index.js';
import { getDictHash } from '../src/scenario/index.js';
import type { ConversationHost } from '../src/index.js';
import { TEST_DB, makeDataRoot, testRegistry } from './fixtures.js';
import { RtviClient, nextRequestId } from '../src/testing/index.js';

const OTHER_DB = { users: [{ user_id: 'u9', name: 'Eve', balance: 99 }] };

let data: { root: string; cleanup: () => void };
let server: BotServer;
const clients: RtviClient[] = [];

beforeAll(async () => {
  data = makeDataRoot({ other: OTHER_DB });
  server = await new BotServer({
    port: 0,
    registry: testRegistry(),
    dataRoot: data.root,
    logger: silentLogger,
    conversation: (host: ConversationHost) => ({
      onUserText(content: string) {
        host.context.append({ role: 'user', content });
      },
    }),
  }).listen();
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

afterAll(async () => {
  await server?.close();
  data?.cleanup();
});

async function client(): Promise<RtviClient> {
  const c = await RtviClient.ready(server.url);
  clients.push(c);
  return c;
}

/** Send every `[t, d]` at once, then wait for all the answers; returns the replies' `d` in order. */
async function burst(c: RtviClient, requests: [string, unknown][]): Promise<unknown[]> {
  const ids = requests.map(([t]) => nextRequestId(t));
  requests.forEach(([t, d], i) => c.send(clientMessage(ids[i] as string, t, d)));
  const replies: RTVIMessage[] = [];
  for (const id of ids) {
    replies.push(
      await c.waitFor(
        (m) => m.id === id && (m.type === 'server-response' || m.type === 'error-response'),
        `the reply to ${id}`,
      ),
    );
  }
  return replies.map((r) => {
    expect(r.type).toBe('server-response');
    return (r.data as { d: unknown }).d;
  });
}

const prompt = (p: string): [string, unknown] => [
  'update_system_prompt',
  { prompt: p, tools: '{"get_user": {}}', add_suffix: false, tool_domain: 'test' },
];
const init = (sharedStateInit: object, actions: unknown[] = []): [string, unknown] => [
  'apply_initialization',
  { domain: 'test', shared_state_init: JSON.stringify(sharedStateInit), actions },
];
const setBalance = (user: string, balance: number) => ({
  func_name: 'set_balance',
  arguments: { user_id: user, balance },
});

function dbWith(balances: Record<string, number>): typeof TEST_DB {
  const db = structuredClone(TEST_DB);
  for (const user of db.users) {
    const balance = balances[user.user_id];
    if (balance !== undefined) user.balance = balance;
  }
  return db;
}

describe('state-changing control messages sent without waiting', () => {
  it('applies two apply_initialization in order; neither change is lost', async () => {
    const c = await client();
    const replies = await burst(c, [
      prompt('P'),
      init({ db_path: 'test/db.json' }, [setBalance('u1', 5)]),
      init({ db_path: 'test/db.json' }, [setBalance('u2', 7)]),
      ['get_scenario_summary', {}],
    ]);
    expect(replies.slice(0, 3)).toEqual([
      true,
      { success: true, errors: [] },
      { success: true, errors: [] },
    ]);
    expect((replies[3] as { db_hash: string }).db_hash).toBe(getDictHash(dbWith({ u1: 5, u2: 7 })));
  });

  it('skips the second of two different db_paths (with a warning), as it would sequentially', async () => {
    const c = await client();
    const replies = await burst(c, [
      prompt('P'),
      init({ db_path: 'test/db.json' }),
      init({ db_path: 'test/other.json' }),
      ['get_scenario_summary', {}],
    ]);
    expect(replies[1]).toEqual({ success: true, errors: [] });
    const second = replies[2] as { success: boolean; errors: string[]; warnings?: string[] };
    expect(second.success).toBe(true);
    expect(second.errors).toEqual([]);
    expect(second.warnings?.[0]).toContain('a db is already loaded (from test/db.json)');
    expect((replies[3] as { db_hash: string }).db_hash).toBe(getDictHash(TEST_DB));
  });

  it('keeps an apply_initialization sent just before update_system_prompt out of the new scenario', async () => {
    const c = await client();
    const replies = await burst(c, [
      prompt('old'),
      init({ db_path: 'test/db.json' }, [setBalance('u1', 3)]),
      prompt('new'),
      ['get_scenario_summary', {}],
    ]);
    expect(replies[1]).toEqual({ success: true, errors: [] });
    expect(replies[3]).toEqual({ actions: [], db_hash: null });
    // Once every answer is in, the new scenario still has no db.
    expect(await c.call('get_scenario_summary', {})).toEqual({ actions: [], db_hash: null });
  });

  it('runs reset, update_system_prompt, apply_sync_delta and send-text in arrival order', async () => {
    const c = await client();
    await burst(c, [prompt('first'), init({ db_path: 'test/db.json' })]);
    const textId = nextRequestId('text');
    const ids = ['reset', 'update_system_prompt', 'apply_initialization', 'apply_sync_delta'].map(
      (t) => nextRequestId(t),
    );
    c.send(clientMessage(ids[0] as string, 'reset', {}));
    c.send(clientMessage(ids[1] as string, ...prompt('second')));
    c.send(clientMessage(ids[2] as string, ...init({ db_path: 'test/other.json' }, [])));
    c.send(
      clientMessage(ids[3] as string, 'apply_sync_delta', {
        domain: 'test',
        delta: { 'users[u9].balance': 1 },
      }),
    );
    c.send({
      label: 'rtvi-ai',
      type: 'send-text',
      id: textId,
      data: { content: 'after the delta', options: { run_immediately: false } },
    });
    const [summary, history] = await burst(c, [
      ['get_scenario_summary', {}],
      ['get_context_history', { format: 'json' }],
    ]);
    for (const id of ids) {
      const reply = c.messages.find((m) => m.id === id);
      expect(reply?.type, id).toBe('server-response');
    }
    expect((c.messages.find((m) => m.id === ids[3])?.data as { d: unknown }).d).toEqual({
      success: true,
      errors: [],
    });
    expect((summary as { db_hash: string }).db_hash).toBe(
      getDictHash({ users: [{ user_id: 'u9', name: 'Eve', balance: 1 }] }),
    );
    expect(JSON.parse((history as { context: string }).context)).toEqual([
      { role: 'system', content: 'second' },
      { role: 'user', content: 'after the delta' },
    ]);
  });
});
