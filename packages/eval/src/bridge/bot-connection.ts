/**
 * The bridge's connection to one bot: the RTVI client of `@scenaro/agent` with connection
 * retries (exponential backoff), the bridge's handshake, a timestamped frame log naming the bot,
 * and the bot's events delivered as typed {@link BotEvent}s.
 */
import { RtviClient } from '@scenaro/agent';
import type { AudioFrameValue, SendTextOptions } from '@scenaro/sdk/protocol';
import { parseBotEvent } from './bot-events.js';
import type { BotEvent } from './bot-events.js';
import type { BotRole } from './types.js';

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
  /** Called for every event of the bot (envelopes that are not replies and matter to the bridge). */
  onEvent?: (event: BotEvent) => void;
  /** Called for every audio frame of the bot (its speech); without it, audio is ignored. */
  onAudio?: (frame: AudioFrameValue) => void;
  /** Called when the connection closes unexpectedly. */
  onClose?: (code: number, reason: string) => void;
}

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A live connection to one bot. */
export class BotConnection {
  readonly role: BotRole;
  readonly #client: RtviClient;

  private constructor(role: BotRole, client: RtviClient) {
    this.role = role;
    this.#client = client;
  }

  /** Connect (with retries and exponential backoff) and complete the handshake. */
  static async open(options: BotConnectionOptions): Promise<BotConnection> {
    const log = (direction: string, text: string) => {
      // The ears' lockstep reports (one per chunk heard) are not worth a line each.
      if (text.includes('"type":"audio-heard"')) return;
      options.log?.(
        `${new Date().toISOString()} | ${options.role.padEnd(5)} | ${direction} | ${text}`,
      );
    };
    const attempts = options.attempts ?? 5;
    let lastError: unknown;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        const client = await RtviClient.ready(options.url, {
          peer: `${options.role} bot`,
          ...(options.token ? { token: options.token } : {}),
          requestTimeoutMs: options.requestTimeoutMs ?? 15000,
          record: false,
          pooledFrames: true,
          log,
          onMessage: (message) => {
            const event = parseBotEvent(message);
            if (event) options.onEvent?.(event);
          },
          ...(options.onAudio ? { onAudio: options.onAudio } : {}),
          onClose: ({ code, reason }) => options.onClose?.(code, reason),
          handshake: {
            about: { library: '@scenaro/eval', library_version: '0.1.0' },
            timeoutMs: options.readyTimeoutMs ?? 5000,
          },
        });
        return new BotConnection(options.role, client);
      } catch (err) {
        lastError = err;
        log('!!', `connect attempt ${attempt}/${attempts} failed: ${(err as Error).message}`);
        if (attempt < attempts) await delay((options.backoffMs ?? 250) * 2 ** (attempt - 1));
      }
    }
    throw new BotConnectError(
      `could not connect to the ${options.role} bot at ${options.url} after ${attempts} attempts: ${(lastError as Error)?.message}`,
    );
  }

  /** What the bot sent with `bot-ready`. */
  get botReady(): unknown {
    return this.#client.botReady;
  }

  /** Send a `client-message` and wait for the response with the same id. Resolves with `d`. */
  request<T = unknown>(t: string, d: unknown, timeoutMs?: number): Promise<T> {
    return this.#client.call<T>(t, d, timeoutMs !== undefined ? { timeoutMs } : {});
  }

  /** Inject a user turn (`send-text`); it has no reply. */
  sendText(content: string, options: SendTextOptions = {}): void {
    this.#client.sendText(content, options);
  }

  /** Send microphone audio: one `AudioRawFrame` of PCM16. */
  sendAudio(pcm: Uint8Array, sampleRate: number, channels = 1): void {
    this.#client.sendAudio(pcm, sampleRate, channels);
  }

  get open(): boolean {
    return this.#client.isOpen;
  }

  /** Close the connection. */
  close(): Promise<void> {
    return this.#client.close(1000, 'bridge done', 1000);
  }
}
