// The RTVI transport against a scripted client double, for the timer paths
// (fake timers) and failure mapping.
import { describe, expect, it, vi } from 'vitest';
import { useFakeTimersInEachTest } from '../test-support/fake-timers.js';
import { ScriptedEmitter } from '../test-support/scripted-emitter.js';
import { RpcError } from '../rpc/errors.js';
import type { RpcDisconnectEvent } from '../rpc/transport.js';
import { createRtviTransport } from './rtvi-transport.js';
import type { RtviClientLike } from './rtvi-transport.js';

class ScriptedClient extends ScriptedEmitter implements RtviClientLike {
  readonly sent: { t: string; d: unknown }[] = [];
  readonly requests: {
    t: string;
    d: unknown;
    timeout: number | undefined;
    resolve: (d: unknown) => void;
    reject: (e: unknown) => void;
  }[] = [];
  transport = { maxMessageSize: 1024 * 1024 };
  throwOnRequest: Error | undefined;

  sendClientMessage(t: string, d?: unknown): void {
    this.sent.push({ t, d });
  }
  sendClientRequest(t: string, d: unknown, timeout?: number): Promise<unknown> {
    if (this.throwOnRequest) throw this.throwOnRequest;
    return new Promise((resolve, reject) => this.requests.push({ t, d, timeout, resolve, reject }));
  }
}

const call = (
  transport: ReturnType<typeof createRtviTransport>,
  responseTimeoutMs = 1000,
  signal?: AbortSignal,
) =>
  transport.performRpc({
    destinationIdentity: 'agent',
    method: 'm',
    payload: 'p',
    responseTimeoutMs,
    ...(signal ? { signal } : {}),
  });

describe('RTVI transport (scripted client)', () => {
  useFakeTimersInEachTest();

  it('sends rpc-call and resolves with the server-response payload', async () => {
    const client = new ScriptedClient();
    const transport = createRtviTransport(client);
    const pending = call(transport);
    expect(client.requests[0]).toMatchObject({
      t: 'rpc-call',
      d: { method: 'm', payload: 'p', responseTimeoutMs: 1000 },
    });
    // client-js's own timeout is left beyond ours, so its 2 s sweep never wins.
    expect(client.requests[0]?.timeout).toBeGreaterThan(1000);
    client.requests[0]?.resolve({ payload: 'out' });
    await expect(pending).resolves.toBe('out');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects with 1502 at exactly responseTimeoutMs and ignores the late answer', async () => {
    const client = new ScriptedClient();
    const transport = createRtviTransport(client);
    let error: unknown;
    let value: unknown;
    call(transport, 1000).then(
      (v) => (value = v),
      (e: unknown) => (error = e),
    );
    await vi.advanceTimersByTimeAsync(999);
    expect(error).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(error).toMatchObject({ code: 1502 });
    client.requests[0]?.resolve({ payload: 'late' });
    client.requests[0]?.reject(new Error('client-js sweep'));
    await vi.advanceTimersByTimeAsync(0);
    expect(value).toBeUndefined();
    expect(transport.pendingCallCount).toBe(0);
  });

  it('maps error-responses, send failures and bad answers to RpcError', async () => {
    const client = new ScriptedClient();
    const transport = createRtviTransport(client);
    const coded = call(transport);
    client.requests[0]?.reject({
      label: 'rtvi-ai',
      type: 'error-response',
      id: 'x',
      data: { error: 'nope', code: 1400 },
    });
    await expect(coded).rejects.toMatchObject({ code: 1400, message: 'nope' });
    const plain = call(transport);
    client.requests[1]?.reject({
      label: 'rtvi-ai',
      type: 'error-response',
      id: 'y',
      data: { error: 'Unsupported type client-message' },
    });
    await expect(plain).rejects.toMatchObject({
      code: 1500,
      message: 'Unsupported type client-message',
    });
    const garbage = call(transport);
    client.requests[2]?.resolve({ nope: 1 });
    await expect(garbage).rejects.toMatchObject({ code: 1500 });
    client.throwOnRequest = Object.assign(
      new Error('Attempt to call sendClientRequest when transport not in ready state'),
      {
        name: 'BotNotReadyError',
      },
    );
    await expect(call(transport)).rejects.toMatchObject({ code: 1505 });
    client.throwOnRequest = Object.assign(new Error('Message data too large'), {
      name: 'MessageTooLargeError',
    });
    await expect(call(transport)).rejects.toMatchObject({ code: 1402 });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('refuses other destinations, oversized payloads and aborted signals', async () => {
    const client = new ScriptedClient();
    const transport = createRtviTransport(client, { maxPayloadBytes: 10 });
    await expect(
      transport.performRpc({
        destinationIdentity: 'stranger',
        method: 'm',
        payload: '',
        responseTimeoutMs: 10,
      }),
    ).rejects.toMatchObject({ code: 1401 });
    await expect(
      transport.performRpc({
        destinationIdentity: 'agent',
        method: 'm',
        payload: 'é'.repeat(6),
        responseTimeoutMs: 10,
      }),
    ).rejects.toMatchObject({ code: 1402 });
    const controller = new AbortController();
    const pending = call(transport, 1000, controller.signal);
    controller.abort(new Error('unmount'));
    await expect(pending).rejects.toThrow('unmount');
    expect(client.requests).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('acks, runs the handler and answers; oversized answers become 1504', async () => {
    const client = new ScriptedClient();
    client.transport.maxMessageSize = 200;
    const transport = createRtviTransport(client);
    transport.registerMethod(
      'echo',
      (inv) => `${inv.callerIdentity}:${inv.payload}:${inv.responseTimeoutMs}`,
    );
    transport.registerMethod('big', () => 'x'.repeat(100));
    client.emit('serverMessage', {
      type: 'rpc-request',
      requestId: 'r1',
      method: 'echo',
      payload: 'hi',
      responseTimeoutMs: 3000,
      callerIdentity: 'bot-7',
    });
    client.emit('serverMessage', {
      type: 'rpc-request',
      requestId: 'r2',
      method: 'big',
      payload: '',
      responseTimeoutMs: 3000,
    });
    client.emit('serverMessage', { type: 'something-else' });
    client.emit('serverMessage', { type: 'rpc-request', requestId: 'r3', method: 5 });
    await vi.advanceTimersByTimeAsync(0);
    // A caller named in a request becomes reachable.
    const toCaller = transport.performRpc({
      destinationIdentity: 'bot-7',
      method: 'm',
      payload: '',
      responseTimeoutMs: 100,
    });
    client.requests[0]?.resolve({ payload: 'hello' });
    await expect(toCaller).resolves.toBe('hello');
    // The agent is told once which methods this side answers.
    expect(client.sent.filter((m) => m.t === 'rpc-methods')).toEqual([
      { t: 'rpc-methods', d: { methods: ['echo', 'big'] } },
    ]);
    expect(client.sent.filter((m) => m.t !== 'rpc-methods')).toEqual([
      { t: 'rpc-ack', d: { requestId: 'r1' } },
      { t: 'rpc-ack', d: { requestId: 'r2' } },
      { t: 'rpc-response', d: { requestId: 'r3', error: expect.objectContaining({ code: 1500 }) } },
      { t: 'rpc-response', d: { requestId: 'r1', payload: 'bot-7:hi:3000' } },
      {
        t: 'rpc-response',
        d: { requestId: 'r2', error: { code: 1504, message: 'Response payload too large' } },
      },
    ]);
  });

  it('announces its methods again when the bot becomes ready', async () => {
    const client = new ScriptedClient();
    const transport = createRtviTransport(client);
    transport.registerMethod('a', () => '');
    transport.registerMethod('b', () => '');
    await Promise.resolve();
    transport.unregisterMethod('a');
    await Promise.resolve();
    client.emit('botReady', { version: '2.1.0' });
    await Promise.resolve();
    expect(client.sent).toEqual([
      { t: 'rpc-methods', d: { methods: ['a', 'b'] } },
      { t: 'rpc-methods', d: { methods: ['b'] } },
      { t: 'rpc-methods', d: { methods: ['b'] } },
    ]);
    transport.dispose();
  });

  it('aborts handlers and fails calls when the bot disconnects, then detaches on dispose', async () => {
    const client = new ScriptedClient();
    const transport = createRtviTransport(client);
    let signal: AbortSignal | undefined;
    transport.registerMethod('hang', (inv) => {
      signal = inv.signal;
      return new Promise<string>(() => {});
    });
    const events: RpcDisconnectEvent[] = [];
    transport.onDisconnect((e) => events.push(e));
    client.emit('serverMessage', {
      type: 'rpc-request',
      requestId: 'h',
      method: 'hang',
      payload: '',
      responseTimeoutMs: 3000,
    });
    const pending = call(transport, 5000);
    client.emit('botDisconnected', { id: 'bot' });
    await expect(pending).rejects.toSatisfy((e) => RpcError.isInstance(e) && e.code === 1503);
    expect(signal?.aborted).toBe(true);
    expect(events).toEqual([{ kind: 'peer', identity: 'agent' }]);
    client.emit('disconnected');
    expect(events.at(-1)).toEqual({ kind: 'local', reason: 'disconnected' });
    expect(client.listenerTotal()).toBe(4);
    transport.dispose();
    expect(client.listenerTotal()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
