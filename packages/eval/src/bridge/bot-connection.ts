/**
 * The bridge's connection to one bot: a WebSocket carrying Pipecat protobuf
 * frames with RTVI inside. Every request awaits the response with its own id
 * and a deadline; every frame in both directions is logged with a timestamp.
 */
import { WebSocket } from 'ws';
import {
  clientMessage,
  clientReady,
  decodeRtviFrame,
  encodeRtviFrame,
  sendText as sendTextMessage,
} from '@scenaro/sdk/protocol';
import type { RTVIMessage } from '@scenaro/sdk/protocol';

/** Which bot a connection talks to. */
export type BotRole = 'agent' | 'user';

/** A request that got an `error-response`, timed out, or lost its connection. */
export class BotRequestError extends Error {
  override readonly name = 'BotRequestError';
  constructor(
    message: string,
    readonly kind: 'error-response' | 'timeout' | 'disconnected',
  ) {
    super(message);
  }
}

/** Could not connect (after retries) or the handshake failed. */
export class BotConnectError extends Error {
  override readonly name = 'BotConnectError';
}

/** One line of the frame log. */
export type FrameLogger = (line: string) => void;

export interface BotConnectionOptions {
  role: BotRole;
  url: string;
  token?: string;
  /** Connection attempts before giving up. @default 5 */
  attempts?: number;
  /** First backoff delay; doubles each attempt. @default 250 */
  backoffMs?: number;
  /** How long to wait for `bot-ready`. @default 5000 */
  readyTimeoutMs?: number;
  /** Default request deadline. @default 15000 */
  requestTimeoutMs?: number;
  /** Receives a line per frame, both directions. */
  log?: FrameLogger;
  /** Called for every inbound message that is not a response. */
  onEvent?: (message: RTVIMessage) => void;
  /** Called when the connection closes unexpectedly. */
  onClose?: (code: number, reason: string) => void;
}

interface Pending {
  t: string;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

let idCounter = 0;
function nextId(prefix: string): string {
  idCounter = (idCounter + 1) % Number.MAX_SAFE_INTEGER;
  return `${prefix}_${Date.now()}_${idCounter}`;
}

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A live connection to one bot. */
export class BotConnection {
  readonly role: BotRole;
  readonly #options: BotConnectionOptions;
  readonly #pending = new Map<string, Pending>();
  #ws: WebSocket | undefined;
  #closedByUs = false;
  botReady: unknown;

  private constructor(options: BotConnectionOptions) {
    this.role = options.role;
    this.#options = options;
  }

  /** Connect (with retries and exponential backoff) and complete the handshake. */
  static async open(options: BotConnectionOptions): Promise<BotConnection> {
    const connection = new BotConnection(options);
    const attempts = options.attempts ?? 5;
    let lastError: unknown;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        await connection.#connect();
        await connection.#handshake();
        return connection;
      } catch (err) {
        lastError = err;
        connection.#teardown();
        connection.#log(
          '!!',
          `connect attempt ${attempt}/${attempts} failed: ${(err as Error).message}`,
        );
        if (attempt < attempts) await delay((options.backoffMs ?? 250) * 2 ** (attempt - 1));
      }
    }
    throw new BotConnectError(
      `could not connect to the ${options.role} bot at ${options.url} after ${attempts} attempts: ${(lastError as Error)?.message}`,
    );
  }

  #log(direction: string, text: string): void {
    this.#options.log?.(
      `${new Date().toISOString()} | ${this.role.padEnd(5)} | ${direction} | ${text}`,
    );
  }

  async #connect(): Promise<void> {
    const url = new URL(this.#options.url);
    if (this.#options.token) url.searchParams.set('token', this.#options.token);
    const ws = new WebSocket(url, { maxPayload: 64 * 1024 * 1024 });
    this.#ws = ws;
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) =>
        reject(new Error(`HTTP ${res.statusCode} on upgrade`)),
      );
    });
    ws.on('message', (data, isBinary) => this.#onMessage(data as Buffer, isBinary));
    ws.on('close', (code, reason) => {
      const text = reason.toString();
      this.#log('xx', `closed ${code} ${text}`);
      for (const [id, pending] of this.#pending) {
        clearTimeout(pending.timer);
        pending.reject(
          new BotRequestError(
            `${this.role} bot disconnected (${code}) during ${pending.t}`,
            'disconnected',
          ),
        );
        this.#pending.delete(id);
      }
      if (!this.#closedByUs) this.#options.onClose?.(code, text);
    });
    ws.on('error', (err) => this.#log('!!', `socket error: ${err.message}`));
  }

  async #handshake(): Promise<void> {
    const id = nextId('client_ready');
    const ready = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no bot-ready within ${this.#options.readyTimeoutMs ?? 5000} ms`)),
        this.#options.readyTimeoutMs ?? 5000,
      );
      this.#pending.set(id, { t: 'client-ready', resolve, reject, timer });
    });
    try {
      this.#send(clientReady(id, { library: '@scenaro/eval', library_version: '0.1.0' }));
    } catch (err) {
      // The socket closed between 'open' and now (a bot shutting down): nobody will await
      // `ready`, so drop its entry and timer, or its later rejection would go unhandled.
      const pending = this.#pending.get(id);
      if (pending) clearTimeout(pending.timer);
      this.#pending.delete(id);
      throw err;
    }
    this.botReady = await ready;
  }

  #onMessage(data: Buffer, isBinary: boolean): void {
    if (!isBinary) {
      this.#log('<-', `text frame ignored: ${data.toString().slice(0, 200)}`);
      return;
    }
    const decoded = decodeRtviFrame(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    if (!decoded.ok) {
      this.#log('<-', `undecodable frame (${decoded.reason})`);
      return;
    }
    const message = decoded.message;
    this.#log('<-', decoded.frame.data);
    const pending = message.id !== undefined ? this.#pending.get(message.id) : undefined;
    if (pending && (message.type === 'server-response' || message.type === 'bot-ready')) {
      this.#pending.delete(message.id as string);
      clearTimeout(pending.timer);
      pending.resolve(
        message.type === 'bot-ready'
          ? message.data
          : (message.data as { d?: unknown } | undefined)?.d,
      );
      return;
    }
    if (pending && message.type === 'error-response') {
      // A handshake error-response (version warning) is followed by bot-ready: keep waiting.
      if (pending.t === 'client-ready') return;
      this.#pending.delete(message.id as string);
      clearTimeout(pending.timer);
      const error = (message.data as { error?: unknown } | undefined)?.error;
      pending.reject(
        new BotRequestError(
          `${pending.t} failed on the ${this.role} bot: ${String(error)}`,
          'error-response',
        ),
      );
      return;
    }
    this.#options.onEvent?.(message);
  }

  #send(message: RTVIMessage): void {
    const ws = this.#ws;
    if (!ws || ws.readyState !== WebSocket.OPEN)
      throw new BotRequestError(`${this.role} bot is not connected`, 'disconnected');
    const json = JSON.stringify(message);
    this.#log('->', json);
    ws.send(encodeRtviFrame(message, { pooled: true }), { binary: true });
  }

  /** Send a `client-message` and wait for the response with the same id. Resolves with `d`. */
  request<T = unknown>(
    t: string,
    d: unknown,
    timeoutMs = this.#options.requestTimeoutMs ?? 15000,
  ): Promise<T> {
    const id = nextId(t);
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(
          new BotRequestError(
            `${t} timed out after ${timeoutMs} ms on the ${this.role} bot`,
            'timeout',
          ),
        );
      }, timeoutMs);
      this.#pending.set(id, { t, resolve: resolve as (v: unknown) => void, reject, timer });
      try {
        this.#send(clientMessage(id, t, d));
      } catch (err) {
        clearTimeout(timer);
        this.#pending.delete(id);
        reject(err as Error);
      }
    });
  }

  /** Inject a user turn (`send-text`); it has no reply. */
  sendText(
    content: string,
    options: { run_immediately?: boolean; audio_response?: boolean } = {},
  ): void {
    this.#send(
      sendTextMessage(nextId('send_text'), content, {
        run_immediately: true,
        audio_response: false,
        ...options,
      }),
    );
  }

  get open(): boolean {
    return this.#ws?.readyState === WebSocket.OPEN;
  }

  #teardown(): void {
    this.#closedByUs = true;
    this.#ws?.terminate();
    this.#ws = undefined;
    this.#closedByUs = false;
  }

  /** Close the connection. */
  async close(): Promise<void> {
    const ws = this.#ws;
    if (!ws) return;
    this.#closedByUs = true;
    if (ws.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        ws.terminate();
        resolve();
      }, 1000);
      ws.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      ws.close(1000, 'bridge done');
    });
  }
}
