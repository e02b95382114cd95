// The conversation engine driving an OpenAI-compatible LLM (a local test server that speaks the
// streaming chat-completions protocol), over a real socket with the real @pipecat-ai/client-js.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createConversationEngine, createOpenAIChatModel } from '../src/index.js';
import { pollUntil, startOpenAITestServer } from '../src/testing/index.js';
import type { ConnectedClient, OpenAITestServer } from '../src/testing/index.js';
import { startWithPipecatClient } from './fixtures.js';
import type { TestServer } from './fixtures.js';

let llm: OpenAITestServer;
let fixture: TestServer;
let bot: ConnectedClient;

type TurnComplete = {
  type: 'turn-complete';
  turn: number;
  text: string;
  interrupted: boolean;
  error?: string;
};

/** How long a turn may take. */
const TURN_MS = 8000;

const turns = () =>
  bot.serverMessages.filter(
    (m) => (m as { type?: string }).type === 'turn-complete',
  ) as TurnComplete[];

async function say(text: string): Promise<TurnComplete> {
  const before = turns().length;
  await bot.client.sendText(text, { audio_response: false });
  await pollUntil(() => turns().length > before, 'the turn', TURN_MS);
  return turns()[before] as TurnComplete;
}

async function context(): Promise<
  { role: string; content?: string | null; tool_call_id?: string }[]
> {
  const reply = (await bot.client.sendClientRequest('get_context_history', { format: 'json' })) as {
    context: string;
  };
  return JSON.parse(reply.context) as { role: string; content?: string | null }[];
}

beforeAll(async () => {
  llm = await startOpenAITestServer();
  const model = createOpenAIChatModel({
    baseURL: llm.baseURL,
    model: 'test-model',
    timeoutMs: 400,
    maxRetries: 1,
    initialBackoffMs: 10,
    maxBackoffMs: 20,
  });
  const started = await startWithPipecatClient({
    conversation: createConversationEngine({ model: () => model }),
  });
  fixture = started;
  bot = started.bot;
});

afterAll(async () => {
  await fixture?.close();
  await llm?.close();
});

beforeEach(async () => {
  llm.reset();
  expect(
    await bot.client.sendClientRequest('update_system_prompt', {
      prompt: 'You help users.',
      tools: JSON.stringify({ get_user: {}, add_credit: {} }),
      add_suffix: false,
      tool_domain: 'test',
    }),
  ).toBe(true);
  expect(
    await bot.client.sendClientRequest('apply_initialization', {
      domain: 'test',
      shared_state_init: '{"db_path": "test/db.json"}',
    }),
  ).toEqual({ success: true, errors: [] });
  bot.events.length = 0;
});

describe('LLM conversation over RTVI', () => {
  it('streams a plain answer with events and token metrics', async () => {
    llm.enqueue({
      text: ['Hello', ' there', '!'],
      usage: { prompt_tokens: 12, completion_tokens: 3 },
    });
    const turn = await say('hi');
    expect(turn).toMatchObject({ text: 'Hello there!', interrupted: false });
    const deltas = bot.events
      .filter(([n]) => n === 'onBotLlmText')
      .map(([, d]) => (d as { text: string }).text);
    expect(deltas).toEqual(['Hello', ' there', '!']);
    const metrics = bot.events.find(([n]) => n === 'onMetrics')?.[1] as {
      tokens: Record<string, unknown>[];
    };
    expect(metrics.tokens[0]).toMatchObject({
      processor: 'OpenAILLMService',
      model: 'test-model',
      prompt_tokens: 12,
      completion_tokens: 3,
      total_tokens: 15,
    });
    const sent = llm.requests[0];
    expect(sent?.messages).toEqual([
      { role: 'system', content: 'You help users.' },
      { role: 'user', content: 'hi' },
    ]);
    expect((sent?.tools ?? []).map((t) => (t['function'] as { name: string }).name).sort()).toEqual(
      ['add_credit', 'get_user'],
    );
  });

  it('runs a two-step tool call and feeds the result back', async () => {
    llm.enqueue(
      { toolCalls: [{ id: 'c1', name: 'add_credit', arguments: { user_id: 'u1', amount: 2 } }] },
      { text: 'Done.' },
    );
    const turn = await say('give u1 two credits');
    expect(turn.text).toBe('Done.');
    expect(llm.requests).toHaveLength(2);
    expect(llm.requests[1]?.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'c1',
      content: '{"balance":12}',
    });
    expect(bot.serverMessages).toContainEqual(
      expect.objectContaining({
        type: 'action-applied',
        action: expect.objectContaining({ name: 'add_credit' }),
      }),
    );
  });

  it('runs parallel tool calls of one response', async () => {
    llm.enqueue(
      {
        toolCalls: [
          { id: 'p1', name: 'get_user', arguments: { user_id: 'u1' } },
          { id: 'p2', name: 'get_user', arguments: { user_id: 'u2' } },
        ],
      },
      { text: 'Ada and Bob.' },
    );
    await say('who are u1 and u2?');
    const toolMessages = (llm.requests[1]?.messages ?? []).filter((m) => m['role'] === 'tool');
    expect(toolMessages.map((m) => m['tool_call_id'])).toEqual(['p1', 'p2']);
    expect(JSON.parse(String(toolMessages[1]?.['content']))).toMatchObject({ name: 'Bob' });
  });

  it('gives the model a structured error for an unknown tool and for invalid arguments', async () => {
    llm.enqueue(
      {
        toolCalls: [
          { id: 'u1', name: 'delete_everything', arguments: {} },
          { id: 'u2', name: 'add_credit', arguments: { amount: 'lots' } },
        ],
      },
      { text: 'Sorry.' },
    );
    await say('do something odd');
    const tools = (llm.requests[1]?.messages ?? []).filter((m) => m['role'] === 'tool');
    expect(JSON.parse(String(tools[0]?.['content']))).toMatchObject({
      status: 'error',
      error_type: 'unknown_tool',
      available_tools: ['add_credit', 'get_user'],
    });
    expect(JSON.parse(String(tools[1]?.['content']))).toEqual({
      error: "Invalid arguments for add_credit: missing required argument 'user_id'",
    });
  });

  it('retries a 429 and then answers', async () => {
    llm.enqueue({ error: { status: 429, message: 'slow down' } }, { text: 'Recovered.' });
    const turn = await say('hello again');
    expect(turn.text).toBe('Recovered.');
    expect(llm.requests).toHaveLength(2);
  });

  it('cuts a hung request at the timeout and reports the failure', async () => {
    llm.enqueue({ hang: true }, { hang: true });
    const started = Date.now();
    const turn = await say('are you there?');
    expect(Date.now() - started).toBeLessThan(4000);
    expect(turn.error).toMatch(/timed out/);
    expect(bot.errors.length).toBeGreaterThan(0);
  });

  it('interrupts a running answer on a run_immediately send-text and drops its partial output', async () => {
    llm.enqueue(
      { text: ['One ', 'two ', 'three ', 'four ', 'five'], chunksDelayMs: 150 },
      { text: 'Fresh answer.' },
    );
    await bot.client.sendText('count to five', { audio_response: false });
    await pollUntil(
      () =>
        bot.events.some(
          ([n, d]) => n === 'onBotLlmText' && (d as { text: string }).text === 'One ',
        ),
      'the first words',
      TURN_MS,
    );
    const before = turns().length;
    await bot.client.sendText('stop, answer this instead', { audio_response: false });
    await pollUntil(() => turns().length >= before + 2, 'both turns', TURN_MS);
    const [interrupted, fresh] = turns().slice(before);
    expect(interrupted).toMatchObject({ interrupted: true });
    expect(fresh).toMatchObject({ text: 'Fresh answer.', interrupted: false });
    const messages = await context();
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'user', 'assistant']);
    expect(
      messages.some((m) => typeof m.content === 'string' && m.content.includes('One two')),
    ).toBe(false);
    expect(llm.calls[0]?.closedByClient).toBe(true);
  });

  it('appends without answering when run_immediately is false', async () => {
    await bot.client.sendText('just so you know', {
      run_immediately: false,
      audio_response: false,
    });
    await pollUntil(
      () => bot.events.some(([n]) => n === 'onUserLlmText'),
      'the user text',
      TURN_MS,
    );
    await new Promise((r) => setTimeout(r, 100));
    expect(llm.requests).toHaveLength(0);
    expect((await context()).at(-1)).toEqual({ role: 'user', content: 'just so you know' });
  });
});
