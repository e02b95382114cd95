import { describe, expect, it, vi } from 'vitest';
import { useFakeTimersInEachTest } from '../test-support/fake-timers.js';
import { parseComposerDictationRequest } from '../protocol/index.js';
import { RpcError } from '../rpc/errors.js';
import { createLoopbackPair } from '../rpc/loopback.js';
import { ComposerDictation, DictationTimeoutError } from './composer.js';
import { ScenaroSession } from './scenaro-session.js';

function setup(agentIdentity: string | null = 'agent') {
  const pair = createLoopbackPair();
  const composer = new ComposerDictation({
    transport: pair.user,
    agentIdentity: () => agentIdentity ?? undefined,
  });
  return { ...pair, composer };
}

describe('ComposerDictation', () => {
  useFakeTimersInEachTest();

  it('calls the three agent methods with one dictation id and typed results', async () => {
    const { agent, composer } = setup();
    const received: [string, unknown][] = [];
    for (const method of [
      'composer_start_dictation',
      'composer_end_dictation',
      'composer_cancel_dictation',
    ]) {
      agent.registerMethod(method, (inv) => {
        const parsed = parseComposerDictationRequest(inv.payload);
        received.push([method, parsed.ok ? parsed.value.dictationId : parsed.message]);
        return method === 'composer_end_dictation'
          ? JSON.stringify({ transcript: 'deux bouteilles' })
          : '';
      });
    }
    const started = await composer.startDictation();
    expect(started.status).toBe('started');
    expect(composer.currentDictationId).toBe(started.dictationId);
    const ended = await composer.endDictation();
    expect(ended).toEqual({
      dictationId: started.dictationId,
      status: 'ended',
      transcript: 'deux bouteilles',
    });
    expect(composer.currentDictationId).toBeUndefined();
    await composer.startDictation();
    expect((await composer.cancelDictation()).status).toBe('cancelled');
    expect(received.map(([m]) => m)).toEqual([
      'composer_start_dictation',
      'composer_end_dictation',
      'composer_start_dictation',
      'composer_cancel_dictation',
    ]);
    expect(received[0]?.[1]).toBe(received[1]?.[1]);
  });

  it.each([
    ['startDictation', 10000],
    ['endDictation', 15000],
    ['cancelDictation', 8000],
  ] as const)('%s rejects with DictationTimeoutError (1502) at exactly %i ms', async (call, ms) => {
    const { agent, composer, network } = setup();
    for (const method of [
      'composer_start_dictation',
      'composer_end_dictation',
      'composer_cancel_dictation',
    ]) {
      agent.registerMethod(method, () => new Promise<string>(() => {}));
    }
    let error: unknown;
    composer[call]().catch((e: unknown) => (error = e));
    await vi.advanceTimersByTimeAsync(ms - 1);
    expect(error).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(error).toBeInstanceOf(DictationTimeoutError);
    expect(RpcError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 1502, timeoutMs: ms });
    expect(network.activeTimerCount).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('reports an agent that never acknowledges as a DictationTimeoutError with code 1501', async () => {
    const { agent, composer } = setup();
    agent.setResponsive(false);
    let error: unknown;
    composer.startDictation().catch((e: unknown) => (error = e));
    await vi.advanceTimersByTimeAsync(7000);
    expect(error).toBeInstanceOf(DictationTimeoutError);
    expect(error).toMatchObject({ code: 1501, action: 'start' });
  });

  it('rethrows other transport errors and refuses without an agent identity', async () => {
    const { composer } = setup();
    await expect(composer.startDictation()).rejects.toMatchObject({ code: 1400 });
    const orphan = setup(null).composer;
    await expect(orphan.startDictation()).rejects.toMatchObject({ code: 1401 });
  });

  it('rejects with the abort reason when the caller aborts', async () => {
    const { agent, composer } = setup();
    agent.registerMethod('composer_end_dictation', () => new Promise<string>(() => {}));
    const controller = new AbortController();
    const pending = composer.endDictation({ signal: controller.signal });
    controller.abort(new Error('user closed the composer'));
    await expect(pending).rejects.toThrow('user closed the composer');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('refuses an answer that is not a dictation response', async () => {
    const { agent, composer } = setup();
    agent.registerMethod('composer_start_dictation', () => '{"status":"paused"}');
    await expect(composer.startDictation()).rejects.toMatchObject({ code: 1500 });
  });

  it('is reachable as session.composer, calling the last agent that called a tool', async () => {
    const { agent, user } = createLoopbackPair({ agentIdentity: 'agent-42' });
    const session = new ScenaroSession({
      transport: user,
      activity: false,
      config: { tools: [{ name: 'ping' }] },
      handlers: { ping: (requestId) => ({ requestId, response: { code: 'SUCCESS' } }) },
    });
    session.start();
    await expect(session.composer.startDictation()).rejects.toMatchObject({ code: 1401 });
    await agent.performRpc({
      destinationIdentity: 'user',
      method: 'ping',
      payload: '{"requestId":"p"}',
      responseTimeoutMs: 1000,
    });
    agent.registerMethod('composer_start_dictation', (inv) =>
      JSON.stringify({ data: inv.callerIdentity }),
    );
    await expect(session.composer.startDictation()).resolves.toMatchObject({ data: 'user' });
  });
});
