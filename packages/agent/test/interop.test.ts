// The bot server against the real @pipecat-ai/client-js + websocket-transport in Node.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeToolByName, getDictHash } from '../src/scenario/index.js';
import type { ConversationHost } from '../src/index.js';
import { pollUntil } from '../src/testing/index.js';
import type { ConnectedClient } from '../src/testing/index.js';
import { addCreditApplied, startWithPipecatClient, testDbWith } from './fixtures.js';
import type { TestServer } from './fixtures.js';

const texts: { content: string; runImmediately: boolean; audioResponse: boolean }[] = [];
let fixture: TestServer;
let bot: ConnectedClient;

beforeAll(async () => {
  const started = await startWithPipecatClient({
    conversation: (host: ConversationHost) => ({
      async onUserText(content, options) {
        texts.push({ content, ...options });
        if (content.startsWith('credit ')) {
          await executeToolByName(
            host.state,
            'add_credit',
            { user_id: content.slice(7) },
            {
              onAction: (action, domain) => host.actionApplied(action, domain),
            },
          );
        }
      },
    }),
  });
  fixture = started;
  bot = started.bot;
});

afterAll(() => fixture?.close());

describe('real @pipecat-ai/client-js against the bot server', () => {
  it('completes the handshake with protocol 2.1.0', () => {
    expect(bot.botReady).toMatchObject({ version: '2.1.0', about: { library: '@scenaro/agent' } });
    expect(bot.client.state).toBe('ready');
  });

  it('answers all six control messages with the spec examples', async () => {
    const c = bot.client;
    expect(await c.sendClientRequest('reset', {})).toBe(true);
    expect(
      await c.sendClientRequest('update_system_prompt', {
        prompt: 'You are a support agent.',
        tools: '{"GetUserTool": {}, "add_credit": {}}',
        add_suffix: false,
        tool_domain: 'test',
      }),
    ).toBe(true);
    expect(
      await c.sendClientRequest('apply_initialization', {
        domain: 'test',
        shared_state_init: '{"db_path": "test/db.json", "note": "x"}',
        actions: [
          { func_name: 'set_balance', arguments: { user_id: 'u2', balance: 15.1 }, side: 'agent' },
        ],
      }),
    ).toEqual({ success: true, errors: [] });

    const expected = testDbWith({ u2: 15.1 });
    expect(await c.sendClientRequest('get_scenario_summary', { include_db: false })).toEqual({
      actions: [],
      db_hash: getDictHash(expected),
    });
    expect(
      await c.sendClientRequest('apply_sync_delta', {
        domain: 'test',
        delta: { 'users[u1].balance': 3, 'settings.currency': 'USD' },
      }),
    ).toEqual({ success: true, errors: [] });
    (expected.users[0] as { balance: number }).balance = 3;
    expected.settings.currency = 'USD';
    const summary = (await c.sendClientRequest('get_scenario_summary', { include_db: true })) as {
      db: unknown;
      db_hash: string;
    };
    expect(summary.db).toEqual(expected);
    expect(summary.db_hash).toBe(getDictHash(expected));
    expect(await c.sendClientRequest('get_context_history', {})).toEqual({
      context: "[{'role': 'system', 'content': 'You are a support agent.'}]",
    });
    expect(await c.sendClientRequest('get_context_history', { format: 'json' })).toEqual({
      context: JSON.stringify([{ role: 'system', content: 'You are a support agent.' }]),
    });
  });

  it('rejects an unknown t with an error-response carrying the request id', async () => {
    const failure = await bot.client.sendClientRequest('nope', {}).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failure).toMatchObject({
      type: 'error-response',
      data: { error: 'unknown message type: nope' },
    });
  });

  it('turns a handler error into "<ErrorName>: <message>"', async () => {
    const failure = await bot.client
      .sendClientRequest('update_system_prompt', { prompt: 'x', tools: { a: 1 } })
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    expect(failure).toMatchObject({
      type: 'error-response',
      data: {
        error: expect.stringMatching(
          /^ValueError: update_system_prompt: tools must be a JSON string/,
        ),
      },
    });
  });

  it('delivers send-text to the session hook with its options', async () => {
    await bot.client.sendText('hello there', { audio_response: false });
    await pollUntil(() => texts.some((t) => t.content === 'hello there'), 'the text', 3000);
    expect(texts.find((t) => t.content === 'hello there')).toEqual({
      content: 'hello there',
      runImmediately: true,
      audioResponse: false,
    });
  });

  it('pushes action-applied server-messages for write tools', async () => {
    await bot.client.sendText('credit u1');
    await pollUntil(() => bot.serverMessages.length > 0, 'a server message', 3000);
    expect(bot.serverMessages[0]).toEqual(addCreditApplied('u1', 1, 4));
    const summary = (await bot.client.sendClientRequest('get_scenario_summary', {})) as {
      actions: unknown[];
    };
    expect(summary.actions).toHaveLength(1);
  });
});
