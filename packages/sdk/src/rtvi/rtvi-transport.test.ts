// End to end over a real WebSocket: the real PipecatClient + WebSocketTransport
// (with the Node shims) against a tiny RTVI bot written here with `ws` and the
// protocol frame codec.
import { LogLevel, logger as pipecatLogger } from '@pipecat-ai/client-js';
import type { PipecatClient } from '@pipecat-ai/client-js';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  RTVI_PROTOCOL_VERSION,
  RTVI_RPC_MESSAGES,
  botReady,
  decodeRtviFrame,
  encodeRtviFrame,
  parseRtviRpcCall,
  rtviRpcCallErrorMessage,
  rtviRpcRequestMessage,
  serverResponse,
} from '../protocol/index.js';
import type { RTVIMessage, RtviRpcResponseData } from '../protocol/index.js';
import { RpcError } from '../rpc/errors.js';
import type { RpcDisconnectEvent } from '../rpc/transport.js';
import { ScenaroSession } from '../session/scenaro-session.js';
import { createNodePipecatClient, installPipecatNodeShims } from '../test-support/pipecat-node.js';
import { createRtviTransport } from './rtvi-transport.js';
import type { RtviClientLike, RtviTransport } from './rtvi-transport.js';

// Compile-time proof that a real PipecatClient fits the adapter.
const clientFits: (client: PipecatClient) => RtviClientLike = (client) => client;
void clientFits;

/** A minimal RTVI bot: handshake, RPC requests to the client, `rpc-call` answers. */
class TestBot {
  readonly received: RTVIMessage[] = [];
  private socket: WebSocket | undefined;
  private readonly waiters = new Set<{
    test: (m: RTVIMessage) => boolean;
    resolve: (m: RTVIMessage) => void;
  }>();
  private sequence = 0;

  constructor(
    readonly server: WebSocketServer,
    private readonly onCall: (
      method: string,
      payload: string,
      id: string,
    ) => RTVIMessage | undefined,
  ) {
    server.on('connection', (socket) => {
      this.socket = socket;
      socket.on('message', (data: Buffer) => this.onFrame(new Uint8Array(data)));
    });
  }

  static async start(onCall: TestBot['onCall']): Promise<TestBot> {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    return new TestBot(server, onCall);
  }

  get url(): string {
    const address = this.server.address();
    if (typeof address === 'string' || address === null) throw new Error('no address');
    return `ws://127.0.0.1:${address.port}`;
  }

  send(message: RTVIMessage): void {
    this.socket?.send(encodeRtviFrame(message));
  }

  waitFor(test: (m: RTVIMessage) => boolean, timeoutMs = 3000): Promise<RTVIMessage> {
    const found = this.received.find(test);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const waiter = { test, resolve: (m: RTVIMessage) => (clearTimeout(timer), resolve(m)) };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error('bot: timed out waiting for a message'));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  /** Ask the client to run `method`; resolves with the ack and the response data. */
  async request(method: string, payload: string, responseTimeoutMs = 10000) {
    const requestId = `bot-${++this.sequence}`;
    this.send(
      rtviRpcRequestMessage({
        requestId,
        method,
        payload,
        responseTimeoutMs,
        callerIdentity: 'bot',
      }),
    );
    const ack = await this.waitFor((m) => clientMessage(m, 'rpc-ack')?.['requestId'] === requestId);
    const response = await this.waitFor(
      (m) => clientMessage(m, 'rpc-response')?.['requestId'] === requestId,
    );
    return { ack, response: (response.data as { d: RtviRpcResponseData }).d };
  }

  closeClient(): void {
    this.socket?.close();
  }

  async stop(): Promise<void> {
    for (const client of this.server.clients) client.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private onFrame(bytes: Uint8Array): void {
    const decoded = decodeRtviFrame(bytes);
    if (!decoded.ok) return;
    const message = decoded.message;
    this.received.push(message);
    if (message.type === 'client-ready' && message.id) {
      this.send(botReady(message.id, RTVI_PROTOCOL_VERSION, { library: 'test-bot' }));
    }
    const call = clientMessage(message, 'rpc-call');
    if (call && message.id) {
      const parsed = parseRtviRpcCall(call);
      if (parsed.ok) {
        const answer = this.onCall(parsed.value.method, parsed.value.payload, message.id);
        if (answer) this.send(answer);
      }
    }
    for (const waiter of [...this.waiters]) {
      if (waiter.test(message)) {
        this.waiters.delete(waiter);
        waiter.resolve(message);
      }
    }
  }
}

function clientMessage(message: RTVIMessage, t: string): Record<string, unknown> | undefined {
  if (message.type !== 'client-message') return undefined;
  const data = message.data as { t?: unknown; d?: unknown };
  return data.t === t ? (data.d as Record<string, unknown>) : undefined;
}

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
  let restoreShims: () => void;
  let bot: TestBot;
  let client: PipecatClient;
  let transport: RtviTransport;
  let session: ScenaroSession;

  const quiet: (() => void)[] = [];
  beforeAll(() => {
    restoreShims = installPipecatNodeShims();
    pipecatLogger.setLevel(LogLevel.NONE);
    // The transport's reconnecting socket logs through console directly.
    for (const level of ['debug', 'log', 'warn', 'error'] as const) {
      const original = console[level];
      const spy = vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        const text = String(args[0]);
        if (!text.startsWith('websocket:') && !text.startsWith('signaling socket'))
          original(...args);
      });
      quiet.push(() => spy.mockRestore());
    }
  });
  afterAll(() => {
    for (const restore of quiet) restore();
    restoreShims();
  });

  async function connect(): Promise<void> {
    bot = await TestBot.start(botCalls);
    client = createNodePipecatClient().client;
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
