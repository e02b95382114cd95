import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startOpenAITestServer } from '../testing/openai-test-server/server.js';
import type { OpenAITestServer } from '../testing/openai-test-server/server.js';
import type { ContextMessage } from './context.js';
import type { ChatModel, ChatStreamEvent, ChatToolSpec } from './model.js';
import { ChatModelError } from './model.js';
import {
  ChatAbortError,
  PLACEHOLDER_API_KEY,
  createOpenAIChatModel,
  isAbortError,
  toOpenAIMessages,
  toOpenAITools,
} from './openai-model.js';
import type { OpenAIChatModelOptions, OpenAIRetryInfo } from './openai-model.js';

const TOOLS: ChatToolSpec[] = [
  {
    name: 'get_order_details',
    description: 'Get the status and details of an order.',
    parameters: {
      type: 'object',
      properties: { order_id: { type: 'string', description: 'The order id, such as #W0000000.' } },
      required: ['order_id'],
    },
  },
  {
    name: 'find_user_id_by_email',
    description: 'Find user id by email.',
    parameters: { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] },
  },
];

const SYSTEM: ContextMessage = { role: 'system', content: 'You are a helpful retail agent.' };

/** An assistant turn with two tool calls: the same in our context shape and in the OpenAI request shape. */
const CHECKING_BOTH: ContextMessage = {
  role: 'assistant',
  content: 'Checking both.',
  tool_calls: [
    {
      id: 'call_x',
      type: 'function',
      function: { name: 'get_order_details', arguments: '{"order_id":"#W1"}' },
    },
    {
      id: 'call_y',
      type: 'function',
      function: { name: 'get_order_details', arguments: '{"order_id":"#W2"}' },
    },
  ],
};

let server: OpenAITestServer;

beforeEach(async () => {
  server = await startOpenAITestServer();
});

afterEach(async () => {
  await server.close();
});

function model(options: Partial<OpenAIChatModelOptions> = {}): ChatModel {
  return createOpenAIChatModel({
    baseURL: server.baseURL,
    model: 'test-llm',
    apiKey: 'sk-test',
    initialBackoffMs: 5,
    maxBackoffMs: 20,
    ...options,
  });
}

function request(
  messages: ContextMessage[] = [SYSTEM, { role: 'user', content: 'Hi!' }],
  options: { tools?: ChatToolSpec[]; signal?: AbortSignal } = {},
) {
  return {
    messages,
    tools: options.tools ?? TOOLS,
    signal: options.signal ?? new AbortController().signal,
    turn: 1,
    step: 1,
  };
}

async function collect(stream: AsyncIterable<ChatStreamEvent>): Promise<ChatStreamEvent[]> {
  const events: ChatStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

function textOf(events: ChatStreamEvent[]): string {
  return events.map((e) => (e.type === 'text-delta' ? e.text : '')).join('');
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('createOpenAIChatModel', () => {
  it('labels itself as the OpenAI LLM service', () => {
    const m = model();
    expect(m.processor).toBe('OpenAILLMService');
    expect(m.model).toBe('test-llm');
    expect(m.scripted).toBe(false);
  });

  it('streams text deltas in order, then the usage of the final chunk', async () => {
    server.enqueue({
      text: ['Hello', ', how', ' can I', ' help?'],
      usage: { prompt_tokens: 42, completion_tokens: 7 },
    });
    const events = await collect(model().stream(request()));
    expect(events).toEqual([
      { type: 'text-delta', text: 'Hello' },
      { type: 'text-delta', text: ', how' },
      { type: 'text-delta', text: ' can I' },
      { type: 'text-delta', text: ' help?' },
      { type: 'usage', usage: { promptTokens: 42, completionTokens: 7, totalTokens: 49 } },
    ]);
    expect(server.requests).toHaveLength(1);
    expect(server.calls[0]?.completed).toBe(true);
  });

  it('assembles a tool call from split argument deltas, then answers the tool result', async () => {
    const m = model();
    const args = { order_id: '#W2378156', include_items: true };
    server.enqueue(
      { toolCalls: [{ name: 'get_order_details', arguments: args }] },
      { text: 'Your order #W2378156 has shipped.' },
    );
    const first = await collect(
      m.stream(request([SYSTEM, { role: 'user', content: 'Where is my order?' }])),
    );
    expect(first.filter((e) => e.type !== 'usage')).toEqual([
      {
        type: 'tool-call',
        id: 'call_1',
        name: 'get_order_details',
        arguments: JSON.stringify(args),
      },
    ]);
    expect(first.at(-1)?.type).toBe('usage');

    const messages: ContextMessage[] = [
      SYSTEM,
      { role: 'user', content: 'Where is my order?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_order_details', arguments: JSON.stringify(args) },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"status": "shipped"}' },
    ];
    const second = await collect(m.stream({ ...request(messages), step: 2 }));
    expect(textOf(second)).toBe('Your order #W2378156 has shipped.');
    expect(second.filter((e) => e.type === 'text-delta').length).toBeGreaterThan(1);
    expect(server.requests[1]?.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      content: '{"status": "shipped"}',
    });
  });

  it('assembles parallel tool calls with their ids, in index order', async () => {
    server.enqueue({
      text: 'Let me check both.',
      toolCalls: [
        { id: 'call_a', name: 'get_order_details', arguments: { order_id: '#W1' } },
        { id: 'call_b', name: 'find_user_id_by_email', arguments: { email: 'ana@example.com' } },
      ],
    });
    const events = await collect(model().stream(request()));
    expect(textOf(events)).toBe('Let me check both.');
    expect(events.filter((e) => e.type === 'tool-call')).toEqual([
      {
        type: 'tool-call',
        id: 'call_a',
        name: 'get_order_details',
        arguments: '{"order_id":"#W1"}',
      },
      {
        type: 'tool-call',
        id: 'call_b',
        name: 'find_user_id_by_email',
        arguments: '{"email":"ana@example.com"}',
      },
    ]);
    expect(server.requests[0]?.parallel_tool_calls).toBe(true);
  });

  it('passes an unknown tool name and invalid arguments through unchanged', async () => {
    server.enqueue({ toolCalls: [{ name: 'launch_rockets', arguments: '{"count": 3' }] });
    const events = await collect(model().stream(request()));
    expect(events.filter((e) => e.type === 'tool-call')).toEqual([
      { type: 'tool-call', id: 'call_1', name: 'launch_rockets', arguments: '{"count": 3' },
    ]);
  });

  it('retries a 429 and yields the success', async () => {
    server.enqueue(
      { error: { status: 429, message: 'Rate limit reached' } },
      { text: 'Recovered.' },
    );
    const retries: OpenAIRetryInfo[] = [];
    const events = await collect(
      model({ onRetry: (info) => retries.push(info) }).stream(request()),
    );
    expect(textOf(events)).toBe('Recovered.');
    expect(server.requests).toHaveLength(2);
    expect(retries).toHaveLength(1);
    expect(retries[0]?.retry).toBe(1);
    expect(retries[0]?.error.status).toBe(429);
    expect(retries[0]?.error.retryable).toBe(true);
  });

  it('honours retry-after, capped at maxBackoffMs', async () => {
    server.enqueue(
      { error: { status: 429, message: 'Slow down', retryAfterMs: 120 } },
      { text: 'ok' },
    );
    const retries: OpenAIRetryInfo[] = [];
    const started = performance.now();
    await collect(
      model({ maxBackoffMs: 1000, onRetry: (info) => retries.push(info) }).stream(request()),
    );
    expect(retries[0]?.delayMs).toBe(120);
    expect(performance.now() - started).toBeGreaterThanOrEqual(100);
  });

  it('fails with a ChatModelError 500 once the retries are exhausted, backing off exponentially', async () => {
    for (let i = 0; i < 3; i++)
      server.enqueue({ error: { status: 500, message: 'The server had an error' } });
    const retries: OpenAIRetryInfo[] = [];
    const m = model({
      maxRetries: 2,
      initialBackoffMs: 10,
      maxBackoffMs: 1000,
      onRetry: (info) => retries.push(info),
    });
    const error = await rejection(collect(m.stream(request())));
    expect(error).toBeInstanceOf(ChatModelError);
    expect(error).toMatchObject({ status: 500, retryable: true });
    expect((error as Error).message).toContain('The server had an error');
    expect(server.requests).toHaveLength(3);
    expect(retries.map((r) => r.retry)).toEqual([1, 2]);
    // Exponential with up to 25 % jitter off: 10 ms then 20 ms.
    expect(retries[0]?.delayMs).toBeGreaterThanOrEqual(7.5);
    expect(retries[0]?.delayMs).toBeLessThanOrEqual(10);
    expect(retries[1]?.delayMs).toBeGreaterThanOrEqual(15);
    expect(retries[1]?.delayMs).toBeLessThanOrEqual(20);
  });

  it('does not retry a 401', async () => {
    server.enqueue(
      { error: { status: 401, message: 'Incorrect API key provided.' } },
      { text: 'unused' },
    );
    const error = await rejection(collect(model().stream(request())));
    expect(error).toBeInstanceOf(ChatModelError);
    expect(error).toMatchObject({ status: 401, retryable: false });
    expect(server.requests).toHaveLength(1);
  });

  it('cuts a hung request at timeoutMs with a retryable ChatModelError', async () => {
    server.enqueue({ hang: true });
    const started = performance.now();
    const error = await rejection(
      collect(model({ timeoutMs: 300, maxRetries: 0 }).stream(request())),
    );
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(ChatModelError);
    expect(error).toMatchObject({ retryable: true, status: undefined });
    expect((error as Error).message).toMatch(/timed out after 300 ms/);
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(2000);
    await vi.waitFor(() => expect(server.calls[0]?.closedByClient).toBe(true), { timeout: 15_000 });
  });

  it('retries a timed-out request', async () => {
    server.enqueue({ hang: true }, { text: 'Second time lucky.' });
    const events = await collect(model({ timeoutMs: 300, maxRetries: 1 }).stream(request()));
    expect(textOf(events)).toBe('Second time lucky.');
    expect(server.requests).toHaveLength(2);
  });

  it('times out a stream that stalls between chunks, without retrying after output', async () => {
    server.enqueue({ text: ['one', ' two', ' three'], chunksDelayMs: 1500 }, { text: 'unused' });
    const events: ChatStreamEvent[] = [];
    const error = await rejection(
      (async () => {
        for await (const event of model({ timeoutMs: 300, maxRetries: 2 }).stream(request()))
          events.push(event);
      })(),
    );
    expect(error).toBeInstanceOf(ChatModelError);
    expect((error as Error).message).toMatch(/timed out/);
    expect(events).toEqual([{ type: 'text-delta', text: 'one' }]);
    expect(server.requests).toHaveLength(1);
  });

  it('does not count the time the consumer takes towards the timeout', async () => {
    server.enqueue({ text: ['a', 'b', 'c'] });
    const events: ChatStreamEvent[] = [];
    for await (const event of model({ timeoutMs: 100 }).stream(request())) {
      events.push(event);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    expect(textOf(events)).toBe('abc');
  });

  it('retries a connection dropped before any output, but not one dropped after', async () => {
    // Only the role chunk is sent: nothing reached the consumer, the retry is invisible.
    server.enqueue({ text: 'lost', dropAfterChunks: 1 }, { text: 'Hello again.' });
    expect(textOf(await collect(model().stream(request())))).toBe('Hello again.');
    expect(server.requests).toHaveLength(2);

    server.reset();
    server.enqueue({ text: ['Hel', 'lo', ' there'], dropAfterChunks: 2 }, { text: 'unused' });
    const events: ChatStreamEvent[] = [];
    const error = await rejection(
      (async () => {
        for await (const event of model().stream(request())) events.push(event);
      })(),
    );
    expect(error).toBeInstanceOf(ChatModelError);
    expect(error).toMatchObject({ retryable: true });
    expect(events).toEqual([{ type: 'text-delta', text: 'Hel' }]);
    expect(server.requests).toHaveLength(1);
  });

  it('stops promptly when the signal aborts mid-stream and throws an AbortError', async () => {
    server.enqueue({ text: Array.from({ length: 50 }, (_, i) => `w${i} `), chunksDelayMs: 100 });
    const controller = new AbortController();
    const events: ChatStreamEvent[] = [];
    let abortedAt = 0;
    const error = await rejection(
      (async () => {
        for await (const event of model().stream(
          request(undefined, { signal: controller.signal }),
        )) {
          events.push(event);
          if (events.length === 2) {
            abortedAt = performance.now();
            setTimeout(() => controller.abort(), 20);
          }
        }
      })(),
    );
    expect(performance.now() - abortedAt).toBeLessThan(90);
    expect(isAbortError(error)).toBe(true);
    expect(error).toBe(controller.signal.reason);
    expect(events).toHaveLength(2);
    await vi.waitFor(() => expect(server.calls[0]?.closedByClient).toBe(true), { timeout: 15_000 });
    expect(server.requests).toHaveLength(1);
  });

  it('wraps a non-AbortError abort reason in a ChatAbortError', async () => {
    server.enqueue({ hang: true });
    const controller = new AbortController();
    const reason = new Error('interrupted');
    setTimeout(() => controller.abort(reason), 50);
    const started = performance.now();
    const error = await rejection(
      collect(model().stream(request(undefined, { signal: controller.signal }))),
    );
    expect(performance.now() - started).toBeLessThan(1000);
    expect(error).toBeInstanceOf(ChatAbortError);
    expect(isAbortError(error)).toBe(true);
    expect((error as Error).cause).toBe(reason);
  });

  it('aborts during a retry backoff, and never starts with an aborted signal', async () => {
    server.enqueue({ error: { status: 503, message: 'Overloaded' } }, { text: 'unused' });
    const controller = new AbortController();
    const m = model({
      initialBackoffMs: 5000,
      maxBackoffMs: 5000,
      onRetry: () => setTimeout(() => controller.abort(), 20),
    });
    const started = performance.now();
    const error = await rejection(
      collect(m.stream(request(undefined, { signal: controller.signal }))),
    );
    expect(performance.now() - started).toBeLessThan(1000);
    expect(isAbortError(error)).toBe(true);
    expect(server.requests).toHaveLength(1);

    const again = await rejection(
      collect(m.stream(request(undefined, { signal: controller.signal }))),
    );
    expect(isAbortError(again)).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('cancels the HTTP request when the consumer stops iterating', async () => {
    server.enqueue({ text: Array.from({ length: 50 }, (_, i) => `w${i} `), chunksDelayMs: 50 });
    for await (const event of model().stream(request())) {
      expect(event).toEqual({ type: 'text-delta', text: 'w0 ' });
      break;
    }
    await vi.waitFor(() => expect(server.calls[0]?.closedByClient).toBe(true), { timeout: 15_000 });
  });

  it('sends our messages and tools in the OpenAI request shape', async () => {
    server.enqueue({ text: 'ok' });
    const messages: ContextMessage[] = [
      SYSTEM,
      { role: 'user', content: 'Cancel order #W1 and #W2.' },
      CHECKING_BOTH,
      { role: 'tool', tool_call_id: 'call_x', content: 'pending' },
      { role: 'tool', tool_call_id: 'call_y', content: 'delivered' },
      { role: 'assistant', content: 'Order #W1 can be cancelled.' },
      { role: 'assistant', content: null, tool_calls: [] },
    ];
    const m = model({
      temperature: 0.2,
      maxTokens: 256,
      parallelToolCalls: false,
      extraBody: { top_k: 20, model: 'x' },
    });
    await collect(m.stream(request(messages)));
    const body = server.requests[0];
    expect(body).toMatchObject({
      model: 'test-llm',
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.2,
      max_tokens: 256,
      parallel_tool_calls: false,
      top_k: 20,
    });
    expect(body?.messages).toEqual([
      { role: 'system', content: 'You are a helpful retail agent.' },
      { role: 'user', content: 'Cancel order #W1 and #W2.' },
      CHECKING_BOTH,
      { role: 'tool', tool_call_id: 'call_x', content: 'pending' },
      { role: 'tool', tool_call_id: 'call_y', content: 'delivered' },
      { role: 'assistant', content: 'Order #W1 can be cancelled.' },
      { role: 'assistant', content: '' },
    ]);
    expect(body?.tools).toEqual(
      TOOLS.map((t) => ({
        type: 'function',
        function: { name: t.name, description: t.description, parameters: t.parameters },
      })),
    );
    expect(toOpenAIMessages(messages)).toEqual(body?.messages);
    expect(toOpenAITools(TOOLS)).toEqual(body?.tools);
  });

  it('leaves tools and parallel_tool_calls out when there are no tools', async () => {
    server.enqueue({ text: 'ok' });
    await collect(model().stream(request(undefined, { tools: [] })));
    expect(server.requests[0]).not.toHaveProperty('tools');
    expect(server.requests[0]).not.toHaveProperty('parallel_tool_calls');
  });

  describe('API key', () => {
    const ENV = 'SCENARO_TEST_OPENAI_KEY';
    let keyed: OpenAITestServer;

    beforeEach(async () => {
      keyed = await startOpenAITestServer({ apiKey: 'sk-from-env' });
    });

    afterEach(async () => {
      delete process.env[ENV];
      await keyed.close();
    });

    it('reads the key from the variable named by apiKeyEnv', async () => {
      process.env[ENV] = 'sk-from-env';
      keyed.enqueue({ text: 'authorised' });
      const m = createOpenAIChatModel({ baseURL: keyed.baseURL, model: 'm', apiKeyEnv: ENV });
      expect(textOf(await collect(m.stream(request())))).toBe('authorised');
      expect(keyed.calls[0]?.headers.authorization).toBe('Bearer sk-from-env');
    });

    it('prefers the apiKey option, and sends a placeholder without any key', async () => {
      process.env[ENV] = 'sk-wrong';
      keyed.enqueue({ text: 'authorised' });
      const withOption = createOpenAIChatModel({
        baseURL: keyed.baseURL,
        model: 'm',
        apiKey: 'sk-from-env',
        apiKeyEnv: ENV,
      });
      expect(textOf(await collect(withOption.stream(request())))).toBe('authorised');

      delete process.env[ENV];
      const without = createOpenAIChatModel({
        baseURL: keyed.baseURL,
        model: 'm',
        apiKeyEnv: ENV,
        maxRetries: 0,
      });
      const error = await rejection(collect(without.stream(request())));
      expect(error).toMatchObject({ status: 401, retryable: false });
      expect(keyed.calls[1]?.headers.authorization).toBe(`Bearer ${PLACEHOLDER_API_KEY}`);
    });
  });
});

describe('OpenAI test server', () => {
  async function sse(
    body: Record<string, unknown>,
  ): Promise<{ events: unknown[]; done: boolean; raw: string }> {
    const response = await fetch(`${server.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const raw = await response.text();
    const blocks = raw.split('\n\n').filter((b) => b.length > 0);
    for (const block of blocks) expect(block.startsWith('data: ')).toBe(true);
    const data = blocks.map((b) => b.slice('data: '.length));
    const done = data.at(-1) === '[DONE]';
    return {
      events: data.filter((d) => d !== '[DONE]').map((d) => JSON.parse(d) as unknown),
      done,
      raw,
    };
  }

  it('streams chunks as OpenAI documents them', async () => {
    server.enqueue({
      text: 'Sure.',
      toolCalls: [{ name: 'get_order_details', arguments: { order_id: '#W123456' } }],
    });
    const { events, done } = await sse({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(done).toBe(true);
    const chunks = events as Array<{
      object: string;
      model: string;
      choices: Array<{ delta: Record<string, unknown>; finish_reason: string | null }>;
      usage: unknown;
    }>;
    for (const chunk of chunks) {
      expect(chunk.object).toBe('chat.completion.chunk');
      expect(chunk.model).toBe('gpt-test');
    }
    expect(chunks[0]?.choices[0]?.delta).toMatchObject({ role: 'assistant', content: '' });
    const toolDeltas = chunks.flatMap(
      (c) => (c.choices[0]?.delta.tool_calls as unknown[] | undefined) ?? [],
    );
    expect(toolDeltas[0]).toEqual({
      index: 0,
      id: 'call_1',
      type: 'function',
      function: { name: 'get_order_details', arguments: '' },
    });
    const argumentPieces = toolDeltas.slice(1) as Array<{
      index: number;
      function: { arguments: string };
    }>;
    expect(argumentPieces.length).toBeGreaterThan(1);
    expect(argumentPieces.map((p) => p.function.arguments).join('')).toBe(
      '{"order_id":"#W123456"}',
    );
    const finish = chunks.at(-2);
    expect(finish?.choices[0]?.finish_reason).toBe('tool_calls');
    expect(finish?.usage).toBeNull();
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage).toMatchObject({
      prompt_tokens: expect.any(Number),
      completion_tokens: expect.any(Number),
    });
  });

  it('leaves the usage chunk out without include_usage, and ends text with stop', async () => {
    server.enqueue({ text: 'Done.' });
    const { events } = await sse({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    const chunks = events as Array<{
      choices: Array<{ finish_reason: string | null }>;
      usage?: unknown;
    }>;
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
    expect(chunks.every((c) => c.usage === undefined)).toBe(true);
  });

  it('answers non-streaming requests with a chat.completion, and uses the respond() function', async () => {
    server.respond((body) => ({ text: `echo: ${String(body.messages.at(-1)?.content)}` }));
    const response = await fetch(`${server.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'ping' }] }),
    });
    const completion = (await response.json()) as Record<string, unknown>;
    expect(completion).toMatchObject({
      object: 'chat.completion',
      choices: [
        { index: 0, message: { role: 'assistant', content: 'echo: ping' }, finish_reason: 'stop' },
      ],
      usage: { total_tokens: expect.any(Number) },
    });
  });

  it('answers errors as OpenAI error JSON with retry-after on 429', async () => {
    server.enqueue({ error: { status: 429, message: 'Rate limit reached', retryAfterMs: 1500 } });
    const response = await fetch(`${server.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [], stream: true }),
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('2');
    expect(response.headers.get('retry-after-ms')).toBe('1500');
    expect(await response.json()).toEqual({
      error: {
        message: 'Rate limit reached',
        type: 'requests',
        param: null,
        code: 'rate_limit_exceeded',
      },
    });
  });

  it('ends hung requests on close()', async () => {
    server.enqueue({ hang: true });
    const pending = fetch(`${server.baseURL}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', messages: [] }),
    });
    await vi.waitFor(() => expect(server.requests).toHaveLength(1), { timeout: 15_000 });
    await server.close();
    await expect(pending).rejects.toThrow();
  });
});
