// End to end over a real WebSocket: the real PipecatClient + WebSocketTransport
// (with the Node shims) against a tiny RTVI bot written here with `ws` and the
// protocol frame codec.
import type { PipecatClient } from '@pipecat-ai/client-js';
import { afterEach, describe, expect, it } from 'vitest';
import { RTVI_RPC_MESSAGES, rtviRpcCallErrorMessage, serverResponse } from '../protocol/index.js';
import type { RTVIMessage } from '../protocol/index.js';
import { RpcError } from '../rpc/errors.js';
import type { RpcDisconnectEvent } from '../rpc/transport.js';
import { ScenaroSession } from '../session/scenaro-session.js';
import { createPipecatNodeClient } from '../pipecat-node/index.js';
import { usePipecatNodeInEachSuite } from '../test-support/pipecat-suite.js';
import { TestBot, clientMessage } from '../test-support/rtvi-test-bot.js';
import { createRtviTransport } from './rtvi-transport.js';
import type { RtviClientLike, RtviTransport } from './rtvi-transport.js';

// Compile-time proof that a real PipecatClient fits the adapter.
const clientFits: (client: PipecatClient) => RtviClientLike = (client) => client;
void clientFits;

function botCalls(method: string, payload: string, id: string): RTVIMessage | undefined {
  switch (method) {
    case 'composer_start_dictation': {
      const { dictationId } = JSON.parse(payload) as { dictationId: string };
      return serverResponse(id, RTVI_RPC_MESSAGES.CALL, {
        payload: JSON.stringify({ dictationId, status: 'started' }),
      });
    }
    case 'refuse':
      return rtviRpcCallErrorMessage(id, { code: 4001, message: 'not now', data: 'busy' });
    case 'silent':
      return undefined;
    default:
      return rtviRpcCallErrorMessage(id, RpcError.builtIn('UNSUPPORTED_METHOD').toWire());
  }
}

describe('RTVI transport with the real PipecatClient', () => {
  let bot: TestBot;
  let client: PipecatClient;
  let transport: RtviTransport;
  let session: ScenaroSession;

  usePipecatNodeInEachSuite();

  async function connect(): Promise<void> {
    bot = await TestBot.start(botCalls);
    client = createPipecatNodeClient().client;
    transport = createRtviTransport(client, { remoteIdentity: 'bot' });
    session = new ScenaroSession({
      transport,
      activity: false,
      agentIdentity: 'bot',
      config: {
        tools: [
          {
            name: 'search',
            parameters: { type: 'object', required: ['query'] },
            feature: 'catalog',
          },
          { name: 'hang' },
        ],
      },
      handlers: {
        search: (requestId, args) => ({
          requestId,
          response: { code: 'SUCCESS', data: { hits: [String(args['query'])] } },
        }),
        hang: () => new Promise<never>(() => {}),
      },
    });
    session.start();
    await client.connect({ wsUrl: bot.url });
  }

  afterEach(async () => {
    session.stop();
    transport.dispose();
    await client.disconnect().catch(() => {});
    await bot.stop();
  });

  it('answers an agent tool call with an ack then the RpcToolResponse', async () => {
    await connect();
    const { ack, response } = await bot.request(
      'search',
      JSON.stringify({ requestId: 't1', tool: 'search', args: { query: 'margaux' } }),
    );
    expect(bot.received.indexOf(ack)).toBeGreaterThan(-1);
    expect('payload' in response && JSON.parse(response.payload)).toEqual({
      requestId: 't1',
      code: 'SUCCESS',
      data: { hits: ['margaux'] },
    });
    const invalid = await bot.request('search', JSON.stringify({ requestId: 't2', args: {} }));
    expect('payload' in invalid.response && JSON.parse(invalid.response.payload)).toMatchObject({
      code: 'ERROR',
      data: { field: 'query' },
    });
  });

  it('answers an unknown method with error 1400', async () => {
    await connect();
    const { response } = await bot.request('nope', '{}');
    expect(response).toEqual({
      requestId: expect.any(String),
      error: { code: 1400, message: 'Method not supported at destination' },
    });
  });

  it('cancels a running tool call by request id', async () => {
    await connect();
    const pending = bot.request('hang', JSON.stringify({ requestId: 'h1' }));
    await bot.waitFor((m) => clientMessage(m, 'rpc-ack') !== undefined);
    const cancel = await bot.request(
      'scenaro__cancel_tool_call',
      JSON.stringify({ requestId: 'h1' }),
    );
    expect('payload' in cancel.response && JSON.parse(cancel.response.payload)).toEqual({
      requestId: 'h1',
      cancelled: true,
    });
    const { response } = await pending;
    expect('payload' in response && JSON.parse(response.payload)).toMatchObject({
      code: 'CANCELLED',
    });
  });

  it('calls the agent with rpc-call: composer dictation, error codes, exact deadline', async () => {
    await connect();
    const started = await session.composer.startDictation();
    expect(started.status).toBe('started');
    const refused = await transport
      .performRpc({
        destinationIdentity: 'bot',
        method: 'refuse',
        payload: '',
        responseTimeoutMs: 2000,
      })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 4001, message: 'not now', data: 'busy' });
    expect(RpcError.isInstance(refused)).toBe(true);
    await expect(
      transport.performRpc({
        destinationIdentity: 'bot',
        method: 'other',
        payload: '',
        responseTimeoutMs: 2000,
      }),
    ).rejects.toMatchObject({ code: 1400 });
    // client-js alone would only notice after its 2 s sweep.
    const t0 = performance.now();
    await expect(
      transport.performRpc({
        destinationIdentity: 'bot',
        method: 'silent',
        payload: '',
        responseTimeoutMs: 300,
      }),
    ).rejects.toMatchObject({ code: 1502 });
    const elapsed = performance.now() - t0;
    expect(elapsed).toBeGreaterThanOrEqual(295);
    expect(elapsed).toBeLessThan(1000);
  });

  it('reports the socket closing as a local disconnect and fails pending calls with 1503', async () => {
    await connect();
    const events: RpcDisconnectEvent[] = [];
    transport.onDisconnect((e) => events.push(e));
    const pending = transport
      .performRpc({
        destinationIdentity: 'bot',
        method: 'silent',
        payload: '',
        responseTimeoutMs: 10000,
      })
      .catch((e: unknown) => e);
    await bot.waitFor((m) => clientMessage(m, 'rpc-call') !== undefined);
    bot.closeClient();
    expect(await pending).toMatchObject({ code: 1503 });
    expect(events[0]).toMatchObject({ kind: 'local' });
  });
});
