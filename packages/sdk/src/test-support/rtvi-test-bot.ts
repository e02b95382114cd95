/**
 * A minimal RTVI bot for tests of the browser side: the handshake, RPC requests to the client,
 * answers to its `rpc-call`s, and any message sent as is (e.g. voice events). Written with `ws`
 * and the protocol frame codec.
 */
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import {
  RTVI_PROTOCOL_VERSION,
  botReady,
  decodeRtviFrame,
  encodeRtviFrame,
  parseRtviRpcCall,
  rtviRpcRequestMessage,
} from '../protocol/index.js';
import type { RTVIMessage, RtviRpcResponseData } from '../protocol/index.js';

/** A minimal RTVI bot: handshake, RPC requests to the client, `rpc-call` answers. */
export class TestBot {
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

/** The `d` of a `client-message` whose `t` is `t`. */
export function clientMessage(
  message: RTVIMessage,
  t: string,
): Record<string, unknown> | undefined {
  if (message.type !== 'client-message') return undefined;
  const data = message.data as { t?: unknown; d?: unknown };
  return data.t === t ? (data.d as Record<string, unknown>) : undefined;
}
