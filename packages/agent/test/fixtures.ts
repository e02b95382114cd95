/**
 * A small test domain, a data root and a bot server for server tests.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BotServer, silentLogger } from '../src/index.js';
import { DomainRegistry, ToolError, getDictHash } from '../src/scenario/index.js';
import type { BotServerOptions } from '../src/index.js';
import type { Db, DomainModule, JsonObject, ToolParametersSchema } from '../src/scenario/index.js';
import { ScenaroSession } from '@scenaro/sdk';
import type { ScenaroSessionOptions } from '@scenaro/sdk';
import { createRtviTransport } from '@scenaro/sdk/rtvi';
import { expect } from 'vitest';
import { RtviClient, connectPipecatClient } from '../src/testing/index.js';
import type { ConnectedClient } from '../src/testing/index.js';

export const TEST_DB = {
  users: [
    { user_id: 'u1', name: 'Ada', balance: 10 },
    { user_id: 'u2', name: 'Bob', balance: 0 },
  ],
  settings: { currency: 'EUR' },
};

/** `update_system_prompt` arguments: the prompt and the named tools as they are, no suffix. */
export function systemPromptArgs(prompt: string, tools: string[], toolDomain: string): JsonObject {
  return {
    prompt,
    tools: JSON.stringify(Object.fromEntries(tools.map((name) => [name, {}]))),
    add_suffix: false,
    tool_domain: toolDomain,
  };
}

/**
 * The bridge's setup of a test scenario on `client`: `prompt` with the test domain's `get_user`,
 * then the test db with u1's `balance`, both of which must succeed. Returns the db's hash.
 */
export async function setUpBalanceScenario(
  client: RtviClient,
  prompt: string,
  balance: number,
): Promise<string> {
  expect(
    await client.call('update_system_prompt', systemPromptArgs(prompt, ['get_user'], 'test')),
  ).toBe(true);
  expect(
    await client.call('apply_initialization', {
      domain: 'test',
      shared_state_init: '{"db_path": "test/db.json"}',
      actions: [{ func_name: 'set_balance', arguments: { user_id: 'u1', balance } }],
    }),
  ).toEqual({ success: true, errors: [] });
  return getDictHash(testDbWith({ u1: balance }));
}

/** The `action-applied` server message of an `add_credit` call of the test domain. */
export function addCreditApplied(userId: string, amount: number, balance: number): JsonObject {
  return {
    type: 'action-applied',
    action: {
      action_type: 'add_credit',
      name: 'add_credit',
      arguments: { user_id: userId, amount },
      result: { balance },
    },
    tool_domain: 'test',
  };
}

/** A scripted plan (`scripted_plan`) of agent-side actions, given as `[tool, arguments]`. */
export function agentPlan(...actions: [string, JsonObject][]): {
  actions: { name: string; arguments: JsonObject; side: 'agent' }[];
} {
  return { actions: actions.map(([name, args]) => ({ name, arguments: args, side: 'agent' })) };
}

/** A fresh copy of {@link TEST_DB} with these users' balances. */
export function testDbWith(balances: Record<string, number>): typeof TEST_DB {
  const db = structuredClone(TEST_DB);
  for (const user of db.users) {
    const balance = balances[user.user_id];
    if (balance !== undefined) user.balance = balance;
  }
  return db;
}

/** Tool parameters: one required string. */
export function requiredString(name: string): ToolParametersSchema {
  return { type: 'object', properties: { [name]: { type: 'string' } }, required: [name] };
}

function users(db: Db): JsonObject[] {
  return db['users'] as JsonObject[];
}

export const testDomain: DomainModule = {
  name: 'test',
  tools: [
    {
      name: 'get_user',
      aliases: ['GetUserTool'],
      description: 'Look up a user.',
      kind: 'read',
      parameters: requiredString('user_id'),
      execute(args, { state }) {
        const user = users(state.db ?? {}).find((u) => u['user_id'] === args['user_id']);
        if (!user) throw new ToolError(`User ${String(args['user_id'])} not found`);
        return user;
      },
    },
    {
      name: 'add_credit',
      description: 'Add credit to a user.',
      kind: 'write',
      parameters: {
        type: 'object',
        properties: { user_id: { type: 'string' }, amount: { type: 'number', default: 1 } },
        required: ['user_id'],
      },
      execute(args, { state }) {
        const user = users(state.db ?? {}).find((u) => u['user_id'] === args['user_id']);
        if (!user) throw new ToolError(`User ${String(args['user_id'])} not found`);
        user['balance'] = (user['balance'] as number) + (args['amount'] as number);
        return { balance: user['balance'] };
      },
    },
    {
      name: 'end_conversation',
      description: 'End the conversation.',
      kind: 'control',
      exitReason: 'The task is finished.',
      parameters: { type: 'object', properties: {} },
      execute() {
        return 'ok';
      },
    },
  ],
  initializationFunctions: {
    set_balance(db, args) {
      const user = users(db).find((u) => u['user_id'] === args['user_id']);
      if (!user) throw new Error(`no user ${String(args['user_id'])}`);
      user['balance'] = args['balance'];
    },
    fail_always() {
      throw new TypeError('always fails');
    },
  },
  predicates: {
    balance_of(db, args) {
      return users(db).find((u) => u['user_id'] === args['user_id'])?.['balance'];
    },
  },
};

export function testRegistry(): DomainRegistry {
  return new DomainRegistry().register(testDomain);
}

/** A temporary data root holding `test/db.json` (and a big db on request). */
export function makeDataRoot(extra: Record<string, unknown> = {}): {
  root: string;
  cleanup: () => void;
} {
  const root = mkdtempSync(join(tmpdir(), 'scenaro-data-'));
  mkdirSync(join(root, 'test'));
  writeFileSync(join(root, 'test', 'db.json'), JSON.stringify(TEST_DB));
  for (const [name, value] of Object.entries(extra)) {
    writeFileSync(join(root, 'test', `${name}.json`), JSON.stringify(value));
  }
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** A bot server on a free port: silent logs and the test registry unless `options` say otherwise. */
export function listenTestServer(options: BotServerOptions = {}): Promise<BotServer> {
  return new BotServer({
    port: 0,
    registry: testRegistry(),
    logger: silentLogger,
    ...options,
  }).listen();
}

/** A bot server on a free port with the test domain, over its own temporary data root. */
export interface TestServer {
  server: BotServer;
  dataRoot: string;
  /** Close the server, then remove the data root. */
  close(): Promise<void>;
}

/** Start a {@link TestServer} (see {@link listenTestServer}); `extraData` adds dbs to its data root. */
export async function startTestServer(
  options: BotServerOptions = {},
  extraData: Record<string, unknown> = {},
): Promise<TestServer> {
  const data = makeDataRoot(extraData);
  try {
    const server = await listenTestServer({ dataRoot: data.root, ...options });
    return {
      server,
      dataRoot: data.root,
      async close() {
        await server.close();
        data.cleanup();
      },
    };
  } catch (err) {
    data.cleanup();
    throw err;
  }
}

/** A {@link TestServer} with a real Pipecat client connected; `close()` disconnects it first. */
export async function startWithPipecatClient(
  options: BotServerOptions = {},
): Promise<TestServer & { bot: ConnectedClient }> {
  const test = await startTestServer(options);
  let bot: ConnectedClient;
  try {
    bot = await connectPipecatClient(test.server.url);
  } catch (err) {
    await test.close();
    throw err;
  }
  return {
    ...test,
    bot,
    async close() {
      await bot.disconnect();
      await test.close();
    },
  };
}

/**
 * Connect an RTVI client to `url` and shake hands; `use` runs with it, and it is closed after,
 * whatever happens.
 */
export async function withRtviClient<T>(
  url: string,
  use: (client: RtviClient) => Promise<T>,
): Promise<T> {
  const client = await RtviClient.connect(url);
  try {
    await client.handshake();
    return await use(client);
  } finally {
    await client.close();
  }
}

/** The browser of a frontend-tool test: a real Pipecat client and a session over its transport. */
export interface TestBrowser {
  bot: ConnectedClient;
  session: ScenaroSession;
}

/**
 * Connect a real Pipecat client to `url` and start a ScenaroSession with `options` over its RTVI
 * transport (`prepare` sees the session before it starts); then bind `tools` of `toolDomain`
 * with `prompt`, which must succeed.
 */
export async function openBrowser(
  url: string,
  options: Omit<ScenaroSessionOptions, 'transport'>,
  bind: { prompt: string; tools: string[]; toolDomain: string },
  prepare?: (session: ScenaroSession) => void,
): Promise<TestBrowser> {
  const bot = await connectPipecatClient(url);
  const session = new ScenaroSession({ transport: createRtviTransport(bot.client), ...options });
  prepare?.(session);
  session.start();
  expect(
    await bot.client.sendClientRequest(
      'update_system_prompt',
      systemPromptArgs(bind.prompt, bind.tools, bind.toolDomain),
    ),
  ).toBe(true);
  return { bot, session };
}

/** Stop the browser's session and disconnect its client (a failing disconnect is ignored). */
export async function closeBrowser(browser: Partial<TestBrowser>): Promise<void> {
  browser.session?.stop();
  await browser.bot?.disconnect().catch(() => undefined);
}
