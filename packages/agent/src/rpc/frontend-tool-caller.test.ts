import { ScenaroSession, createLoopbackPair, silentLogger } from '@scenaro/sdk';
import type { LoopbackPairOptions, ToolHandler, ToolHandlers } from '@scenaro/sdk';
import type { RpcToolResponse } from '@scenaro/sdk/protocol';
import { describe, expect, it, vi } from 'vitest';
import { useFakeTimersInEachTest } from '@scenaro/sdk/testing';
import { FrontendToolCaller, responseFromRpcFailure } from './frontend-tool-caller.js';

const never: ToolHandler = () => new Promise<never>(() => {});

function setup(
  handlers: ToolHandlers = {},
  pairOptions: LoopbackPairOptions = {},
  activity: false | { target: EventTarget; document: null; clock: () => number } = false,
) {
  const pair = createLoopbackPair(pairOptions);
  const session = new ScenaroSession({
    transport: pair.user,
    activity,
    logger: silentLogger,
    config: {
      tools: [
        { name: 'search', parameters: { type: 'object', required: ['query'] } },
        { name: 'slow', timeout_ms: 3000 },
        { name: 'renamed', frontend_method: 'custom_rpc' },
      ],
    },
    handlers: {
      search: (requestId, args, _s, _c, ctx) => ({
        requestId,
        response: { code: 'SUCCESS', data: { query: args['query'], sentAt: ctx.sentAt } },
      }),
      slow: never,
      renamed: (requestId) => ({ requestId, response: { code: 'SUCCESS', data: 'renamed' } }),
      ...handlers,
    },
  });
  session.start();
  const caller = new FrontendToolCaller({
    transport: pair.agent,
    destinationIdentity: 'user',
    now: () => 1234,
  });
  return { ...pair, session, caller };
}

/** Resolve-state probe for a promise. */
function track<T>(promise: Promise<T>) {
  const state: { value?: T } = {};
  void promise.then((value) => (state.value = value));
  return state;
}

describe('FrontendToolCaller', () => {
  useFakeTimersInEachTest();

  it('builds the RpcToolRequest and returns the frontend response', async () => {
    const { caller } = setup();
    const response = await caller.call('search', { query: 'sancerre' });
    expect(response.code).toBe('SUCCESS');
    expect(response.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.data).toEqual({ query: 'sancerre', sentAt: 1234 });
    expect(await caller.call({ name: 'renamed', frontend_method: 'custom_rpc' })).toMatchObject({
      code: 'SUCCESS',
      data: 'renamed',
    });
    expect(caller.pendingCount).toBe(0);
  });

  it('passes through the frontend structured TIMEOUT before its own deadline', async () => {
    const { caller } = setup();
    const state = track(
      caller.call({ name: 'slow', timeout_ms: 3000 }, {}, { requestId: 'r-slow' }),
    );
    await vi.advanceTimersByTimeAsync(2499);
    expect(state.value).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(state.value).toMatchObject({ requestId: 'r-slow', code: 'TIMEOUT' });
    expect((state.value?.data as { lkCode?: number }).lkCode).toBeUndefined();
  });

  it('answers TIMEOUT itself at timeout + grace when the frontend stays silent', async () => {
    const { caller, user } = setup();
    user.registerMethod('raw_hang', () => new Promise<string>(() => {}));
    const state = track(caller.call('raw_hang', {}, { timeoutMs: 2000 }));
    await vi.advanceTimersByTimeAsync(2999);
    expect(state.value).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(state.value?.code).toBe('TIMEOUT');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('maps no ack (1501) to TIMEOUT with the LiveKit code', async () => {
    const { caller, user } = setup();
    user.setResponsive(false);
    const state = track(caller.call('search', { query: 'x' }));
    await vi.advanceTimersByTimeAsync(7000);
    expect(state.value).toMatchObject({ code: 'TIMEOUT', data: { lkCode: 1501 } });
  });

  it('maps unknown methods and oversized requests to ERROR, a departed browser to CANCELLED', async () => {
    const { caller, user } = setup();
    expect(await caller.call('missing_tool')).toMatchObject({
      code: 'ERROR',
      data: { lkCode: 1400, message: 'Method not supported at destination' },
    });
    expect(await caller.call('search', { query: 'x'.repeat(20000) })).toMatchObject({
      code: 'ERROR',
      data: { lkCode: 1402 },
    });
    const pending = caller.call('slow');
    await vi.advanceTimersByTimeAsync(10);
    user.disconnect();
    expect(await pending).toMatchObject({ code: 'CANCELLED', data: { lkCode: 1503 } });
  });

  it('answers ERROR for a response that is not an RpcToolResponse', async () => {
    const { caller, user } = setup();
    user.registerMethod('garbage', () => 'not json');
    expect((await caller.call('garbage')).code).toBe('ERROR');
  });

  it('cancels: the pending call resolves CANCELLED and the browser aborts the handler', async () => {
    let signal: AbortSignal | undefined;
    const { caller } = setup({
      slow: (_id, _a, _s, _c, ctx) => {
        signal = ctx.signal;
        return new Promise<never>(() => {});
      },
    });
    const pending = caller.call('slow', {}, { requestId: 'c1' });
    await vi.advanceTimersByTimeAsync(5);
    const cancelled = caller.cancel('c1', 'the user changed their mind');
    expect(await pending).toEqual({
      requestId: 'c1',
      code: 'CANCELLED',
      data: { message: 'the user changed their mind' },
    });
    expect(await cancelled).toBe(true);
    expect(signal?.aborted).toBe(true);
    expect(await caller.cancel('c1')).toBe(false);
  });

  it('aborting the signal answers CANCELLED and cancels in the browser', async () => {
    let signal: AbortSignal | undefined;
    const { caller, session } = setup({
      slow: (_id, _a, _s, _c, ctx) => {
        signal = ctx.signal;
        return new Promise<never>(() => {});
      },
    });
    const controller = new AbortController();
    const pending = caller.call('slow', {}, { signal: controller.signal });
    await vi.advanceTimersByTimeAsync(5);
    controller.abort(new Error('interrupted by the user'));
    expect(await pending).toMatchObject({
      code: 'CANCELLED',
      data: { message: 'interrupted by the user' },
    });
    await vi.advanceTimersByTimeAsync(5);
    expect(signal?.aborted).toBe(true);
    expect(session.inflightCount).toBe(0);
    expect((await caller.call('slow', {}, { signal: controller.signal })).code).toBe('CANCELLED');
  });

  it('checks UI activity within 3 s', async () => {
    const target = new EventTarget();
    let now = 10_000;
    const { caller, user } = setup({}, {}, { target, document: null, clock: () => now });
    now += 250;
    expect(await caller.checkUiActivity()).toEqual({
      ok: true,
      activity: { active: true, idleMs: 250, lastActivityAt: 10_000, visible: true, focused: true },
    });
    user.setResponsive(false);
    const state = track(caller.checkUiActivity());
    await vi.advanceTimersByTimeAsync(2999);
    expect(state.value).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(state.value).toMatchObject({ ok: false, code: 'TIMEOUT' });
    const noTracker = setup().caller;
    expect(await noTracker.checkUiActivity()).toMatchObject({
      ok: false,
      code: 'ERROR',
      lkCode: 1400,
    });
  });

  it('registers composer methods the browser session calls, and unregisters them', async () => {
    const { caller, session, agent } = setup();
    const seen: string[] = [];
    const unregister = caller.registerComposerMethods({
      start: (req, ctx) =>
        void seen.push(
          `start ${req.dictationId === session.composer.currentDictationId} ${ctx.callerIdentity}`,
        ),
      end: () => ({ transcript: 'une caisse de chablis' }),
      cancel: () => undefined,
    });
    // The session learns the agent's identity from its first tool call.
    await expect(session.composer.startDictation()).rejects.toMatchObject({ code: 1401 });
    await caller.call('search', { query: 'x' });
    const started = await session.composer.startDictation();
    expect(started.status).toBe('started');
    expect(await session.composer.endDictation()).toEqual({
      dictationId: started.dictationId,
      status: 'ended',
      transcript: 'une caisse de chablis',
    });
    expect((await session.composer.cancelDictation()).status).toBe('cancelled');
    expect(seen).toEqual(['start true user']);
    expect(() =>
      caller.registerComposerMethods({ start: () => {}, end: () => {}, cancel: () => {} }),
    ).toThrow(/already registered/);
    unregister();
    expect(agent.registeredMethods).toEqual([]);
    await expect(session.composer.startDictation()).rejects.toMatchObject({ code: 1400 });
  });

  it('leaves nothing pending after many calls of every outcome', async () => {
    const { caller, agent, network, session } = setup();
    const outcomes: Promise<RpcToolResponse>[] = [];
    for (let i = 0; i < 300; i++) {
      const which = i % 3;
      outcomes.push(
        which === 0
          ? caller.call('search', { query: String(i) })
          : which === 1
            ? caller.call('slow')
            : caller.call('search', {}),
      );
    }
    await vi.advanceTimersByTimeAsync(3000);
    const codes = (await Promise.all(outcomes)).map((r) => r.code);
    expect(codes.filter((c) => c === 'SUCCESS')).toHaveLength(100);
    expect(codes.filter((c) => c === 'TIMEOUT')).toHaveLength(100);
    expect(codes.filter((c) => c === 'ERROR')).toHaveLength(100);
    expect(caller.pendingCount).toBe(0);
    expect(agent.pendingCallCount).toBe(0);
    expect(session.inflightCount).toBe(0);
    expect(network.activeTimerCount).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('maps failures to responses', () => {
    expect(responseFromRpcFailure('r', new DOMException('stop', 'AbortError'))).toEqual({
      requestId: 'r',
      code: 'CANCELLED',
      data: { message: 'stop' },
    });
    expect(responseFromRpcFailure('r', new Error('boom')).code).toBe('ERROR');
  });
});
