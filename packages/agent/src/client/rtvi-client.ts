/**
 * A Node RTVI client: one WebSocket carrying Pipecat protobuf `MessageFrame`s with RTVI
 * envelopes inside, as an evaluation bridge, a test or a benchmark talks to a bot. Requests are
 * matched to their replies by id, each with a deadline; every other inbound envelope goes to
 * `onMessage`, and (unless `record: false`) every envelope is kept in `messages` for `waitFor`.
 * Raw senders (any text as a `MessageFrame`, raw bytes, text WebSocket messages) let tests send
 * what no well-behaved client would.
 */
import { WebSocket } from 'ws';
import type { ClientOptions, RawData } from 'ws';
import {
  clientMessage,
  clientReady,
  decodeRtviFrame,
  encodeFrame,
  sendText as sendTextMessage,
} from '@scenaro/sdk/protocol';
import type {
  AudioFrameValue,
  BotReadyData,
  BotReadySession,
  RTVIMessage,
  SendTextOptions,
} from '@scenaro/sdk/protocol';
import type {
  CloseInfo,
  HandshakeOptions,
  RequestOptions,
  RtviClientOptions,
  RtviLogDirection,
  UndecodedMessage,
} from './rtvi-options.js';

export type * from './rtvi-options.js';

/** A request that got an `error-response`, timed out, or lost its connection. */
export class RtviRequestError extends Error {
  override readonly name = 'RtviRequestError';
  constructor(
    message: string,
    readonly kind: 'error-response' | 'timeout' | 'disconnected',
  ) {
    super(message);
  }
}

interface PendingReply {
  what: string;
  accept: (message: RTVIMessage) => boolean;
  resolve: (message: RTVIMessage) => void;
  reject: (err: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

interface Waiter {
  check: () => boolean;
  resolve: () => void;
}

let idCounter = 0;

/** A fresh request id, unique within the process: `<prefix>_<epoch ms>_<n>`. */
export function nextRequestId(prefix = 'req'): string {
  idCounter = (idCounter + 1) % Number.MAX_SAFE_INTEGER;
  return `${prefix}_${Date.now()}_${idCounter}`;
}

const isResponse = (message: RTVIMessage) =>
  message.type === 'server-response' || message.type === 'error-response';

function toBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return new Uint8Array(Buffer.concat(data));
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/** A live RTVI connection to one bot. */
export class RtviClient {
  readonly ws: WebSocket;
  /** Every decoded RTVI envelope received, in order (empty with `record: false`). */
  readonly messages: RTVIMessage[] = [];
  /** Every received message that was not a decodable RTVI envelope (empty with `record: false`). */
  readonly undecoded: UndecodedMessage[] = [];
  /**
   * Every `AudioRawFrame` received (empty with `record: false`), with the number of envelopes
   * received before it, so tests can check where audio falls between events.
   */
  readonly audio: { frame: AudioFrameValue; afterMessages: number }[] = [];
  /** The `data` of `bot-ready`, once {@link handshake} is done. */
  botReady: unknown;
  /** The session the bot announced in `bot-ready` (id, resume token, whether it resumed). */
  get readySession(): BotReadySession | undefined {
    return (this.botReady as BotReadyData | undefined)?.session;
  }
  readonly #options: RtviClientOptions;
  readonly #peer: string;
  readonly #pending = new Map<string, PendingReply>();
  readonly #waiters = new Set<Waiter>();
  #opened = false;
  #closing = false;
  #closed: CloseInfo | undefined;

  private constructor(ws: WebSocket, options: RtviClientOptions) {
    this.ws = ws;
    this.#options = options;
    this.#peer = options.peer ?? 'bot';
    ws.on('message', (data, isBinary) => this.#onFrame(toBytes(data), isBinary));
    ws.on('close', (code, reason) => this.#onClose({ code, reason: reason.toString('utf8') }));
    // Errors (e.g. a reset connection) show up as a close; keep them from being unhandled.
    ws.on('error', (err) => this.#log('!!', `socket error: ${err.message}`));
  }

  /** Open a connection to `url` (`ws://host:port`); no handshake yet. */
  static async connect(url: string, options: RtviClientOptions = {}): Promise<RtviClient> {
    let target: string | URL = url;
    if (options.token) {
      target = new URL(url);
      target.searchParams.set('token', options.token);
    }
    const wsOptions: ClientOptions = {
      headers: options.headers ?? {},
      maxPayload: options.maxPayload ?? 64 * 1024 * 1024,
    };
    if (options.perMessageDeflate !== undefined)
      wsOptions.perMessageDeflate = options.perMessageDeflate;
    const ws = new WebSocket(target, wsOptions);
    const client = new RtviClient(ws, options);
    const timeoutMs = options.connectTimeoutMs ?? 5000;
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`could not connect to ${url} within ${timeoutMs} ms`)),
          timeoutMs,
        );
        ws.once('open', () => {
          clearTimeout(timer);
          resolve();
        });
        ws.once('unexpected-response', (_req, res) => {
          clearTimeout(timer);
          res.resume();
          reject(new Error(`HTTP ${res.statusCode} on upgrade`));
        });
        ws.once('error', (err) => {
          clearTimeout(timer);
          reject(err);
        });
      });
    } catch (err) {
      client.terminate();
      throw err;
    }
    client.#opened = true;
    return client;
  }

  /** Connect and complete the `client-ready` / `bot-ready` handshake. */
  static async ready(
    url: string,
    options: RtviClientOptions & { handshake?: HandshakeOptions } = {},
  ): Promise<RtviClient> {
    const client = await RtviClient.connect(url, options);
    try {
      await client.handshake(options.handshake);
    } catch (err) {
      client.terminate();
      throw err;
    }
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

  #log(direction: RtviLogDirection, text: string): void {
    if (this.#opened) this.#options.log?.(direction, text);
  }

  #onFrame(bytes: Uint8Array, isBinary: boolean): void {
    const record = this.#options.record ?? true;
    if (!isBinary) {
      this.#log('<-', `text frame ignored: ${new TextDecoder().decode(bytes).slice(0, 200)}`);
      if (record) this.undecoded.push({ isBinary, bytes, reason: 'text frame' });
      this.#notify();
      return;
    }
    const decoded = decodeRtviFrame(bytes);
    if (!decoded.ok && decoded.reason === 'not-a-message' && decoded.frame.kind === 'audio') {
      const frame = decoded.frame;
      if (record) this.audio.push({ frame, afterMessages: this.messages.length });
      this.#options.onAudio?.(frame);
      this.#notify();
      return;
    }
    if (!decoded.ok) {
      this.#log('<-', `undecodable frame (${decoded.reason})`);
      if (record) this.undecoded.push({ isBinary, bytes, reason: decoded.reason });
      this.#notify();
      return;
    }
    const message = decoded.message;
    this.#log('<-', decoded.frame.data);
    if (record) this.messages.push(message);
    const pending = message.id !== undefined ? this.#pending.get(message.id) : undefined;
    if (pending && pending.accept(message)) {
      this.#pending.delete(message.id as string);
      clearTimeout(pending.timer);
      pending.resolve(message);
    } else {
      this.#options.onMessage?.(message);
    }
    this.#notify();
  }

  #onClose(info: CloseInfo): void {
    this.#closed = info;
    this.#log('xx', `closed ${info.code} ${info.reason}`);
    for (const pending of this.#pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(
        new RtviRequestError(
          `${this.#peer} disconnected (${info.code}) during ${pending.what}`,
          'disconnected',
        ),
      );
    }
    this.#pending.clear();
    this.#notify();
    if (!this.#closing) this.#options.onClose?.(info);
  }

  #open(): WebSocket {
    if (this.ws.readyState !== WebSocket.OPEN)
      throw new RtviRequestError(`${this.#peer} is not connected`, 'disconnected');
    return this.ws;
  }

  /** Send an RTVI envelope as a binary `MessageFrame`. Throws when the socket is not open. */
  send(message: RTVIMessage): void {
    const ws = this.#open();
    const json = JSON.stringify(message);
    this.#log('->', json);
    ws.send(encodeFrame({ kind: 'message', data: json }, { pooled: this.#options.pooledFrames }), {
      binary: true,
    });
  }

  /** Send a `MessageFrame` whose `data` is this text (need not be JSON, nor an envelope). */
  sendMessageFrame(data: string): void {
    const ws = this.#open();
    this.#log('->', data);
    ws.send(encodeFrame({ kind: 'message', data }), { binary: true });
  }

  /** Send raw bytes as one binary WebSocket message. */
  sendRaw(bytes: Uint8Array): void {
    this.#open().send(bytes, { binary: true });
  }

  /** Send user audio: one `AudioRawFrame` of PCM16 (16 kHz mono by default). */
  sendAudio(pcm: Uint8Array, sampleRate = 16_000, numChannels = 1): void {
    this.sendRaw(encodeFrame({ kind: 'audio', audio: pcm, sampleRate, numChannels }));
  }

  /** Send a text WebSocket message (which RTVI does not use). */
  sendTextFrame(text: string): void {
    this.#open().send(text, { binary: false });
  }

  /** Inject a user turn (`send-text`, no reply); by default run at once, without audio. */
  sendText(content: string, options: SendTextOptions = {}): void {
    this.send(
      sendTextMessage(nextRequestId('send_text'), content, {
        run_immediately: true,
        audio_response: false,
        ...options,
      }),
    );
  }

  /** Wait for the inbound envelope with `id` that `accept`s, after `send()` ran. */
  #expect(
    id: string,
    what: string,
    accept: (message: RTVIMessage) => boolean,
    timeoutMs: number | undefined,
    send: () => void,
  ): Promise<RTVIMessage> {
    const deadline = timeoutMs ?? this.#options.requestTimeoutMs ?? 10_000;
    return new Promise<RTVIMessage>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(
          new RtviRequestError(
            `${what} timed out after ${deadline} ms on the ${this.#peer}`,
            'timeout',
          ),
        );
      }, deadline);
      this.#pending.set(id, { what, accept, resolve, reject, timer });
      try {
        send();
      } catch (err) {
        // The socket closed before the send: nobody will answer, so drop the entry and its timer.
        clearTimeout(timer);
        this.#pending.delete(id);
        reject(err as Error);
      }
    });
  }

  /**
   * Send an envelope (it must carry an id) and resolve with the first envelope received with
   * the same id that `accept` takes (any, by default).
   */
  exchange(
    message: RTVIMessage,
    options: { accept?: (message: RTVIMessage) => boolean; timeoutMs?: number } = {},
  ): Promise<RTVIMessage> {
    const id = message.id;
    if (id === undefined) throw new TypeError('exchange() needs an envelope with an id');
    return this.#expect(id, message.type, options.accept ?? (() => true), options.timeoutMs, () =>
      this.send(message),
    );
  }

  /** Send `client-ready` and resolve with the `bot-ready` of the same id (`botReady` is set). */
  async handshake(options: HandshakeOptions = {}): Promise<RTVIMessage> {
    const about = options.about ?? { library: 'scenaro-rtvi-client' };
    const message = clientReady(nextRequestId('client_ready'), about, options.version);
    // A version warning (`error-response` with the same id) comes before `bot-ready`: keep waiting.
    const ready = await this.exchange(message, {
      accept: (m) => m.type === 'bot-ready',
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    });
    this.botReady = ready.data;
    return ready;
  }

  /** Send `client-message {t, d}`; resolve with the `server-response` or `error-response` of its id. */
  request(t: string, d?: unknown, options: RequestOptions = {}): Promise<RTVIMessage> {
    const id = options.id ?? nextRequestId(t);
    return this.#expect(id, t, isResponse, options.timeoutMs, () =>
      this.send(clientMessage(id, t, d)),
    );
  }

  /**
   * Like {@link request}, with `d` given as raw JSON text spliced into the envelope (for keys
   * such as `__proto__` or nesting no encoder would produce).
   */
  requestJson(t: string, dJson: string, options: RequestOptions = {}): Promise<RTVIMessage> {
    const id = options.id ?? nextRequestId(t);
    return this.#expect(id, t, isResponse, options.timeoutMs, () =>
      this.sendMessageFrame(
        `{"label":"rtvi-ai","type":"client-message","id":${JSON.stringify(id)},"data":{"t":${JSON.stringify(t)},"d":${dJson}}}`,
      ),
    );
  }

  /** {@link request}, resolving with `d` of the `server-response`; rejects on an `error-response`. */
  async call<T = unknown>(t: string, d?: unknown, options: RequestOptions = {}): Promise<T> {
    const reply = await this.request(t, d, options);
    if (reply.type === 'error-response') {
      const error = (reply.data as { error?: unknown } | undefined)?.error;
      throw new RtviRequestError(
        `${t} failed on the ${this.#peer}: ${String(error)}`,
        'error-response',
      );
    }
    return (reply.data as { d?: T } | undefined)?.d as T;
  }

  /** Resolve once `check()` is true (checked on every message and on close); reject after `timeoutMs`. */
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

  /** The first recorded envelope (from index `from` on) matching `predicate`, waiting for it if needed. */
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

  /**
   * Run `action`, then a `probe` round trip (`get_scenario_summary` by default), and return every
   * recorded envelope that arrived in between. A bot handles one socket's messages in order, so
   * anything it answers to `action` arrives before the round trip.
   */
  async repliesTo(action: () => void, probe = 'get_scenario_summary'): Promise<RTVIMessage[]> {
    const from = this.messages.length;
    action();
    const id = nextRequestId('probe');
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

  /** Close the connection (no-op if already closed); terminate it if the close takes over `timeoutMs`. */
  async close(code = 1000, reason = '', timeoutMs = 2000): Promise<void> {
    this.#closing = true;
    if (this.#closed) return;
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) {
      this.ws.close(code, reason);
    }
    try {
      await this.waitForClose(timeoutMs);
    } catch {
      this.ws.terminate();
    }
  }

  /** Drop the connection at once, without a close handshake. */
  terminate(): void {
    this.#closing = true;
    this.ws.terminate();
  }

  #notify(): void {
    for (const waiter of [...this.#waiters]) if (waiter.check()) waiter.resolve();
  }
}
