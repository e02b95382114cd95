import { describe, expect, it, vi } from 'vitest';
import { cancelToolCall } from '../test-support/cancel-tool-call.js';
import { useFakeTimersInEachTest } from '../test-support/fake-timers.js';
import { parseRpcToolResponse } from '../protocol/index.js';
import type { RpcToolRequest, RpcToolResponse } from '../protocol/index.js';
import { createLoopbackPair } from '../rpc/loopback.js';
import type { LoopbackPairOptions, LoopbackTransport } from '../rpc/loopback.js';
import { createRecordingLogger } from '../test-support/recording-logger.js';
import { FeatureStore } from './feature-store.js';
import { ScenaroSession } from './scenaro-session.js';
import type { ScenaroSessionOptions } from './scenaro-session.js';
import type { FeatureEvent, ToolDefinition, ToolHandler, ToolHandlers } from './types.js';

const searchTool: ToolDefinition = {
  name: 'search_collection_items',
  description: 'Search wines',
  parameters: {
    type: 'object',
    properties: { query: { type: 'string' }, limit: { type: 'integer', minimum: 1 } },
    required: ['query'],
  },
  feature: 'catalog',
};

const searchHandler: ToolHandler = (requestId, args, settings) => ({
  requestId,
  response: {
    code: 'SUCCESS',
    data: { items: [`${String(args['query'])}@${String(settings['shop'])}`] },
  },
  componentData: { searchQuery: args['query'] },
});

function setup(
  overrides: Partial<ScenaroSessionOptions> = {},
  pairOptions: LoopbackPairOptions = {},
) {
  const pair = createLoopbackPair(pairOptions);
  const logger = createRecordingLogger();
  const session = new ScenaroSession({
    transport: pair.user,
    config: { tools: [searchTool], settings: { shop: 'caviste' } },
    handlers: { search_collection_items: searchHandler },
    activity: false,
    logger,
    ...overrides,
  });
  const events: FeatureEvent[] = [];
  session.on('feature', (e) => events.push(e));
  return { ...pair, session, logger, events };
}

/** A handler that never answers and keeps the abort signal of its last call. */
function hangingHandler() {
  const seen: { signal?: AbortSignal } = {};
  const hang: ToolHandler = (_id, _a, _s, _c, ctx) => {
    seen.signal = ctx.signal;
    return new Promise<never>(() => {});
  };
  return { hang, seen };
}

async function callTool(
  agent: LoopbackTransport,
  method: string,
  request: RpcToolRequest | string,
  responseTimeoutMs = 10000,
): Promise<RpcToolResponse> {
  const payload = await agent.performRpc({
    destinationIdentity: 'user',
    method,
    payload: typeof request === 'string' ? request : JSON.stringify(request),
    responseTimeoutMs,
  });
  const parsed = parseRpcToolResponse(payload);
  if (!parsed.ok) throw new Error(`not an RpcToolResponse: ${payload}`);
  return parsed.value;
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('ScenaroSession', () => {
  useFakeTimersInEachTest();

  it('registers nothing until started, then one method per tool plus the cancel method', () => {
    const { session, user } = setup();
    expect(user.registeredMethods).toEqual([]);
    session.start();
    session.start();
    expect(user.registeredMethods.sort()).toEqual([
      'scenaro__cancel_tool_call',
      'search_collection_items',
    ]);
    session.stop();
    session.stop();
    expect(user.registeredMethods).toEqual([]);
    session.start();
    expect(user.registeredMethods).toHaveLength(2);
  });

  it('runs the handler with the spec arguments and answers its response', async () => {
    const { session, agent, events } = setup();
    const seen: unknown[] = [];
    session.setHandlers({
      search_collection_items: (requestId, args, settings, collections, context) => {
        seen.push({ requestId, args, settings, hasCollections: typeof collections.get, context });
        return searchHandler(requestId, args, settings, collections, context);
      },
    });
    session.start();
    const response = await callTool(agent, 'search_collection_items', {
      requestId: 'r1',
      tool: 'search_collection_items',
      args: { query: 'chablis' },
      sentAt: 123,
    });
    expect(response).toEqual({
      requestId: 'r1',
      code: 'SUCCESS',
      data: { items: ['chablis@caviste'] },
    });
    expect(seen[0]).toMatchObject({
      requestId: 'r1',
      args: { query: 'chablis' },
      settings: { shop: 'caviste' },
      hasCollections: 'function',
      context: { callerIdentity: 'agent', sentAt: 123, tool: searchTool },
    });
    expect(events.map((e) => [e.feature, e.status])).toEqual([
      ['catalog', 'running'],
      ['catalog', 'success'],
    ]);
    expect(events[1]?.componentData).toEqual({ searchQuery: 'chablis' });
    expect(session.agentIdentity).toBe('agent');
  });

  it('registers under the frontend_method override', async () => {
    const { session, agent, user } = setup({
      config: { tools: [{ ...searchTool, frontend_method: 'custom_search_rpc' }] },
    });
    session.start();
    expect(user.registeredMethods).toContain('custom_search_rpc');
    expect(user.registeredMethods).not.toContain('search_collection_items');
    const response = await callTool(agent, 'custom_search_rpc', {
      requestId: 'r',
      args: { query: 'x' },
    });
    expect(response.code).toBe('SUCCESS');
  });

  it('answers ERROR naming the field when args do not match the schema', async () => {
    const handler = vi.fn(searchHandler);
    const { session, agent, events } = setup({ handlers: { search_collection_items: handler } });
    session.start();
    const missing = await callTool(agent, 'search_collection_items', { requestId: 'a', args: {} });
    expect(missing.code).toBe('ERROR');
    expect(missing.data).toMatchObject({
      field: 'query',
      message: 'Invalid arguments: args.query is required',
    });
    const wrongType = await callTool(agent, 'search_collection_items', {
      requestId: 'b',
      args: { query: 'x', limit: 0 },
    });
    expect(wrongType.data).toMatchObject({ field: 'limit' });
    expect(handler).not.toHaveBeenCalled();
    expect(events.at(-1)).toMatchObject({ requestId: 'b', status: 'error' });
  });

  it('answers ERROR for a payload that is not an RpcToolRequest', async () => {
    const { session, agent } = setup();
    session.start();
    const notJson = await callTool(agent, 'search_collection_items', '{oops');
    expect(notJson.code).toBe('ERROR');
    const noId = await callTool(agent, 'search_collection_items', '{"args":{}}');
    expect(noId.data).toMatchObject({ field: 'requestId' });
  });

  it('answers ERROR with the message when the handler throws, sync or async', async () => {
    const { session, agent, events } = setup({
      config: { tools: [{ name: 'sync' }, { name: 'async' }] },
      handlers: {
        sync: () => {
          throw new Error('stock service down');
        },
        async: async () => {
          throw new TypeError('bad data');
        },
      },
    });
    session.start();
    expect(await callTool(agent, 'sync', { requestId: '1' })).toEqual({
      requestId: '1',
      code: 'ERROR',
      data: { message: 'stock service down' },
    });
    expect((await callTool(agent, 'async', { requestId: '2' })).data).toEqual({
      message: 'bad data',
    });
    expect(events.filter((e) => e.status === 'error').map((e) => e.error)).toEqual([
      'stock service down',
      'bad data',
    ]);
  });

  it('answers ERROR when no handler exists or the result has the wrong shape', async () => {
    const { session, agent } = setup({
      config: { tools: [{ name: 'orphan' }, { name: 'bad' }] },
      // @ts-expect-error: a handler whose result has the wrong shape, on purpose
      handlers: { bad: () => ({ nope: true }) },
    });
    session.start();
    expect((await callTool(agent, 'orphan', { requestId: '1' })).data).toEqual({
      message: 'No handler is registered for tool orphan',
    });
    expect((await callTool(agent, 'bad', { requestId: '2' })).code).toBe('ERROR');
  });

  it('answers TIMEOUT a margin before the tool deadline, aborts the handler and drops its late result', async () => {
    const late = deferred<void>();
    let signal: AbortSignal | undefined;
    const { session, agent, logger, events } = setup({
      config: { tools: [{ name: 'slow', timeout_ms: 3000, feature: 'cart' }] },
      handlers: {
        slow: async (requestId, _args, _s, _c, ctx) => {
          signal = ctx.signal;
          await late.promise;
          return { requestId, response: { code: 'SUCCESS' }, componentData: { late: true } };
        },
      },
    });
    session.start();
    let answer: RpcToolResponse | undefined;
    void callTool(agent, 'slow', { requestId: 't1' }, 3000).then((r) => (answer = r));
    await vi.advanceTimersByTimeAsync(2499);
    expect(answer).toBeUndefined();
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(answer?.code).toBe('TIMEOUT');
    expect(answer?.requestId).toBe('t1');
    expect(signal?.aborted).toBe(true);
    expect((signal?.reason as Error).name).toBe('TimeoutError');
    late.resolve();
    await vi.advanceTimersByTimeAsync(0);
    expect(logger.messages('warn')).toContain('late tool result dropped');
    expect(events.map((e) => e.status)).toEqual(['running', 'timeout']);
    expect(session.inflightCount).toBe(0);
  });

  it('uses FRONTEND_TOOL_MS by default and caps the budget by the handler-visible timeout', async () => {
    const never = () => new Promise<never>(() => {});
    // Default budget: 10000 - 500.
    const js = setup({ config: { tools: [{ name: 'hang' }] }, handlers: { hang: never } });
    js.session.start();
    let jsAnswer: RpcToolResponse | undefined;
    void callTool(js.agent, 'hang', { requestId: 'a' }, 20000).then((r) => (jsAnswer = r));
    await vi.advanceTimersByTimeAsync(9499);
    expect(jsAnswer).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(jsAnswer?.code).toBe('TIMEOUT');
    // A Rust caller with a 10 s timeout tells the handler max(10000 - 7000, 1000) = 3000.
    const rust = setup(
      { config: { tools: [{ name: 'hang' }] }, handlers: { hang: never } },
      { agentRuntime: 'rust' },
    );
    rust.session.start();
    let rustAnswer: RpcToolResponse | undefined;
    void callTool(rust.agent, 'hang', { requestId: 'b' }, 10000).then((r) => (rustAnswer = r));
    await vi.advanceTimersByTimeAsync(2500);
    expect(rustAnswer?.code).toBe('TIMEOUT');
    // Without the cap, the tool keeps its own budget.
    const uncapped = setup(
      {
        config: { tools: [{ name: 'hang' }] },
        handlers: { hang: never },
        capByTransportTimeout: false,
      },
      { agentRuntime: 'rust' },
    );
    uncapped.session.start();
    let uncappedAnswer: RpcToolResponse | undefined;
    void callTool(uncapped.agent, 'hang', { requestId: 'c' }, 10000).then(
      (r) => (uncappedAnswer = r),
    );
    await vi.advanceTimersByTimeAsync(9499);
    expect(uncappedAnswer).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(uncappedAnswer?.code).toBe('TIMEOUT');
  });

  it('honours a configurable timeout margin', async () => {
    const { session, agent } = setup({
      timeoutMarginMs: 1000,
      config: { tools: [{ name: 'hang', timeout_ms: 4000 }] },
      handlers: { hang: () => new Promise<never>(() => {}) },
    });
    session.start();
    let answer: RpcToolResponse | undefined;
    void callTool(agent, 'hang', { requestId: 'm' }, 4000).then((r) => (answer = r));
    await vi.advanceTimersByTimeAsync(2999);
    expect(answer).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(answer?.code).toBe('TIMEOUT');
  });

  it('answers CANCELLED when the agent cancels the request id', async () => {
    const { hang, seen } = hangingHandler();
    const { session, agent, events } = setup({
      config: { tools: [{ name: 'hang' }] },
      handlers: { hang },
    });
    session.start();
    const answer = callTool(agent, 'hang', { requestId: 'c1' });
    await vi.advanceTimersByTimeAsync(10);
    const cancel = await cancelToolCall(agent, 'user', {
      requestId: 'c1',
      reason: 'user changed topic',
    });
    expect(cancel).toEqual({ requestId: 'c1', cancelled: true });
    expect(await answer).toEqual({
      requestId: 'c1',
      code: 'CANCELLED',
      data: { message: 'user changed topic' },
    });
    expect(seen.signal?.aborted).toBe(true);
    expect(events.at(-1)?.status).toBe('cancelled');
    const unknown = await cancelToolCall(agent, 'user', { requestId: 'c1' });
    expect(unknown).toEqual({ requestId: 'c1', cancelled: false });
  });

  it('answers CANCELLED for running calls when the session stops', async () => {
    const { session, agent } = setup({
      config: { tools: [{ name: 'hang' }] },
      handlers: { hang: () => new Promise<never>(() => {}) },
    });
    session.start();
    const answer = callTool(agent, 'hang', { requestId: 's1' });
    await vi.advanceTimersByTimeAsync(10);
    session.stop();
    expect((await answer).code).toBe('CANCELLED');
  });

  it('aborts the handler when the calling agent disconnects', async () => {
    const { hang, seen } = hangingHandler();
    const { session, agent } = setup({ config: { tools: [{ name: 'hang' }] }, handlers: { hang } });
    session.start();
    void callTool(agent, 'hang', { requestId: 'd1' }).catch(() => {});
    await vi.advanceTimersByTimeAsync(10);
    agent.disconnect();
    expect(seen.signal?.aborted).toBe(true);
    expect(session.inflightCount).toBe(0);
  });

  it('turns a response over the payload limit into ERROR but still delivers componentData', async () => {
    const { session, agent, events } = setup({
      config: { tools: [{ name: 'big', feature: 'catalog' }] },
      handlers: {
        big: (requestId) => ({
          requestId,
          response: { code: 'SUCCESS', data: { blob: 'x'.repeat(16000) } },
          componentData: { rows: 3 },
        }),
      },
    });
    session.start();
    const answer = await callTool(agent, 'big', { requestId: 'b1' });
    expect(answer.code).toBe('ERROR');
    expect(answer.data).toMatchObject({ limit: 15360 });
    expect((answer.data as { message: string }).message).toMatch(
      /over the transport limit of 15360 bytes/,
    );
    expect(events.at(-1)).toMatchObject({ status: 'error', componentData: { rows: 3 } });
  });

  it('answers ERROR for data that cannot be serialized', async () => {
    const { session, agent } = setup({
      config: { tools: [{ name: 'bigint' }] },
      handlers: { bigint: (requestId) => ({ requestId, response: { code: 'SUCCESS', data: 1n } }) },
    });
    session.start();
    const answer = await callTool(agent, 'bigint', { requestId: 'n' });
    expect(answer.code).toBe('ERROR');
  });

  it('refuses a second call with a request id that is still running', async () => {
    const { session, agent } = setup({
      config: { tools: [{ name: 'hang', timeout_ms: 1000 }] },
      handlers: { hang: () => new Promise<never>(() => {}) },
    });
    session.start();
    const first = callTool(agent, 'hang', { requestId: 'dup' }, 1000);
    const second = await callTool(agent, 'hang', { requestId: 'dup' }, 1000);
    expect(second.data).toEqual({ message: 'A call with requestId dup is already running' });
    await vi.advanceTimersByTimeAsync(1000);
    expect((await first).code).toBe('TIMEOUT');
  });

  it('applies configs by method name: add, replace, remove, idempotent', () => {
    const { session, user } = setup({ config: { tools: [] } });
    const register = vi.spyOn(user, 'registerMethod');
    const unregister = vi.spyOn(user, 'unregisterMethod');
    session.start();
    register.mockClear();
    const v1 = { tools: [{ name: 'a' }, { name: 'b' }], settings: { v: 1 } };
    session.applyConfig(v1);
    session.applyConfig(v1);
    expect(register.mock.calls.map((c) => c[0]).sort()).toEqual(['a', 'b']);
    session.applyConfig({
      tools: [{ name: 'a', description: 'new' }, { name: 'c' }],
      settings: { v: 2 },
    });
    expect(unregister.mock.calls.map((c) => c[0])).toEqual(['b']);
    expect(register.mock.calls.map((c) => c[0]).sort()).toEqual(['a', 'b', 'c']);
    expect(session.toolsByMethod.get('a')?.description).toBe('new');
    expect(session.currentSettings).toEqual({ v: 2 });
    expect(user.registeredMethods.sort()).toEqual(['a', 'c', 'scenaro__cancel_tool_call']);
  });

  it('skips tools that collide with another tool or a reserved method', () => {
    const { session, user, logger } = setup({
      config: {
        tools: [
          { name: 'one', frontend_method: 'shared' },
          { name: 'two', frontend_method: 'shared' },
          { name: 'evil', frontend_method: 'scenaro__ui_activity_check' },
          { name: '' },
        ],
      },
    });
    session.start();
    expect(user.registeredMethods.sort()).toEqual(['scenaro__cancel_tool_call', 'shared']);
    expect(session.toolsByMethod.get('shared')?.name).toBe('one');
    expect(logger.messages('warn')).toEqual([
      'tool skipped: method already used by another tool',
      'tool skipped: reserved method name',
      'tool skipped: invalid name',
    ]);
  });

  it('logs instead of throwing when a method is already taken on the transport', () => {
    const { session, user, logger } = setup();
    user.registerMethod('search_collection_items', () => 'someone else');
    expect(() => session.start()).not.toThrow();
    expect(logger.messages('error')).toEqual(['could not register RPC method']);
    session.stop();
    expect(user.registeredMethods).toEqual(['search_collection_items']);
  });

  it('survives a reconnect of its transport: calls in flight are cancelled, methods stay', async () => {
    const { hang, seen } = hangingHandler();
    const { session, agent, user } = setup({
      config: { tools: [searchTool, { name: 'hang' }] },
      handlers: { search_collection_items: searchHandler, hang },
    });
    session.start();
    void callTool(agent, 'hang', { requestId: 'h' }).catch(() => {});
    await vi.advanceTimersByTimeAsync(5);
    user.disconnect('network lost');
    expect(seen.signal?.aborted).toBe(true);
    expect(session.inflightCount).toBe(0);
    user.reconnect();
    expect(session.state).toBe('active');
    const answer = await callTool(agent, 'search_collection_items', {
      requestId: 'after',
      args: { query: 'q' },
    });
    expect(answer.code).toBe('SUCCESS');
  });

  it('refuses callers rejected by isAllowedCaller', async () => {
    const { session, agent } = setup({ isAllowedCaller: (identity) => identity === 'agent-007' });
    session.start();
    await expect(
      callTool(agent, 'search_collection_items', { requestId: 'x' }, 1000),
    ).rejects.toMatchObject({ code: 1500, message: 'Application error in method handler' });
  });

  it('serialises parallel collection writes from parallel tool calls', async () => {
    const handlers: ToolHandlers = {
      add_to_cart: async (requestId, args, _s, collections) => {
        const cart = collections.get<string[]>('cart');
        const next = await cart.update(async (items = []) => {
          await new Promise((r) => setTimeout(r, Number(args['delay'])));
          return [...items, String(args['sku'])];
        });
        return { requestId, response: { code: 'SUCCESS', data: { count: next.length } } };
      },
    };
    const { session, agent } = setup({
      config: { tools: [{ name: 'add_to_cart' }] },
      handlers,
      collections: { cart: [] },
    });
    session.start();
    const calls = [
      callTool(agent, 'add_to_cart', { requestId: '1', args: { sku: 'a', delay: 300 } }),
      callTool(agent, 'add_to_cart', { requestId: '2', args: { sku: 'b', delay: 10 } }),
      callTool(agent, 'add_to_cart', { requestId: '3', args: { sku: 'c', delay: 100 } }),
    ];
    await vi.advanceTimersByTimeAsync(500);
    const answers = await Promise.all(calls);
    expect(answers.map((a) => a.data)).toEqual([{ count: 1 }, { count: 2 }, { count: 3 }]);
    expect(session.collections.get('cart').get()).toEqual(['a', 'b', 'c']);
  });

  it('answers the UI activity check during an active session', async () => {
    const target = new EventTarget();
    let now = 1_000_000;
    const { session, agent, user } = setup({
      activity: { target, document: null, clock: () => now, idleThresholdMs: 5000 },
    });
    const check = async () =>
      JSON.parse(
        await agent.performRpc({
          destinationIdentity: 'user',
          method: 'scenaro__ui_activity_check',
          payload: '',
          responseTimeoutMs: 3000,
        }),
      ) as Record<string, unknown>;
    session.start();
    now += 6000;
    expect(await check()).toMatchObject({ active: false, idleMs: 6000 });
    target.dispatchEvent(new Event('pointerdown'));
    now += 100;
    expect(await check()).toEqual({
      active: true,
      idleMs: 100,
      lastActivityAt: 1_006_000,
      visible: true,
      focused: true,
    });
    session.stop();
    expect(user.registeredMethods).toEqual([]);
    await expect(check()).rejects.toMatchObject({ code: 1400 });
  });

  it('feeds a FeatureStore with the latest componentData and status', async () => {
    const { session, agent } = setup();
    const store = new FeatureStore();
    const disconnect = store.connect(session);
    session.start();
    await callTool(agent, 'search_collection_items', { requestId: 'f1', args: { query: 'a' } });
    const first = store.get('catalog');
    expect(first).toMatchObject({ status: 'success', componentData: { searchQuery: 'a' } });
    await callTool(agent, 'search_collection_items', { requestId: 'f2', args: {} });
    expect(store.get('catalog')).toMatchObject({
      requestId: 'f2',
      status: 'error',
      componentData: { searchQuery: 'a' },
    });
    expect(store.get('catalog')).not.toBe(first);
    disconnect();
    expect(session.listenerCount).toBe(1); // the test's own listener
  });

  it('leaves no handler, timer, listener or in-flight call behind after 10,000 calls', async () => {
    const { session, agent, user, network } = setup({
      config: { tools: [searchTool, { name: 'slow', timeout_ms: 2000 }, { name: 'boom' }] },
      handlers: {
        search_collection_items: searchHandler,
        slow: () => new Promise<never>(() => {}),
        boom: () => {
          throw new Error('x');
        },
      },
      activity: { target: new EventTarget(), document: null },
    });
    const store = new FeatureStore();
    const unsubscribe = store.connect(session);
    session.start();
    const codes = new Map<string, number>();
    for (let batch = 0; batch < 100; batch++) {
      const calls: Promise<RpcToolResponse>[] = [];
      for (let i = 0; i < 100; i++) {
        const n = batch * 100 + i;
        const method = n % 10 === 0 ? 'slow' : n % 10 === 1 ? 'boom' : 'search_collection_items';
        calls.push(callTool(agent, method, { requestId: `q${n}`, args: { query: 'x' } }, 2000));
      }
      await vi.advanceTimersByTimeAsync(2000);
      for (const answer of await Promise.all(calls)) {
        codes.set(answer.code, (codes.get(answer.code) ?? 0) + 1);
      }
    }
    expect(Object.fromEntries(codes)).toEqual({ SUCCESS: 8000, TIMEOUT: 1000, ERROR: 1000 });
    session.stop();
    unsubscribe();
    expect(user.registeredMethods).toEqual([]);
    expect(user.disconnectListenerCount).toBe(0);
    expect(user.runningHandlerCount).toBe(0);
    expect(agent.pendingCallCount).toBe(0);
    expect(session.inflightCount).toBe(0);
    expect(session.activity?.listenerCount).toBe(0);
    expect(session.listenerCount).toBe(1);
    expect(network.activeTimerCount).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
