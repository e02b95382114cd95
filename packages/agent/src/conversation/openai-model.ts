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
import OpenAI, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from 'openai';
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { ContextMessage } from './context.js';
import type { ChatModel, ChatRequest, ChatStreamEvent, ChatToolSpec, ChatUsage } from './model.js';
import { ChatModelError } from './model.js';

/** The API key sent when neither the option nor the environment gives one (local servers ignore it). */
export const PLACEHOLDER_API_KEY = 'sk-no-key-required';

/** A `fetch` implementation (the global one by default). */
export type OpenAIFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** What {@link OpenAIChatModelOptions.onRetry} is told before each retry. */
export interface OpenAIRetryInfo {
  /** 1-based number of the retry about to be made. */
  retry: number;
  /** How long the adapter waits before it. */
  delayMs: number;
  /** The failure being retried. */
  error: ChatModelError;
}

export interface OpenAIChatModelOptions {
  /** Base URL of the API, including the version path, e.g. `http://127.0.0.1:8000/v1` or `https://api.openai.com/v1`. */
  baseURL: string;
  /** Model name sent in every request. */
  model: string;
  /** API key. Defaults to the environment variable named by `apiKeyEnv`, then to a placeholder. */
  apiKey?: string;
  /** Environment variable holding the API key, read when the model is created. Default `OPENAI_API_KEY`. */
  apiKeyEnv?: string;
  /** Idle timeout of one attempt in ms: to the response start, and between two chunks. Default 60000. */
  timeoutMs?: number;
  /** Extra attempts after a retryable failure (0 disables retrying). Default 3. */
  maxRetries?: number;
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
  /** Custom `fetch` (e.g. for proxies or tests). */
  fetch?: OpenAIFetch;
  /** Called before each retry, for logs and metrics. */
  onRetry?: (info: OpenAIRetryInfo) => void;
}

/** The error `stream()` throws when its signal aborts with a reason that is not already an `AbortError`. */
export class ChatAbortError extends Error {
  override readonly name = 'AbortError';
  constructor(reason: unknown) {
    super(
      reason instanceof Error ? `model call aborted: ${reason.message}` : 'model call aborted',
      { cause: reason },
    );
  }
}

/** True for the errors a model call throws when its signal aborted. */
export function isAbortError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { name?: unknown }).name === 'AbortError'
  );
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  return new ChatAbortError(reason);
}

/** Our context messages in the request shape of the chat-completions API. */
export function toOpenAIMessages(
  messages: readonly ContextMessage[],
): ChatCompletionMessageParam[] {
  return messages.map((message): ChatCompletionMessageParam => {
    switch (message.role) {
      case 'system':
        return { role: 'system', content: message.content };
      case 'user':
        return { role: 'user', content: message.content };
      case 'tool':
        return { role: 'tool', tool_call_id: message.tool_call_id, content: message.content };
      case 'assistant': {
        const toolCalls = message.tool_calls ?? [];
        if (toolCalls.length === 0) return { role: 'assistant', content: message.content ?? '' };
        return {
          role: 'assistant',
          content: message.content,
          tool_calls: toolCalls.map((call) => ({
            id: call.id,
            type: 'function',
            function: { name: call.function.name, arguments: call.function.arguments },
          })),
        };
      }
    }
  });
}

/** Our tool specs as chat-completions function tools. */
export function toOpenAITools(tools: readonly ChatToolSpec[]): ChatCompletionFunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

interface PendingToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** Assembles streamed tool-call deltas by `index`. */
class ToolCallAssembler {
  readonly #calls = new Map<number, PendingToolCall>();
  #lastIndex = -1;

  add(delta: ChatCompletionChunk.Choice.Delta.ToolCall): void {
    // Some servers leave `index` out: then a new id starts a new call, anything else continues the last one.
    let index = typeof delta.index === 'number' ? delta.index : undefined;
    if (index === undefined) {
      const last = this.#calls.get(this.#lastIndex);
      index = last && (!delta.id || delta.id === last.id) ? this.#lastIndex : this.#lastIndex + 1;
    }
    let call = this.#calls.get(index);
    if (!call) {
      call = { id: '', name: '', arguments: '' };
      this.#calls.set(index, call);
    }
    this.#lastIndex = index;
    if (delta.id && !call.id) call.id = delta.id;
    // The name comes whole in the first delta; some servers repeat it, which must not double it.
    if (delta.function?.name && !call.name) call.name = delta.function.name;
    if (delta.function?.arguments) call.arguments += delta.function.arguments;
  }

  /** The complete calls in index order, and forget them. */
  take(): ChatStreamEvent[] {
    const events = [...this.#calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]): ChatStreamEvent => ({
        type: 'tool-call',
        id: call.id || `call_${index}_${Math.random().toString(36).slice(2, 10)}`,
        name: call.name,
        arguments: call.arguments,
      }));
    this.#calls.clear();
    this.#lastIndex = -1;
    return events;
  }
}

function usageOf(usage: ChatCompletionChunk['usage']): ChatUsage | undefined {
  if (!usage) return undefined;
  const promptTokens = usage.prompt_tokens ?? 0;
  const completionTokens = usage.completion_tokens ?? 0;
  return {
    promptTokens,
    completionTokens,
    totalTokens: usage.total_tokens ?? promptTokens + completionTokens,
  };
}

const TIMED_OUT = Symbol('timed out');

function timeoutError(timeoutMs: number, cause?: unknown): ChatModelError {
  return new ChatModelError(
    `OpenAI-compatible request timed out after ${timeoutMs} ms`,
    true,
    undefined,
    { cause },
  );
}

/** An error of the openai client (or anything else thrown by an attempt) as a `ChatModelError`. */
function toChatModelError(error: unknown, timeoutMs: number): ChatModelError {
  if (error instanceof ChatModelError) return error;
  if (error instanceof APIConnectionTimeoutError) return timeoutError(timeoutMs, error);
  if (error instanceof APIUserAbortError) {
    return new ChatModelError(
      `OpenAI-compatible request aborted: ${error.message}`,
      true,
      undefined,
      { cause: error },
    );
  }
  if (error instanceof APIConnectionError) {
    return new ChatModelError(
      `OpenAI-compatible connection error: ${error.message}`,
      true,
      undefined,
      {
        cause: error,
      },
    );
  }
  if (error instanceof APIError) {
    const status = typeof error.status === 'number' ? error.status : undefined;
    const shouldRetry = error.headers?.get('x-should-retry');
    const retryable =
      shouldRetry === 'true'
        ? true
        : shouldRetry === 'false'
          ? false
          : // No status: an error event inside the stream, a server-side failure mid-generation.
            status === undefined ||
            status === 408 ||
            status === 409 ||
            status === 429 ||
            status >= 500;
    const label = status === undefined ? 'stream error' : `error ${status}`;
    return new ChatModelError(
      `OpenAI-compatible API ${label}: ${error.message}`,
      retryable,
      status,
      {
        cause: error,
      },
    );
  }
  if (isConnectionLoss(error)) {
    return new ChatModelError(
      `OpenAI-compatible connection lost: ${describe(error)}`,
      true,
      undefined,
      {
        cause: error,
      },
    );
  }
  if (error instanceof SyntaxError) {
    return new ChatModelError(
      `OpenAI-compatible stream is malformed: ${error.message}`,
      false,
      undefined,
      {
        cause: error,
      },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ChatModelError(`OpenAI-compatible request failed: ${message}`, false, undefined, {
    cause: error,
  });
}

/**
 * A network failure `fetch` reports outside the openai client's wrapping, e.g. undici's
 * `TypeError: terminated` when the connection drops while the stream body is read.
 */
function isConnectionLoss(error: unknown): error is TypeError {
  if (!(error instanceof TypeError)) return false;
  if (error.message === 'terminated' || error.message === 'fetch failed') return true;
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  return (
    typeof code === 'string' &&
    (code.startsWith('UND_ERR') || code.startsWith('ECONN') || code === 'EPIPE')
  );
}

function describe(error: Error): string {
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}

/** The server's `retry-after-ms` / `retry-after` in ms, if it sent one. */
function retryAfterMs(error: ChatModelError): number | undefined {
  const cause = error.cause;
  if (!(cause instanceof APIError) || !cause.headers) return undefined;
  const ms = cause.headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms)))
    return Math.max(0, Number(ms));
  const after = cause.headers.get('retry-after');
  if (after === null || after.trim() === '') return undefined;
  if (Number.isFinite(Number(after))) return Math.max(0, Number(after) * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Resolves after `ms`, or rejects with the abort error when `signal` aborts first. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(abortError(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

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
  const envName = options.apiKeyEnv ?? 'OPENAI_API_KEY';
  const apiKey = options.apiKey || process.env[envName] || PLACEHOLDER_API_KEY;
  // The openai client wants whole milliseconds.
  const clientTimeoutMs = Math.max(1, Math.ceil(timeoutMs));
  const client = new OpenAI({
    baseURL,
    apiKey,
    // Retries and timeouts are ours: the client's own would neither watch the stream body nor wake from a backoff on abort.
    maxRetries: 0,
    timeout: clientTimeoutMs,
    ...(options.headers ? { defaultHeaders: options.headers } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });

  function backoffMs(retry: number, error: ChatModelError): number {
    const asked = retryAfterMs(error);
    if (asked !== undefined) return Math.min(asked, maxBackoffMs);
    const base = Math.min(initialBackoffMs * 2 ** (retry - 1), maxBackoffMs);
    return base * (1 - Math.random() * 0.25);
  }

  function body(request: ChatRequest): ChatCompletionCreateParamsStreaming {
    const params: ChatCompletionCreateParamsStreaming = {
      ...(extraBody as Partial<ChatCompletionCreateParamsStreaming> | undefined),
      model,
      messages: toOpenAIMessages(request.messages),
      stream: true,
      stream_options: { include_usage: true },
    };
    if (temperature !== undefined) params.temperature = temperature;
    if (maxTokens !== undefined) params.max_tokens = maxTokens;
    if (request.tools.length > 0) {
      params.tools = toOpenAITools(request.tools);
      params.parallel_tool_calls = parallelToolCalls;
    } else {
      delete params.tools;
      delete params.parallel_tool_calls;
    }
    return params;
  }

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
      const params = body(request);
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
          const delayMs = backoffMs(retry + 1, error);
          onRetry?.({ retry: retry + 1, delayMs, error });
          await sleep(delayMs, signal);
        }
      }
    },
  };
}
