// The conversation engine with the scripted reference agent, over a real socket with the real client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConversationEngine, createReferenceAgentModel } from '../src/index.js';
import { getDictHash } from '../src/scenario/index.js';
import { pollUntil } from '../src/testing/index.js';
import type { ConnectedClient } from '../src/testing/index.js';
import {
  addCreditApplied,
  agentPlan,
  startWithPipecatClient,
  systemPromptArgs,
  TEST_DB,
  testDbWith,
} from './fixtures.js';
import type { TestServer } from './fixtures.js';

let fixture: TestServer;
let bot: ConnectedClient;

beforeAll(async () => {
  const started = await startWithPipecatClient({
    conversation: createConversationEngine({
      model: createReferenceAgentModel,
      functionCallReportLevel: { '*': 'FULL' },
    }),
  });
  fixture = started;
  bot = started.bot;
});

afterAll(() => fixture?.close());

const turnComplete = (turn: number) => (m: unknown) =>
  (m as { type?: string; turn?: number }).type === 'turn-complete' &&
  (m as { turn: number }).turn === turn;

describe('scripted reference agent over RTVI', () => {
  it('loads a scenario with a plan', async () => {
    const c = bot.client;
    expect(
      await c.sendClientRequest(
        'update_system_prompt',
        systemPromptArgs(
          'You are a support agent.',
          ['get_user', 'add_credit', 'end_conversation'],
          'test',
        ),
      ),
    ).toBe(true);
    const plan = agentPlan(
      ['get_user', { user_id: 'u1' }],
      ['add_credit', { user_id: 'u1', amount: 5 }],
    );
    expect(
      await c.sendClientRequest('apply_initialization', {
        domain: 'test',
        shared_state_init: JSON.stringify({ db_path: 'test/db.json', scripted_plan: plan }),
        actions: [],
      }),
    ).toEqual({ success: true, errors: [] });
  });

  it('greets on the first turn with events in order', async () => {
    bot.events.length = 0;
    await bot.client.sendText('Hello', { audio_response: false });
    await pollUntil(() => bot.serverMessages.some(turnComplete(1)), 'turn 1');
    const names = bot.events.map(([name]) => name);
    expect(names).toEqual([
      'onUserLlmText',
      'onBotLlmStarted',
      'onBotLlmText',
      'onBotLlmStopped',
      'onMetrics',
      'onBotOutput',
      'onServerMessage',
    ]);
    const metrics = bot.events.find(([n]) => n === 'onMetrics')?.[1] as {
      ttfb: { processor: string; model: string }[];
      tokens: { model: string; total_tokens: number }[];
    };
    expect(metrics.ttfb[0]?.model).toBe('scripted:reference-agent');
    expect(metrics.tokens[0]?.total_tokens).toBeGreaterThan(0);
    const done = bot.serverMessages.find(turnComplete(1)) as { text: string; scripted: boolean };
    expect(done.scripted).toBe(true);
    expect(done.text).toMatch(/scripted reference agent/);
  });

  it('carries out the plan through the real tool path, then closes the conversation', async () => {
    await bot.client.sendText('I need credit on my account', { audio_response: false });
    await pollUntil(() => bot.serverMessages.some(turnComplete(2)), 'turn 2');
    const confirm = bot.serverMessages.find(turnComplete(2)) as { text: string };
    expect(confirm.text).toMatch(
      /I will do this: get_user\(user_id="u1"\); add_credit\(user_id="u1", amount=5\)\. Shall I go ahead\?$/,
    );
    expect(
      bot.serverMessages.filter((m) => (m as { type?: string }).type === 'action-applied'),
    ).toEqual([]);
    bot.events.length = 0;
    await bot.client.sendText('Yes, please go ahead.', { audio_response: false });
    await pollUntil(() => bot.serverMessages.some(turnComplete(3)), 'turn 3');
    const second = bot.serverMessages.find(turnComplete(3)) as { text: string; exit?: string };
    expect(second.exit).toBeUndefined();
    expect(second.text).toMatch(/add_credit\(user_id="u1", amount=5\) -> \{"balance":15\}/);
    expect(second.text).toMatch(/Is there anything else I can help you with\?$/);
    // a read result is a snapshot taken when the tool ran, not a live view of the db
    expect(second.text).toContain(
      `get_user(user_id="u1") -> {"user_id":"u1","name":"Ada","balance":10}`,
    );
    await bot.client.sendText("No, that's all.", { audio_response: false });
    await pollUntil(() => bot.serverMessages.some(turnComplete(4)), 'turn 4');
    const names = bot.events.map(([name]) => name);
    // tool calls of the first model call, then the report and the end tool, then the exit push
    expect(names.indexOf('onLLMFunctionCallInProgress')).toBeGreaterThan(
      names.indexOf('onBotLlmStopped'),
    );
    const applied = bot.serverMessages.filter(
      (m) => (m as { type?: string }).type === 'action-applied',
    );
    expect(applied).toEqual([addCreditApplied('u1', 5, 15)]);
    const exitIndex = bot.serverMessages.findIndex(
      (m) => (m as { text?: string }).text === '<exit>The task is finished.</exit>',
    );
    const turnIndex = bot.serverMessages.findIndex(turnComplete(4));
    expect(exitIndex).toBeGreaterThan(-1);
    expect(exitIndex).toBeLessThan(turnIndex);
    const done = bot.serverMessages[turnIndex] as { text: string; exit: string };
    expect(done.exit).toBe('The task is finished.');
    expect(done.text).toBe('Thank you for calling. Goodbye.');

    const stopped = bot.events.filter(([n]) => n === 'onLLMFunctionCallStopped').map(([, d]) => d);
    expect(stopped).toContainEqual(
      expect.objectContaining({
        function_name: 'get_user',
        cancelled: false,
        result: TEST_DB.users[0],
      }),
    );

    const expected = testDbWith({ u1: 15 });
    const summary = (await bot.client.sendClientRequest('get_scenario_summary', {})) as {
      actions: unknown[];
      db_hash: string;
    };
    expect(summary.actions).toHaveLength(1);
    expect(summary.db_hash).toBe(getDictHash(expected));
  });

  it('returns the context in both formats', async () => {
    const json = (await bot.client.sendClientRequest('get_context_history', {
      format: 'json',
    })) as {
      context: string;
    };
    const messages = JSON.parse(json.context) as { role: string; tool_calls?: unknown[] }[];
    expect(messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
      'tool',
      'tool',
      'assistant',
      'user',
      'assistant',
      'tool',
    ]);
    const python = (await bot.client.sendClientRequest('get_context_history', {})) as {
      context: string;
    };
    expect(
      python.context.startsWith(
        "[{'role': 'system', 'content': 'You are a support agent.'}, {'role': 'user'",
      ),
    ).toBe(true);
    expect(python.context).toContain("'tool_calls': [{'id': 'call_scripted_");
    expect(python.context).toContain("'content': None");
  });
});
