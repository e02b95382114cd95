/**
 * A raw `ws` test client for the bot server: no Pipecat client in between, so
 * tests can send anything (valid envelopes, raw bytes, text frames, oversized
 * messages) and see every decoded envelope that comes back.
 */
import { request as httpRequest } from 'node:http';
import { WebSocket } from 'ws';
import type { RawData } from 'ws';
import {
  clientMessage,
  clientReady,
  decodeRtviFrame,
  encodeFrame,
  encodeRtviFrame,
} from '@scenaro/sdk/protocol';
import type { RTVIMessage } from '@scenaro/sdk/protocol';

/** Options of {@link TestClient.connect}. */
export interface TestClientOptions {
  /** Extra HTTP headers of the upgrade request (e.g. `Authorization`). */
  headers?: Record<string, string>;
  /** How long to wait for the socket to open. @default 5000 */
  timeoutMs?: number;
}

/** Something the server sent that is not a decodable RTVI envelope. */
export interface UndecodedMessage {
  isBinary: boolean;
  bytes: Uint8Array;
  reason: string;
}

/** How the connection ended. */
export interface CloseInfo {
  code: number;
  reason: string;
}

interface Waiter {
  check: () => boolean;
  resolve: () => void;
}

let idCounter = 0;

/** A fresh request id, unique within the test process. */
export function nextId(prefix = 'req'): string {
  idCounter += 1;
  return `${prefix}_${idCounter}`;
}

function toBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return new Uint8Array(Buffer.concat(data));
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/** A protocol-level client over one WebSocket. */
export class TestClient {
  readonly ws: WebSocket;
  /** Every decoded RTVI envelope received, in order. */
  readonly messages: RTVIMessage[] = [];
  /** Every received message that was not a decodable RTVI envelope. */
  readonly undecoded: UndecodedMessage[] = [];
  #closed: CloseInfo | undefined;
  readonly #waiters = new Set<Waiter>();

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (data, isBinary) => {
      const bytes = toBytes(data);
      if (!isBinary) {
        this.undecoded.push({ isBinary, bytes, reason: 'text frame' });
      } else {
        const decoded = decodeRtviFrame(bytes);
        if (decoded.ok) this.messages.push(decoded.message);
        else this.undecoded.push({ isBinary, bytes, reason: decoded.reason });
      }
      this.#notify();
    });
    ws.on('close', (code, reason) => {
      this.#closed = { code, reason: reason.toString('utf8') };
      this.#notify();
    });
    // Errors (e.g. a reset connection) show up as a close; keep them from being unhandled.
    ws.on('error', () => {});
  }

  /** Open a connection to `url` (`ws://host:port`, optionally with `?token=`). */
  static async connect(url: string, options: TestClientOptions = {}): Promise<TestClient> {
    const ws = new WebSocket(url, {
      headers: options.headers ?? {},
      maxPayload: 64 * 1024 * 1024,
    });
    const client = new TestClient(ws);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`could not connect to ${url} in time`)),
        options.timeoutMs ?? 5000,
      );
      ws.once('open', () => {
        clearTimeout(timer);
        resolve();
      });
      ws.once('unexpected-response', (_req, res) => {
        clearTimeout(timer);
        reject(new Error(`upgrade refused with HTTP ${res.statusCode}`));
      });
      ws.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
    return client;
  }

  /** Connect and complete the `client-ready` / `bot-ready` handshake. */
  static async ready(url: string, options: TestClientOptions = {}): Promise<TestClient> {
    const client = await TestClient.connect(url, options);
    await client.handshake();
    return client;
  }

  /** The close code and reason once the connection has ended. */
  get closed(): CloseInfo | undefined {
    return this.#closed;
  }

  /** True while the socket is open. */
  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  /** Send an RTVI envelope as a binary `MessageFrame`. */
  send(message: RTVIMessage): void {
    this.ws.send(encodeRtviFrame(message), { binary: true });
  }

  /** Send a `MessageFrame` whose `data` is this text (need not be JSON, nor an envelope). */
  sendMessageFrame(data: string): void {
    this.ws.send(encodeFrame({ kind: 'message', data }), { binary: true });
  }

  /** Send raw bytes as one binary WebSocket message. */
  sendRaw(bytes: Uint8Array): void {
    this.ws.send(bytes, { binary: true });
  }

  /** Send a text WebSocket message. */
  sendText(text: string): void {
    this.ws.send(text, { binary: false });
  }

  /** Resolve once `check()` is true; reject after `timeoutMs`. */
  async until(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
    if (check()) return;
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        check,
        resolve: () => {
          clearTimeout(timer);
          this.#waiters.delete(waiter);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      this.#waiters.add(waiter);
    });
  }

  /** The first envelope (from index `from` on) matching `predicate`, waiting for it if needed. */
  async waitFor(
    predicate: (message: RTVIMessage) => boolean,
    what = 'a matching message',
    { from = 0, timeoutMs = 10_000 }: { from?: number; timeoutMs?: number } = {},
  ): Promise<RTVIMessage> {
    let found: RTVIMessage | undefined;
    await this.until(
      () => {
        found = this.messages.slice(from).find(predicate);
        return found !== undefined || this.#closed !== undefined;
      },
      what,
      timeoutMs,
    );
    if (found === undefined) {
      throw new Error(
        `connection closed (${this.#closed?.code} ${this.#closed?.reason}) while waiting for ${what}`,
      );
    }
    return found;
  }

  /** Send `client-ready` and wait for the `bot-ready` with the same id. */
  async handshake(version = '2.1.0'): Promise<RTVIMessage> {
    const id = nextId('ready');
    this.send(clientReady(id, { library: 'scenaro-test-client' }, version));
    return this.waitFor((m) => m.type === 'bot-ready' && m.id === id, `bot-ready ${id}`);
  }

  /**
   * Send `client-message {t, d}` and resolve with the `server-response` or
   * `error-response` carrying the same id.
   */
  async request(
    t: string,
    d?: unknown,
    { id = nextId(t), timeoutMs = 10_000 }: { id?: string; timeoutMs?: number } = {},
  ): Promise<RTVIMessage> {
    this.send(clientMessage(id, t, d));
    return this.waitFor(
      (m) => m.id === id && (m.type === 'server-response' || m.type === 'error-response'),
      `the response to ${t} (${id})`,
      { timeoutMs },
    );
  }

  /**
   * Like {@link request}, with `d` given as raw JSON text spliced into the
   * envelope (for keys such as `__proto__` or nesting no encoder would produce).
   */
  async requestJson(
    t: string,
    dJson: string,
    { id = nextId(t), timeoutMs = 10_000 }: { id?: string; timeoutMs?: number } = {},
  ): Promise<RTVIMessage> {
    this.sendMessageFrame(
      `{"label":"rtvi-ai","type":"client-message","id":${JSON.stringify(id)},"data":{"t":${JSON.stringify(t)},"d":${dJson}}}`,
    );
    return this.waitFor(
      (m) => m.id === id && (m.type === 'server-response' || m.type === 'error-response'),
      `the response to ${t} (${id})`,
      { timeoutMs },
    );
  }

  /** {@link request}, resolving with `d` of the `server-response`; throws on an `error-response`. */
  async call<T = unknown>(t: string, d?: unknown): Promise<T> {
    const reply = await this.request(t, d);
    if (reply.type === 'error-response') {
      throw new Error(`${t} failed: ${(reply.data as { error: string }).error}`);
    }
    return (reply.data as { d?: T }).d as T;
  }

  /**
   * Run `action`, then a `probe` round trip (`get_scenario_summary` by default), and return every
   * envelope that arrived in between. The server handles one socket's messages
   * in order, so anything it answers to `action` arrives before the round trip.
   */
  async repliesTo(action: () => void, probe = 'get_scenario_summary'): Promise<RTVIMessage[]> {
    const from = this.messages.length;
    action();
    const id = nextId('probe');
    const reply = await this.request(probe, {}, { id });
    if (reply.type !== 'server-response') {
      throw new Error(`probe failed: ${JSON.stringify(reply)}`);
    }
    return this.messages.slice(from).filter((m) => m.id !== id);
  }

  /** Wait for the connection to close and return its code and reason. */
  async waitForClose(timeoutMs = 5000): Promise<CloseInfo> {
    await this.until(() => this.#closed !== undefined, 'the connection to close', timeoutMs);
    return this.#closed as CloseInfo;
  }

  /** Close the connection (no-op if already closed) and wait for the close to complete. */
  async close(code = 1000): Promise<void> {
    if (this.#closed) return;
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) {
      this.ws.close(code);
    }
    try {
      await this.waitForClose(2000);
    } catch {
      this.ws.terminate();
    }
  }

  #notify(): void {
    for (const waiter of [...this.#waiters]) if (waiter.check()) waiter.resolve();
  }
}

/** The HTTP status an upgrade to `url` is answered with (101 when it is accepted). */
export async function upgradeStatus(
  url: string,
  headers: Record<string, string> = {},
): Promise<number> {
  const ws = new WebSocket(url, { headers });
  return new Promise<number>((resolve, reject) => {
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('unexpected-response', (_req, res) => {
      res.resume();
      ws.terminate();
      resolve(res.statusCode ?? 0);
    });
    ws.once('error', reject);
  });
}

/** A plain HTTP request to the server; resolves with the status and the parsed JSON body. */
export async function httpJson(
  url: string,
  method: 'GET' | 'POST',
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url.replace(/^ws/, 'http'), { method }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown });
        } catch {
          resolve({ status: res.statusCode ?? 0, body: text });
        }
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Poll `check` every few milliseconds until it holds, or throw after `timeoutMs`. */
export async function pollUntil(
  check: () => boolean,
  what: string,
  timeoutMs = 5000,
): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
