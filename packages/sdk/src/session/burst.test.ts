// A frontend tool handler that never answers, hit by a burst of 1,000 concurrent calls over the
// loopback transport: every call is answered TIMEOUT (never a transport error), other tools keep
// answering during the burst, and afterwards no handler, timer, listener or in-flight call is
// left behind. Once with real timers (what a browser does), once with fake timers (exact counts).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseRpcToolResponse } from '../protocol/index.js';
import type { RpcToolResponse } from '../protocol/index.js';
import { createLoopbackPair } from '../rpc/loopback.js';
import type { LoopbackTransport } from '../rpc/loopback.js';
import { silentLogger } from '../rpc/logger.js';
import { ScenaroSession } from './scenaro-session.js';
import type { ToolDefinition, ToolHandler } from './types.js';

const BURST = 1000;
/**
 * The hanging tool's budget; the session answers TIMEOUT max(budget - 500, budget / 2) after
 * receipt. Long enough that a loaded machine still answers every echo before it (2 cores at
 * load 10 send the burst and the 200 echoes in about 1.2 s, at load 17 in up to 3.7 s).
 */
const HANG_TIMEOUT_MS = 8000;
const ANSWER_AFTER_MS = 7500;
/** The caller's own timeout: far past the deadline, so every answer is the session's. */
const CALLER_TIMEOUT_MS = 30_000;

const hangTool: ToolDefinition = {
  name: 'hang',
  description: 'never answers',
  parameters: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
  timeout_ms: HANG_TIMEOUT_MS,
  feature: 'hang',
};
const echoTool: ToolDefinition = {
  name: 'echo',
  description: 'answers at once',
  parameters: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
};

async function call(
  agent: LoopbackTransport,
  method: string,
  requestId: string,
  n: number,
): Promise<RpcToolResponse> {
  const payload = await agent.performRpc({
    destinationIdentity: 'user',
    method,
    payload: JSON.stringify({ requestId, tool: method, args: { n }, sentAt: Date.now() }),
    responseTimeoutMs: CALLER_TIMEOUT_MS,
  });
  const parsed = parseRpcToolResponse(payload);
  if (!parsed.ok) throw new Error(`not an RpcToolResponse: ${payload}`);
  return parsed.value;
}

function setup() {
  const pair = createLoopbackPair();
  /** The signal each hanging call's handler was given, by request id. */
  const signals = new Map<string, AbortSignal>();
  const hang: ToolHandler = (requestId, _args, _settings, _collections, ctx) => {
    signals.set(requestId, ctx.signal);
    return new Promise<never>(() => {}); // never settles, ignores its signal
  };
  const echo: ToolHandler = (requestId, args) => ({
    requestId,
    response: { code: 'SUCCESS', data: { n: args['n'] } },
  });
  const session = new ScenaroSession({
    transport: pair.user,
    config: { tools: [hangTool, echoTool] },
    handlers: { hang, echo },
    activity: false,
    logger: silentLogger,
  });
  const features: string[] = [];
  const unsubscribe = session.on('feature', (e) => {
    if (e.status !== 'running') features.push(e.status);
  });
  session.start();
  return { ...pair, session, signals, features, unsubscribe };
}

type Setup = ReturnType<typeof setup>;

/** Nothing of the session or the transports is left holding a call, timer or listener. */
function expectNothingLeft({ agent, user, network, session, unsubscribe }: Setup): void {
  expect(session.inflightCount).toBe(0);
  expect(user.runningHandlerCount).toBe(0);
  expect(agent.pendingCallCount).toBe(0);
  expect(network.activeTimerCount).toBe(0);
  session.stop();
  unsubscribe();
  expect(user.registeredMethods).toEqual([]);
  expect(user.disconnectListenerCount).toBe(0);
  expect(session.listenerCount).toBe(0);
}

function countTimeouts(): number {
  return process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
}

/** Call `hang` {@link BURST} times (ids `<prefix>_<i>`); `answered()` counts the answers so far. */
function callHangBurst(s: Setup, prefix: string) {
  const ids = Array.from({ length: BURST }, (_, i) => `${prefix}_${i}`);
  let answered = 0;
  const burst = Promise.all(
    ids.map((id, i) =>
      call(s.agent, 'hang', id, i).then((answer) => {
        answered++;
        return answer;
      }),
    ),
  );
  return { ids, burst, answered: () => answered };
}

function expectAllTimedOut(answers: RpcToolResponse[], ids: string[], s: Setup): void {
  expect(answers).toHaveLength(BURST);
  const codes = new Map<string, number>();
  for (const answer of answers) codes.set(answer.code, (codes.get(answer.code) ?? 0) + 1);
  expect(Object.fromEntries(codes)).toEqual({ TIMEOUT: BURST });
  // each answer carries its own request id and the deadline it missed
  expect(answers.map((a) => a.requestId)).toEqual(ids);
  for (const answer of answers) {
    expect(answer.data).toEqual({
      message: `Tool hang did not finish within ${ANSWER_AFTER_MS} ms`,
      timeoutMs: ANSWER_AFTER_MS,
    });
  }
  // every handler was told to stop
  expect(s.signals.size).toBe(BURST);
  for (const signal of s.signals.values()) {
    expect(signal.aborted).toBe(true);
    expect((signal.reason as DOMException).name).toBe('TimeoutError');
  }
  expect(s.features.filter((f) => f === 'timeout')).toHaveLength(BURST);
}

describe('burst of 1,000 calls to a handler that never answers', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers every call TIMEOUT on real timers while other tools keep answering', async () => {
    const timersBefore = countTimeouts();
    const s = setup();
    const started = performance.now();
    const { ids, burst, answered } = callHangBurst(s, 'hang');
    // During the burst, another tool is answered while every hanging call still waits.
    const echoes = await Promise.all(
      Array.from({ length: 200 }, (_, i) => call(s.agent, 'echo', `echo_${i}`, i)),
    );
    expect(echoes.every((e, i) => e.code === 'SUCCESS' && (e.data as { n: number }).n === i)).toBe(
      true,
    );
    expect(answered()).toBe(0);
    expect(s.session.inflightCount).toBe(BURST);

    const answers = await burst;
    const elapsed = performance.now() - started;
    // Answered at the deadline: not before it, and inside the caller's timeout (the bound is
    // loose: a loaded machine takes seconds to answer 1,000 calls).
    expect(elapsed).toBeGreaterThanOrEqual(ANSWER_AFTER_MS - 5);
    expect(elapsed).toBeLessThan(CALLER_TIMEOUT_MS);
    expectAllTimedOut(answers, ids, s);
    expectNothingLeft(s);
    // no real timer of the session, the transports or the network is still armed
    expect(countTimeouts()).toBeLessThanOrEqual(timersBefore);
  });

  it('leaves no timer behind (fake timers, exact deadline)', async () => {
    vi.useFakeTimers();
    const s = setup();
    const { ids, burst, answered } = callHangBurst(s, 'fake');
    await vi.advanceTimersByTimeAsync(ANSWER_AFTER_MS - 1);
    expect(answered()).toBe(0);
    expect(s.session.inflightCount).toBe(BURST);
    expect(s.user.runningHandlerCount).toBe(BURST);
    await vi.advanceTimersByTimeAsync(1);
    const answers = await burst;
    expect(answered()).toBe(BURST);
    expectAllTimedOut(answers, ids, s);
    expectNothingLeft(s);
    expect(vi.getTimerCount()).toBe(0);
  });
});
