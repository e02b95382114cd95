// A session reuses its db hash between changes. These tests check that a reused hash is never
// stale: after every way a db changes (tools of any kind, failing tools, async tools observed
// mid-call, sync deltas, initialization, handlers an application registers, a conversation's
// tool calls) `get_scenario_summary` reports exactly `getDictHash` of the db it also returns.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sendText } from '@scenaro/sdk/protocol';
import {
  ToolError,
  beginDbWrite,
  createScenarioState,
  executeBoundTool,
  executeToolByName,
  getDictHash,
  markDbChanged,
  sessionDbHash,
} from '../src/scenario/index.js';
import type { BotServer, ConversationHost } from '../src/index.js';
import type { BoundTool, Db, JsonObject, ToolDefinition } from '../src/scenario/index.js';
import { TEST_DB, startTestServer, testDomain } from './fixtures.js';
import type { TestServer } from './fixtures.js';
import { RtviClient, nextRequestId, pollUntil } from '../src/testing/index.js';

function stateWith(db: Db | undefined) {
  const state = createScenarioState();
  state.db = db;
  return state;
}

/** A tool without parameters. */
function noArgTool(
  name: string,
  kind: ToolDefinition['kind'],
  description: string,
  execute: ToolDefinition['execute'],
): ToolDefinition {
  return { name, description, kind, parameters: { type: 'object', properties: {} }, execute };
}

function bind(tool: ToolDefinition): BoundTool {
  return { tool, domain: 'test', options: {} };
}

function users(db: Db | undefined): JsonObject[] {
  return (db?.['users'] ?? []) as JsonObject[];
}

describe('sessionDbHash', () => {
  it('is null without a db or with an empty one', () => {
    expect(sessionDbHash(stateWith(undefined))).toBeNull();
    expect(sessionDbHash(stateWith({}))).toBeNull();
  });

  it('reuses the hash until the db is marked changed (the contract for other writers)', () => {
    const state = stateWith(structuredClone(TEST_DB));
    const before = sessionDbHash(state);
    expect(before).toBe(getDictHash(TEST_DB));
    users(state.db)[0]!['balance'] = 99;
    // Changed in place behind the session's back: the old hash is what was promised.
    expect(sessionDbHash(state)).toBe(before);
    markDbChanged(state);
    expect(sessionDbHash(state)).toBe(getDictHash(state.db!));
    expect(sessionDbHash(state)).not.toBe(before);
  });

  it('sees a replaced db by identity', () => {
    const state = stateWith(structuredClone(TEST_DB));
    const before = sessionDbHash(state);
    state.db = { ...structuredClone(TEST_DB), extra: true };
    expect(sessionDbHash(state)).toBe(getDictHash(state.db));
    expect(sessionDbHash(state)).not.toBe(before);
  });

  it('never reuses while a write is in flight, nor a hash taken during it', () => {
    const state = stateWith(structuredClone(TEST_DB));
    sessionDbHash(state);
    const end = beginDbWrite(state);
    users(state.db)[0]!['balance'] = 1;
    expect(sessionDbHash(state)).toBe(getDictHash(state.db!));
    users(state.db)[0]!['balance'] = 2;
    expect(sessionDbHash(state)).toBe(getDictHash(state.db!));
    end();
    end(); // idempotent
    users(state.db)[1]!['balance'] = 3;
    markDbChanged(state);
    expect(sessionDbHash(state)).toBe(getDictHash(state.db!));
  });

  it('is fresh after every tool call: write, read, refused after a partial change, async', async () => {
    const state = stateWith(structuredClone(TEST_DB));
    const addCredit = testDomain.tools!.find((t) => t.name === 'add_credit')!;
    const sneakyRead = noArgTool(
      'sneaky_read',
      'read',
      'A "read" tool that writes anyway.',
      (_args, { state: s }) => {
        users(s.db)[1]!['balance'] = 7;
        return 'ok';
      },
    );
    const halfFailing = noArgTool(
      'half_failing',
      'write',
      'Changes the db, then refuses.',
      (_args, { state: s }) => {
        users(s.db)[0]!['name'] = 'Changed';
        throw new ToolError('refused');
      },
    );
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slowWrite = noArgTool(
      'slow_write',
      'write',
      'Writes across an await.',
      async (_args, { state: s }) => {
        users(s.db)[0]!['balance'] = 500;
        await gate;
        users(s.db)[0]!['balance'] = 501;
        return 'done';
      },
    );

    const check = () => expect(sessionDbHash(state)).toBe(getDictHash(state.db!));
    check();
    expect((await executeBoundTool(state, bind(addCredit), { user_id: 'u1', amount: 5 })).ok).toBe(
      true,
    );
    check();
    await executeBoundTool(state, bind(sneakyRead), {});
    check();
    expect((await executeBoundTool(state, bind(halfFailing), {})).ok).toBe(false);
    check();
    const running = executeBoundTool(state, bind(slowWrite), {});
    check(); // mid-call: balance 500
    release();
    await running;
    check(); // after: balance 501
    expect(users(state.db)[0]!['balance']).toBe(501);
  });
});

describe('db_hash over the control plane', () => {
  let fixture: TestServer;
  let server: BotServer;
  const clients: RtviClient[] = [];
  let turnsDone = 0;

  beforeAll(async () => {
    fixture = await startTestServer({
      conversation: (h: ConversationHost) => {
        return {
          // A conversation that runs a tool for each user turn ("credit u2 3").
          async onUserText(content: string) {
            const [, user, amount] = content.split(' ');
            await executeToolByName(h.state, 'add_credit', {
              user_id: user,
              amount: Number(amount),
            });
            turnsDone += 1;
          },
        };
      },
    });
    server = fixture.server;
    // An application's own handler that changes the db in place.
    server.registerClientMessage('rename_user', (d, session) => {
      const { user_id, name } = d as { user_id: string; name: string };
      const user = users(session.state.db).find((u) => u['user_id'] === user_id);
      if (!user) throw new Error(`no user ${user_id}`);
      user['name'] = name;
      return true;
    });
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });

  afterAll(() => fixture?.close());

  async function ready(): Promise<RtviClient> {
    const c = await RtviClient.ready(server.url);
    clients.push(c);
    expect(
      await c.call('update_system_prompt', {
        prompt: 'You are a test agent.',
        tools: '{"get_user": {}, "add_credit": {}}',
        tool_domain: 'test',
        add_suffix: false,
      }),
    ).toBe(true);
    expect(
      await c.call('apply_initialization', {
        domain: 'test',
        shared_state_init: JSON.stringify({ db: TEST_DB }),
      }),
    ).toMatchObject({ success: true });
    return c;
  }

  /** The summary's hash, checked against the hash of the db it returns. */
  async function consistentHash(c: RtviClient): Promise<string> {
    const quick = await c.call<{ db_hash: string }>('get_scenario_summary', {});
    const full = await c.call<{ db_hash: string; db: Db }>('get_scenario_summary', {
      include_db: true,
    });
    expect(full.db_hash).toBe(quick.db_hash);
    expect(quick.db_hash).toBe(getDictHash(full.db));
    return quick.db_hash;
  }

  it('stays exact through random sequences of changes and summaries', async () => {
    type Op =
      | { kind: 'delta'; user: 0 | 1; balance: number }
      | { kind: 'rename'; user: 0 | 1; name: string }
      | { kind: 'text'; user: 0 | 1; amount: number }
      | { kind: 'init'; balance: number }
      | { kind: 'summary' };
    const user = fc.constantFrom<0 | 1>(0, 1);
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant('delta' as const), user, balance: fc.integer({ max: 1000 }) }),
      fc.record({ kind: fc.constant('rename' as const), user, name: fc.string({ maxLength: 8 }) }),
      fc.record({ kind: fc.constant('text' as const), user, amount: fc.integer({ max: 50 }) }),
      fc.record({ kind: fc.constant('init' as const), balance: fc.integer({ max: 1000 }) }),
      fc.constant({ kind: 'summary' as const }),
    );
    const c = await ready();
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
        let previous = await consistentHash(c);
        for (const o of ops) {
          const id = 'user' in o ? `u${o.user + 1}` : 'u1';
          if (o.kind === 'delta') {
            const applied = await c.call<{ success: boolean }>('apply_sync_delta', {
              domain: 'test',
              delta: { [`users[${id}].balance`]: o.balance },
            });
            expect(applied.success).toBe(true);
          } else if (o.kind === 'rename') {
            await c.call('rename_user', { user_id: id, name: o.name });
          } else if (o.kind === 'text') {
            const target = turnsDone + 1;
            c.send(sendText(nextRequestId(), `credit ${id} ${o.amount}`));
            await pollUntil(() => turnsDone === target, 'the conversation turn to run its tool');
          } else if (o.kind === 'init') {
            const db = structuredClone(TEST_DB);
            db.users[0]!.balance = o.balance;
            await c.call('apply_initialization', {
              domain: 'test',
              shared_state_init: JSON.stringify({ db }),
            });
          }
          const now = await consistentHash(c);
          if (o.kind === 'summary') expect(now).toBe(previous);
          previous = now;
        }
      }),
      { numRuns: 25 },
    );
  });
});
