/**
 * What the two OpenAI-compatible audio adapters share (`/audio/speech` and
 * `/audio/transcriptions`, as OpenAI, vLLM and speaches serve them): the
 * endpoint options, the `openai` client built from them, and the mapping of
 * its failures to {@link SpeechEngineError}s.
 */
import type OpenAI from 'openai';
import { createOpenAIClient } from '../../../conversation/openai-client.js';
import type { OpenAIEndpointOptions } from '../../../conversation/openai-client.js';
import { isAbortError, toChatModelError } from '../../../conversation/openai-errors.js';
import { abortReason, SpeechEngineError } from '../../engine-errors.js';

/** The default endpoint. */
export const OPENAI_AUDIO_BASE_URL = 'https://api.openai.com/v1';

/** Where an OpenAI-compatible audio endpoint is; each adapter documents its model default. */
export interface OpenAIAudioOptions extends Omit<OpenAIEndpointOptions, 'baseURL' | 'model'> {
  /** Base URL including the version path (default {@link OPENAI_AUDIO_BASE_URL}). */
  baseURL?: string;
  model?: string;
  /** Extra HTTP headers sent with every request. */
  headers?: Record<string, string>;
}

/** The client of an audio adapter: 30 s per attempt and 2 retries unless the options say otherwise. */
export function createOpenAIAudioClient(options: OpenAIAudioOptions): OpenAI {
  return createOpenAIClient({
    baseURL: options.baseURL ?? OPENAI_AUDIO_BASE_URL,
    apiKey: options.apiKey,
    apiKeyEnv: options.apiKeyEnv ?? 'OPENAI_API_KEY',
    timeoutMs: Math.max(1, Math.ceil(options.timeoutMs ?? 30_000)),
    maxRetries: options.maxRetries ?? 2,
    headers: options.headers,
    fetch: options.fetch,
  });
}

/**
 * A failed call as a {@link SpeechEngineError} (status, the endpoint's error
 * code, whether a retry may help); the abort reason when `signal` aborted.
 */
export function toSpeechEngineError(
  engine: string,
  error: unknown,
  timeoutMs: number,
  signal?: AbortSignal,
): Error {
  if (signal?.aborted) return abortReason(signal);
  if (isAbortError(error) || error instanceof SpeechEngineError) return error as Error;
  const mapped = toChatModelError(error, timeoutMs);
  const body = (error as { error?: { code?: unknown; type?: unknown } } | undefined)?.error;
  const code =
    typeof body?.code === 'string'
      ? body.code
      : typeof body?.type === 'string'
        ? body.type
        : undefined;
  return new SpeechEngineError(`${engine}: ${mapped.message}`, {
    engine,
    retryable: mapped.retryable,
    cause: error,
    ...(mapped.status === undefined ? {} : { status: mapped.status }),
    ...(code === undefined ? {} : { code }),
  });
}

/** Default of {@link AudioDeadlineOptions.firstByteTimeoutMs}. */
export const DEFAULT_FIRST_BYTE_TIMEOUT_MS = 10_000;
/** Default of {@link AudioDeadlineOptions.totalTimeoutMs}. */
export const DEFAULT_TOTAL_TIMEOUT_MS = 30_000;

/** Deadlines of a streamed audio call (the client's `timeoutMs` only bounds the wait for headers). */
export interface AudioDeadlineOptions {
  /**
   * Longest wait for the first byte of an answer, from the start of an attempt. An attempt that
   * gets none is tried once more (unless `maxRetries` is 0), then the call fails.
   * @default 10000
   */
  firstByteTimeoutMs?: number;
  /**
   * Longest the endpoint may keep one call waiting, all attempts together; the time the caller
   * takes between two pieces of the answer does not count.
   * @default 30000
   */
  totalTimeoutMs?: number;
}

/** The `code` of the {@link SpeechEngineError} of an attempt that got no byte in time. */
export const FIRST_BYTE_TIMEOUT = 'first_byte_timeout';
/** The `code` of the {@link SpeechEngineError} of a call the endpoint kept waiting too long. */
export const TOTAL_TIMEOUT = 'timeout';

/**
 * The deadlines of one call: each wait on the endpoint (the request, every read of the body) is
 * cut at the first-byte deadline of its attempt until a byte came, and at what is left of the
 * call's waiting budget.
 */
export class AudioCallDeadlines {
  readonly #engine: string;
  readonly #firstByteMs: number;
  readonly #totalMs: number;
  #left: number;
  #firstByteBy = Infinity;

  constructor(engine: string, options: AudioDeadlineOptions) {
    this.#engine = engine;
    this.#firstByteMs = options.firstByteTimeoutMs ?? DEFAULT_FIRST_BYTE_TIMEOUT_MS;
    this.#totalMs = options.totalTimeoutMs ?? DEFAULT_TOTAL_TIMEOUT_MS;
    this.#left = this.#totalMs;
  }

  /** True when the waiting budget is spent. */
  get spent(): boolean {
    return this.#left <= 0;
  }

  /** An attempt starts: its first byte is due within the first-byte timeout. */
  startAttempt(): void {
    this.#firstByteBy = performance.now() + this.#firstByteMs;
  }

  /** The attempt's first byte came. */
  firstByte(): void {
    this.#firstByteBy = Infinity;
  }

  /**
   * `promise`, unless a deadline passes first: then `cut()` is called (it should abort the
   * request) and the wait fails with a retryable {@link SpeechEngineError} coded
   * {@link FIRST_BYTE_TIMEOUT} or {@link TOTAL_TIMEOUT}.
   */
  async wait<T>(promise: Promise<T>, cut: () => void): Promise<T> {
    const started = performance.now();
    const firstByteMs = this.#firstByteBy - started;
    const firstByteFirst = firstByteMs < this.#left;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => {
          cut();
          reject(this.#timeoutError(firstByteFirst));
        },
        Math.max(0, Math.min(firstByteMs, this.#left)),
      );
    });
    try {
      return await Promise.race([promise, expired]);
    } finally {
      clearTimeout(timer);
      this.#left -= performance.now() - started;
    }
  }

  #timeoutError(firstByte: boolean): SpeechEngineError {
    const message = firstByte
      ? `${this.#engine}: no answer within ${this.#firstByteMs} ms`
      : `${this.#engine}: the endpoint kept the call waiting over ${this.#totalMs} ms`;
    return new SpeechEngineError(message, {
      engine: this.#engine,
      retryable: true,
      code: firstByte ? FIRST_BYTE_TIMEOUT : TOTAL_TIMEOUT,
    });
  }
}
