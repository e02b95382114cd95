import { describe, expect, it, vi } from 'vitest';
import { useFakeTimersInEachTest } from '../test-support/fake-timers.js';
import { RpcError } from './errors.js';
import { createRecordingLogger } from '../test-support/recording-logger.js';
import { LoopbackNetwork, createLoopbackPair, handlerVisibleTimeout } from './loopback.js';
import type { RpcInvocation, RpcTransport } from './transport.js';

/** Observe a promise's state without awaiting it. */
function track<T>(promise: Promise<T>) {
  const state: { status: 'pending' | 'resolved' | 'rejected'; value?: T; error?: unknown } = {
    status: 'pending',
  };
  promise.then(
    (value) => Object.assign(state, { status: 'resolved', value }),
    (error: unknown) => Object.assign(state, { status: 'rejected', error }),
  );
  return state;
}

/** `from` calls `method` on `to` with an empty payload. */
function rpc(from: RpcTransport, to: string, method: string, responseTimeoutMs: number) {
  return from.performRpc({ destinationIdentity: to, method, payload: '', responseTimeoutMs });
}

/** {@link rpc}, with the call's state tracked. */
function call(from: RpcTransport, to: string, method: string, responseTimeoutMs: number) {
  return track(rpc(from, to, method, responseTimeoutMs));
}

function codeOf(error: unknown): number | undefined {
  return RpcError.isInstance(error) ? error.code : undefined;
}

describe('loopback transport', () => {
  useFakeTimersInEachTest();

  it('delivers a call and its answer, with caller identity and payload', async () => {
    const { agent, user, network } = createLoopbackPair();
    const seen: RpcInvocation[] = [];
    user.registerMethod('echo', (inv) => {
      seen.push(inv);
      return `echo:${inv.payload}`;
    });
    const answer = await agent.performRpc({
      destinationIdentity: 'user',
      method: 'echo',
      payload: 'hi',
      responseTimeoutMs: 3000,
    });
    expect(answer).toBe('echo:hi');
    expect(seen[0]?.callerIdentity).toBe('agent');
    expect(seen[0]?.payload).toBe('hi');
    expect(seen[0]?.signal?.aborted).toBe(false);
    expect(network.activeTimerCount).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('shows the handler the timeout as the caller runtime computes it', async () => {
    expect(handlerVisibleTimeout('js', 3000)).toBe(8000);
    expect(handlerVisibleTimeout('js', 12000)).toBe(12000);
    expect(handlerVisibleTimeout('rust', 3000)).toBe(1000);
    expect(handlerVisibleTimeout('rust', 10000)).toBe(3000);
    for (const [runtime, expected] of [
      ['js', 8000],
      ['rust', 1000],
    ] as const) {
      const { agent, user } = createLoopbackPair({ agentRuntime: runtime });
      user.registerMethod('t', (inv) => String(inv.responseTimeoutMs));
      const answer = await agent.performRpc({
        destinationIdentity: 'user',
        method: 't',
        payload: '',
        responseTimeoutMs: 3000,
      });
      expect(Number(answer)).toBe(expected);
    }
  });

  it('answers an unknown method with 1400 after acknowledging it', async () => {
    const { agent } = createLoopbackPair();
    await expect(rpc(agent, 'user', 'nope', 1000)).rejects.toMatchObject({
      code: 1400,
      message: 'Method not supported at destination',
    });
  });

  it('refuses requests over 15360 UTF-8 bytes with 1402 (not UTF-16 length)', async () => {
    const { agent, user } = createLoopbackPair();
    user.registerMethod('m', () => 'ok');
    const call = (payload: string) =>
      agent.performRpc({
        destinationIdentity: 'user',
        method: 'm',
        payload,
        responseTimeoutMs: 1000,
      });
    await expect(call('x'.repeat(15360))).resolves.toBe('ok');
    // 7681 characters, 15362 bytes.
    await expect(call('é'.repeat(7681))).rejects.toMatchObject({ code: 1402 });
  });

  it('refuses responses over the limit with 1504', async () => {
    const { agent, user } = createLoopbackPair();
    user.registerMethod('big', () => '€'.repeat(5121)); // 15363 bytes
    user.registerMethod('fits', () => '€'.repeat(5120)); // 15360 bytes
    const call = (method: string) => rpc(agent, 'user', method, 1000);
    await expect(call('big')).rejects.toMatchObject({ code: 1504 });
    await expect(call('fits')).resolves.toHaveLength(5120);
  });

  it('turns a non-RpcError throw into 1500 and keeps an RpcError as thrown', async () => {
    const logger = createRecordingLogger();
    const { lines } = logger;
    const { agent, user } = createLoopbackPair({ logger });
    user.registerMethod('crash', () => {
      throw new TypeError('kaboom');
    });
    user.registerMethod('refuse', async () => {
      throw new RpcError(4001, 'x'.repeat(400), 'detail');
    });
    const call = (method: string) => rpc(agent, 'user', method, 1000);
    const crash = await call('crash').catch((e: unknown) => e);
    expect(crash).toMatchObject({ code: 1500, data: 'Uncaught error: kaboom' });
    expect(lines.some((l) => l.level === 'warn' && l.fields?.['method'] === 'crash')).toBe(true);
    const refuse = await call('refuse').catch((e: unknown) => e);
    expect(refuse).toMatchObject({ code: 4001, data: 'detail' });
    expect((refuse as RpcError).message).toBe('x'.repeat(256));
    expect(RpcError.isInstance(refuse)).toBe(true);
  });

  it('throws on duplicate registration and allows it again after unregistering', () => {
    const { user } = createLoopbackPair();
    user.registerMethod('m', () => '');
    expect(() => user.registerMethod('m', () => '')).toThrow(/already registered/);
    user.unregisterMethod('m');
    expect(() => user.registerMethod('m', () => '')).not.toThrow();
    expect(user.registeredMethods).toEqual(['m']);
  });

  it('rejects with 1501 exactly when no ack arrives within 7000 ms', async () => {
    const { agent, user, network } = createLoopbackPair();
    user.registerMethod('m', () => 'ok');
    user.setResponsive(false);
    const state = call(agent, 'user', 'm', 10000);
    await vi.advanceTimersByTimeAsync(6999);
    expect(state.status).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(state.status).toBe('rejected');
    expect(codeOf(state.error)).toBe(1501);
    expect(network.activeTimerCount).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects with 1501 when latency delays the ack past the window', async () => {
    const { agent, user } = createLoopbackPair({ latencyMs: 3600 });
    user.registerMethod('m', () => 'ok');
    const state = call(agent, 'user', 'm', 20000);
    await vi.advanceTimersByTimeAsync(7000);
    expect(codeOf(state.error)).toBe(1501);
    await vi.advanceTimersByTimeAsync(10000); // the late ack and response are dropped
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects a JS caller with 1502 at exactly its own timeout, whatever the handler was told', async () => {
    const { agent, user } = createLoopbackPair();
    let visible = 0;
    user.registerMethod('slow', (inv) => {
      visible = inv.responseTimeoutMs;
      return new Promise<string>(() => {});
    });
    const state = call(agent, 'user', 'slow', 3000);
    await vi.advanceTimersByTimeAsync(2999);
    expect(state.status).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(codeOf(state.error)).toBe(1502);
    expect(visible).toBe(8000);
  });

  it('starts a Rust caller response timer only once the ack arrives', async () => {
    const { agent, user } = createLoopbackPair({ agentRuntime: 'rust', latencyMs: 1000 });
    user.registerMethod('slow', () => new Promise<string>(() => {}));
    const state = call(agent, 'user', 'slow', 3000);
    await vi.advanceTimersByTimeAsync(4999); // ack at 2000, then 3000 ms
    expect(state.status).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(codeOf(state.error)).toBe(1502);
  });

  it('drops and logs a response arriving after the timeout', async () => {
    const logger = createRecordingLogger();
    const { lines } = logger;
    const { agent, user } = createLoopbackPair({ logger });
    user.registerMethod(
      'late',
      () => new Promise<string>((resolve) => setTimeout(() => resolve('late'), 5000)),
    );
    const state = call(agent, 'user', 'late', 3000);
    await vi.advanceTimersByTimeAsync(5000);
    expect(codeOf(state.error)).toBe(1502);
    expect(lines.map((l) => l.message)).toContain('Response received for unexpected RPC request');
  });

  it('takes the configured latency in each direction', async () => {
    const { agent, user } = createLoopbackPair({ latencyMs: 250 });
    user.registerMethod('m', () => 'ok');
    const state = call(agent, 'user', 'm', 3000);
    await vi.advanceTimersByTimeAsync(499);
    expect(state.status).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(state.value).toBe('ok');
  });

  it('rejects pending calls with 1503 when the recipient leaves and aborts its handlers', async () => {
    const { agent, user } = createLoopbackPair();
    const agentEvents: unknown[] = [];
    const userEvents: unknown[] = [];
    agent.onDisconnect((e) => agentEvents.push(e));
    user.onDisconnect((e) => userEvents.push(e));
    let handlerSignal: AbortSignal | undefined;
    user.registerMethod('hang', (inv) => {
      handlerSignal = inv.signal;
      return new Promise<string>(() => {});
    });
    agent.registerMethod('hang', () => new Promise<string>(() => {}));
    const toUser = call(agent, 'user', 'hang', 9000);
    const toAgent = call(user, 'agent', 'hang', 9000);
    await vi.advanceTimersByTimeAsync(0);
    agent.disconnect('bye');
    await vi.advanceTimersByTimeAsync(0);
    expect(codeOf(toAgent.error)).toBe(1503);
    expect(codeOf(toUser.error)).toBe(1503);
    expect(handlerSignal?.aborted).toBe(true);
    expect(agentEvents).toEqual([{ kind: 'local', reason: 'bye' }]);
    expect(userEvents).toEqual([{ kind: 'peer', identity: 'agent' }]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('fails calls to an identity that is not there with 1501 (the request is lost)', async () => {
    const { agent } = createLoopbackPair();
    const state = call(agent, 'ghost', 'm', 20000);
    await vi.advanceTimersByTimeAsync(7000);
    expect(codeOf(state.error)).toBe(1501);
  });

  it('rejects with the abort reason and clears its timers when the signal aborts', async () => {
    const { agent, user, network } = createLoopbackPair();
    user.registerMethod('hang', () => new Promise<string>(() => {}));
    const controller = new AbortController();
    const hang = () =>
      agent.performRpc({
        destinationIdentity: 'user',
        method: 'hang',
        payload: '',
        responseTimeoutMs: 5000,
        signal: controller.signal,
      });
    const state = track(hang());
    await vi.advanceTimersByTimeAsync(10);
    controller.abort(new Error('stop'));
    await vi.advanceTimersByTimeAsync(0);
    expect((state.error as Error).message).toBe('stop');
    expect(agent.pendingCallCount).toBe(0);
    expect(network.activeTimerCount).toBe(0);
    await expect(hang()).rejects.toThrow('stop');
  });

  it('keeps handlers across a reconnect and refuses to send while disconnected', async () => {
    const network = new LoopbackNetwork();
    const agent = network.join('agent');
    const user = network.join('user');
    user.registerMethod('m', () => 'ok');
    user.disconnect();
    expect(network.identities).toEqual(['agent']);
    await expect(
      user.performRpc({
        destinationIdentity: 'agent',
        method: 'x',
        payload: '',
        responseTimeoutMs: 10,
      }),
    ).rejects.toMatchObject({ code: 1505 });
    user.reconnect();
    await expect(
      agent.performRpc({
        destinationIdentity: 'user',
        method: 'm',
        payload: '',
        responseTimeoutMs: 10,
      }),
    ).resolves.toBe('ok');
    expect(() => network.join('user')).toThrow(/already connected/);
  });

  it('dispose cancels messages in flight and disconnects everyone', async () => {
    const { agent, user, network } = createLoopbackPair({ latencyMs: 100 });
    user.registerMethod('m', () => 'ok');
    const state = call(agent, 'user', 'm', 1000);
    network.dispose();
    await vi.advanceTimersByTimeAsync(0);
    expect(codeOf(state.error)).toBe(1503);
    expect(agent.connected || user.connected).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });
});
