import { RpcError as LiveKitRpcError } from 'livekit-client';
import type { Room } from 'livekit-client';
import { describe, expect, it, vi } from 'vitest';
import { cancelToolCall } from '../test-support/cancel-tool-call.js';
import { useFakeTimersInEachTest } from '../test-support/fake-timers.js';
import type { RpcToolResponse } from '../protocol/index.js';
import { RpcError } from '../rpc/errors.js';
import { createLoopbackPair } from '../rpc/loopback.js';
import type { RpcDisconnectEvent } from '../rpc/transport.js';
import { ScenaroSession } from '../session/scenaro-session.js';
import type { FeatureEvent, ToolHandlers } from '../session/types.js';
import { FakeLiveKitRoom } from '../test-support/fake-livekit-room.js';
import { createLiveKitTransport } from './livekit-transport.js';
import type { LiveKitRoomLike, LiveKitTransport } from './livekit-transport.js';

// Compile-time proof that a real livekit-client Room fits the adapter.
const roomFits: (room: Room) => LiveKitRoomLike = (room) => room;
void roomFits;

function setup(handlers: ToolHandlers, withNativeErrors = true) {
  const pair = createLoopbackPair({ agentIdentity: 'agent-1', userIdentity: 'visitor' });
  const userRoom = new FakeLiveKitRoom(pair.user);
  const agentRoom = new FakeLiveKitRoom(pair.agent);
  const user = createLiveKitTransport(
    userRoom,
    withNativeErrors ? { RpcError: LiveKitRpcError } : {},
  );
  const agent = createLiveKitTransport(agentRoom);
  const session = new ScenaroSession({
    transport: user,
    activity: false,
    config: {
      tools: [
        {
          name: 'add_to_cart',
          feature: 'cart',
          timeout_ms: 3000,
          parameters: { type: 'object', required: ['sku'] },
        },
        { name: 'hang' },
      ],
    },
    handlers,
  });
  const events: FeatureEvent[] = [];
  session.on('feature', (e) => events.push(e));
  return {
    network: pair.network,
    agentPeer: pair.agent,
    userRoom,
    agentRoom,
    user,
    agent,
    session,
    events,
  };
}

async function call(
  agent: LiveKitTransport,
  method: string,
  request: unknown,
  responseTimeoutMs = 10000,
): Promise<RpcToolResponse> {
  const payload = await agent.performRpc({
    destinationIdentity: 'visitor',
    method,
    payload: JSON.stringify(request),
    responseTimeoutMs,
  });
  return JSON.parse(payload) as RpcToolResponse;
}

const addToCart: ToolHandlers = {
  add_to_cart: (requestId, args) => ({
    requestId,
    response: { code: 'SUCCESS', data: { added: args['sku'] } },
    componentData: { sku: args['sku'] },
  }),
  hang: () => new Promise<never>(() => {}),
};

describe('LiveKit transport (fake Room over loopback)', () => {
  useFakeTimersInEachTest();

  it('runs the session in LiveKit mode: registration, call, feature event', async () => {
    const { session, agent, user, events } = setup(addToCart);
    session.start();
    expect(user.registeredMethods.sort()).toEqual([
      'add_to_cart',
      'hang',
      'scenaro__cancel_tool_call',
    ]);
    expect(user.localIdentity).toBe('visitor');
    expect(
      await call(agent, 'add_to_cart', { requestId: 'r1', args: { sku: 'chablis-2022' } }),
    ).toEqual({
      requestId: 'r1',
      code: 'SUCCESS',
      data: { added: 'chablis-2022' },
    });
    expect(events.at(-1)).toMatchObject({
      feature: 'cart',
      status: 'success',
      componentData: { sku: 'chablis-2022' },
    });
    const invalid = await call(agent, 'add_to_cart', { requestId: 'r2', args: {} });
    expect(invalid.data).toMatchObject({ field: 'sku' });
    session.stop();
    expect(user.registeredMethods).toEqual([]);
    await expect(call(agent, 'add_to_cart', { requestId: 'r3' })).rejects.toMatchObject({
      code: 1400,
    });
  });

  it('answers TIMEOUT before a 3 s LiveKit call fails, though the handler was told 8 s', async () => {
    let visible = 0;
    const { session, agent } = setup({
      ...addToCart,
      add_to_cart: (_id, _a, _s, _c, ctx) => {
        visible = ctx.deadline;
        return new Promise<never>(() => {});
      },
    });
    session.start();
    const started = Date.now();
    let answer: RpcToolResponse | undefined;
    let failure: unknown;
    call(agent, 'add_to_cart', { requestId: 't', args: { sku: 'x' } }, 3000).then(
      (r) => (answer = r),
      (e: unknown) => (failure = e),
    );
    await vi.advanceTimersByTimeAsync(2499);
    expect(answer).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(answer?.code).toBe('TIMEOUT');
    expect(failure).toBeUndefined();
    expect(visible - started).toBe(2500);
  });

  it('cancels over LiveKit RPC', async () => {
    const { session, agent } = setup(addToCart);
    session.start();
    const pending = call(agent, 'hang', { requestId: 'c' });
    await vi.advanceTimersByTimeAsync(5);
    const cancelled = await cancelToolCall(agent, 'visitor', { requestId: 'c' });
    expect(cancelled).toEqual({ requestId: 'c', cancelled: true });
    expect((await pending).code).toBe('CANCELLED');
  });

  it('maps livekit-client RpcErrors to RpcError with their codes, both ways', async () => {
    const { user, agent } = setup(addToCart);
    user.registerMethod('refuse', () => {
      throw new RpcError(4001, 'out of stock', 'sku-1');
    });
    const error = await agent
      .performRpc({
        destinationIdentity: 'visitor',
        method: 'refuse',
        payload: '',
        responseTimeoutMs: 1000,
      })
      .catch((e: unknown) => e);
    expect(RpcError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 4001, message: 'out of stock', data: 'sku-1' });
    expect(error).not.toBeInstanceOf(LiveKitRpcError);
  });

  it('without livekit-client RpcError, a thrown RpcError reaches the caller as 1500', async () => {
    const { user, agent } = setup(addToCart, false);
    user.registerMethod('refuse', () => {
      throw new RpcError(4001, 'out of stock');
    });
    await expect(
      agent.performRpc({
        destinationIdentity: 'visitor',
        method: 'refuse',
        payload: '',
        responseTimeoutMs: 1000,
      }),
    ).rejects.toMatchObject({ code: 1500, data: 'Uncaught error: out of stock' });
  });

  it('turns ParticipantDisconnected into a peer event, aborting that caller’s handlers', async () => {
    let signal: AbortSignal | undefined;
    const { session, agent, user, agentPeer } = setup({
      ...addToCart,
      hang: (_id, _a, _s, _c, ctx) => {
        signal = ctx.signal;
        return new Promise<never>(() => {});
      },
    });
    const events: RpcDisconnectEvent[] = [];
    user.onDisconnect((e) => events.push(e));
    session.start();
    const pending = call(agent, 'hang', { requestId: 'h' }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(5);
    agentPeer.disconnect();
    expect(events).toEqual([{ kind: 'peer', identity: 'agent-1' }]);
    expect(signal?.aborted).toBe(true);
    expect(await pending).toMatchObject({ code: 1503 });
  });

  it('dispose detaches from the Room and unregisters its methods', () => {
    const { user, userRoom } = setup(addToCart);
    user.registerMethod('m', () => '');
    expect(userRoom.listenerCount('participantDisconnected')).toBe(1);
    expect(userRoom.listenerCount('disconnected')).toBe(1);
    user.dispose();
    expect(userRoom.listenerCount('participantDisconnected')).toBe(0);
    expect(userRoom.listenerCount('disconnected')).toBe(0);
    expect(user.registeredMethods).toEqual([]);
    expect(() => user.registerMethod('m', () => '')).not.toThrow();
  });

  it('rejects with the abort reason, and fails a call that never settles', async () => {
    const stuck: LiveKitRoomLike = {
      registerRpcMethod: () => {},
      unregisterRpcMethod: () => {},
      localParticipant: { identity: 'me', performRpc: () => new Promise<string>(() => {}) },
      on: () => undefined,
      off: () => undefined,
    };
    const transport = createLiveKitTransport(stuck);
    const controller = new AbortController();
    const aborted = transport.performRpc({
      destinationIdentity: 'x',
      method: 'm',
      payload: '',
      responseTimeoutMs: 3000,
      signal: controller.signal,
    });
    controller.abort(new Error('unmounted'));
    await expect(aborted).rejects.toThrow('unmounted');
    let error: unknown;
    transport
      .performRpc({ destinationIdentity: 'x', method: 'm', payload: '', responseTimeoutMs: 3000 })
      .catch((e: unknown) => (error = e));
    await vi.advanceTimersByTimeAsync(7999);
    expect(error).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(error).toMatchObject({ code: 1502 });
    expect(vi.getTimerCount()).toBe(0);
  });
});
