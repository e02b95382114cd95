/**
 * The `ChatModel` of a real LLM behind an OpenAI-compatible chat-completions
 * endpoint: OpenAI itself, vLLM, NVIDIA NIM, Ollama, the llama.cpp server...
 *
 * One `stream()` call is one streamed `POST {baseURL}/chat/completions`
 * (`stream: true`, `stream_options.include_usage`). Text deltas are yielded as
 * they arrive; tool-call deltas are assembled by `index` (id, name,
 * concatenated arguments) and yielded whole when the choice's
 * `finish_reason` arrives, or when the stream ends for servers that never send
 * one; the usage of the final chunk is yielded last.
 *
 * Error semantics:
 * - HTTP errors become `ChatModelError` with the `status`; retryable for 408,
 *   409, 429 and 5xx (or what the server's `x-should-retry` header says).
 * - Connection failures and timeouts become `ChatModelError` without a status,
 *   retryable.
 * - Retryable failures are retried (up to `maxRetries` extra attempts) with
 *   exponential backoff and jitter, honouring `retry-after-ms` / `retry-after`
 *   (capped at `maxBackoffMs`), but only while nothing has been yielded yet: a
 *   stream that fails after its first event throws (retryable flag set) so that
 *   the caller never sees duplicated output.
 * - `timeoutMs` bounds every wait on the server: for the response to start,
 *   and each gap between two chunks (an idle timeout, so long answers are fine;
 *   the time the consumer takes between two pulls does not count). A cut
 *   request is a retryable `ChatModelError` whose message says "timed out", and
 *   is retried like a connection error.
 *
 * Abort semantics: when `request.signal` aborts, the HTTP request is cancelled
 * at once (also during a retry backoff) and `stream()` throws an error named
 * `AbortError`: the signal's reason itself when it already is one (e.g.
 * `controller.abort()` without an argument), otherwise a {@link ChatAbortError}
 * whose `cause` is the reason. {@link isAbortError} recognises both. Breaking
 * out of the iteration cancels the HTTP request too.
 */
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
} from 'openai/resources/chat/completions';
import type { ChatModel, ChatRequest, ChatStreamEvent, ChatUsage } from './model.js';
import { ChatModelError } from './model.js';
import { ToolCallAssembler, usageOf } from './openai-chunks.js';
import { createOpenAIClient } from './openai-client.js';
import type { OpenAIEndpointOptions } from './openai-client.js';
import { abortError, timeoutError, toChatModelError } from './openai-errors.js';
import { toOpenAIStreamingParams } from './openai-request.js';
import { backoffMs, sleep } from './openai-retry.js';

export { PLACEHOLDER_API_KEY, createOpenAIClient } from './openai-client.js';
export type { OpenAIClientSettings, OpenAIEndpointOptions, OpenAIFetch } from './openai-client.js';
export { ChatAbortError, isAbortError } from './openai-errors.js';
export { toOpenAIMessages, toOpenAITools } from './openai-request.js';

/** What {@link OpenAIChatModelOptions.onRetry} is told before each retry. */
export interface OpenAIRetryInfo {
  /** 1-based number of the retry about to be made. */
  retry: number;
  /** How long the adapter waits before it. */
  delayMs: number;
  /** The failure being retried. */
  error: ChatModelError;
}

/**
 * Options of {@link createOpenAIChatModel}. Defaults: `apiKeyEnv` `OPENAI_API_KEY`
 * (read when the model is created); `timeoutMs` 60000, an idle timeout of one
 * attempt (to the response start, and between two chunks); `maxRetries` 3.
 */
export interface OpenAIChatModelOptions extends OpenAIEndpointOptions {
  /** First backoff delay in ms, doubled at each retry (with up to 25 % jitter off). Default 500. */
  initialBackoffMs?: number;
  /** Largest backoff delay in ms, also the cap on a server's `retry-after`. Default 8000. */
  maxBackoffMs?: number;
  temperature?: number;
  /** Sent as `max_tokens` (use `extraBody: { max_completion_tokens }` for OpenAI reasoning models). */
  maxTokens?: number;
  /** Sent as `parallel_tool_calls` when the request has tools. Default true. */
  parallelToolCalls?: boolean;
  /**
   * Extra body fields for server-specific parameters (`top_k`, `chat_template_kwargs`,
   * `max_completion_tokens`...). They cannot override `model`, `messages`, `stream`,
   * `stream_options`, `tools` or `parallel_tool_calls`.
   */
  extraBody?: Record<string, unknown>;
  /** Extra HTTP headers sent with every request. */
  headers?: Record<string, string>;
  /** Called before each retry, for logs and metrics. */
  onRetry?: (info: OpenAIRetryInfo) => void;
}

const TIMED_OUT = Symbol('timed out');

/** `promise`, or a rejection as soon as `signal` aborts (the abort reason). */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** A `ChatModel` speaking the OpenAI chat-completions protocol (see the module comment for semantics). */
export function createOpenAIChatModel(options: OpenAIChatModelOptions): ChatModel {
  const {
    baseURL,
    model,
    timeoutMs = 60_000,
    maxRetries = 3,
    initialBackoffMs = 500,
    maxBackoffMs = 8_000,
    temperature,
    maxTokens,
    parallelToolCalls = true,
    extraBody,
    onRetry,
  } = options;
  if (!(timeoutMs > 0)) throw new RangeError(`timeoutMs must be positive, got ${timeoutMs}`);
  if (!(maxRetries >= 0)) throw new RangeError(`maxRetries must be >= 0, got ${maxRetries}`);
  // The openai client wants whole milliseconds.
  const clientTimeoutMs = Math.max(1, Math.ceil(timeoutMs));
  const client = createOpenAIClient({
    baseURL,
    apiKey: options.apiKey,
    apiKeyEnv: options.apiKeyEnv ?? 'OPENAI_API_KEY',
    // Retries and timeouts are ours: the client's own would neither watch the stream body nor wake from a backoff on abort.
    maxRetries: 0,
    timeoutMs: clientTimeoutMs,
    headers: options.headers,
    fetch: options.fetch,
  });

  async function* attempt(
    params: ChatCompletionCreateParamsStreaming,
    signal: AbortSignal,
    onYield: () => void,
  ): AsyncGenerator<ChatStreamEvent> {
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const disarm = () => clearTimeout(timer);
    const arm = () => {
      disarm();
      timer = setTimeout(() => controller.abort(TIMED_OUT), timeoutMs);
    };
    /** Why the attempt stopped early, if it did. */
    const stopped = (): Error | undefined => {
      if (signal.aborted) return abortError(signal);
      if (controller.signal.aborted && controller.signal.reason === TIMED_OUT)
        return timeoutError(timeoutMs);
      return undefined;
    };
    const emit = function* (event: ChatStreamEvent): Generator<ChatStreamEvent> {
      disarm();
      onYield();
      yield event;
      arm();
    };
    let iterator: AsyncIterator<ChatCompletionChunk> | undefined;
    try {
      arm();
      const stream = await raceAbort(
        client.chat.completions.create(params, {
          signal: controller.signal,
          maxRetries: 0,
          timeout: clientTimeoutMs,
        }),
        controller.signal,
      );
      iterator = stream[Symbol.asyncIterator]();
      const tools = new ToolCallAssembler();
      let usage: ChatUsage | undefined;
      while (true) {
        const next = await raceAbort(iterator.next(), controller.signal);
        if (next.done) break;
        arm();
        const chunk = next.value;
        usage = usageOf(chunk.usage) ?? usage;
        // Only the first choice is used (we never ask for `n` > 1).
        const choice = chunk.choices?.find((c) => (c.index ?? 0) === 0);
        if (!choice) continue;
        const delta = choice.delta ?? {};
        if (typeof delta.content === 'string' && delta.content.length > 0) {
          yield* emit({ type: 'text-delta', text: delta.content });
        }
        for (const toolCall of delta.tool_calls ?? []) tools.add(toolCall);
        if (choice.finish_reason) {
          for (const event of tools.take()) yield* emit(event);
        }
      }
      // The openai stream ends quietly when its request is aborted: tell that from a real end.
      const early = stopped();
      if (early) throw early;
      for (const event of tools.take()) yield* emit(event);
      if (usage) yield* emit({ type: 'usage', usage });
    } catch (error) {
      throw stopped() ?? toChatModelError(error, timeoutMs);
    } finally {
      disarm();
      signal.removeEventListener('abort', onAbort);
      // Cancels the HTTP request if it is still running (early break, abort, timeout); a no-op otherwise.
      controller.abort();
      void iterator?.return?.()?.catch(() => {});
    }
  }

  return {
    processor: 'OpenAILLMService',
    model,
    scripted: false,
    async *stream(request: ChatRequest): AsyncGenerator<ChatStreamEvent> {
      const { signal } = request;
      if (signal.aborted) throw abortError(signal);
      const params = toOpenAIStreamingParams(request, {
        model,
        temperature,
        maxTokens,
        parallelToolCalls,
        extraBody,
      });
      for (let retry = 0; ; retry++) {
        let yielded = false;
        try {
          yield* attempt(params, signal, () => {
            yielded = true;
          });
          return;
        } catch (error) {
          if (signal.aborted) throw abortError(signal);
          if (
            !(error instanceof ChatModelError) ||
            !error.retryable ||
            yielded ||
            retry >= maxRetries
          )
            throw error;
          const delayMs = backoffMs(retry + 1, error, { initialBackoffMs, maxBackoffMs });
          onRetry?.({ retry: retry + 1, delayMs, error });
          await sleep(delayMs, signal);
        }
      }
    },
  };
}
