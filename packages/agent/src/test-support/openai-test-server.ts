/**
 * A local OpenAI-compatible chat-completions server for tests, scripted by the
 * test. It listens on 127.0.0.1 on a free port and speaks the protocol as
 * OpenAI documents it:
 *
 * - `POST /v1/chat/completions` with `stream: true` answers `text/event-stream`
 *   `data: {chat.completion.chunk}\n\n` events: a role delta first, content
 *   deltas, `tool_calls` deltas (`index`, `id`, `type: "function"`,
 *   `function.name`, then `function.arguments` split over several chunks), a
 *   chunk with `finish_reason` (`stop` or `tool_calls`), with
 *   `stream_options.include_usage` a final usage chunk with empty `choices`
 *   (every other chunk then has `usage: null`), and `data: [DONE]\n\n`.
 * - Without `stream`, it answers a `chat.completion` object.
 * - Errors are `{error: {message, type, param, code}}` with the HTTP status
 *   (429 adds `retry-after` and `retry-after-ms` headers).
 * - `GET /v1/models` lists one model.
 *
 * Responses come from `enqueue()` (first in, first out); when the queue is
 * empty, from the `respond()` function; with neither, a 500 error with
 * `x-should-retry: false`. Every request body is recorded in `requests`.
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A scripted tool call. */
export interface OpenAITestToolCall {
  name: string;
  /** An object is sent as its JSON; a string as is (it may be invalid JSON on purpose). */
  arguments: Record<string, unknown> | string;
  /** Defaults to `call_<n>`, n counting the server's tool calls from 1. */
  id?: string;
}

/** Options of every answering response. */
interface OpenAITestAnswerOptions {
  /** Wait before the response starts (headers included), in ms. */
  delayMs?: number;
  /**
   * Wait between two stream chunks, in ms (a slow stream, for interruption tests). The role
   * chunk and the first delta go out together, then every later chunk waits.
   */
  chunksDelayMs?: number;
  /** Destroy the connection after this many stream chunks, the role chunk included (a dropped connection mid-stream; 50 ms or `chunksDelayMs` after the last one). */
  dropAfterChunks?: number;
  /** Override the reported usage (by default estimated from the request and the answer, about four characters a token). */
  usage?: { prompt_tokens: number; completion_tokens: number };
}

/** What the server answers to one request. */
export type OpenAITestResponse =
  | (OpenAITestAnswerOptions & {
      /** The answer text; an array gives the exact content chunks, a string is split into word chunks. */
      text: string | string[];
      toolCalls?: undefined;
    })
  | (OpenAITestAnswerOptions & {
      toolCalls: OpenAITestToolCall[];
      /** Text streamed before the tool calls. */
      text?: string | string[];
    })
  | {
      error: {
        status: number;
        message: string;
        /** OpenAI error `type`; defaults from the status. */
        type?: string;
        /** OpenAI error `code`; defaults from the status. */
        code?: string | null;
        /** For 429 (or any status): the `retry-after-ms` header, and `retry-after` rounded up to seconds. Default 0 for 429. */
        retryAfterMs?: number;
        /** Sets the `x-should-retry` header. */
        shouldRetry?: boolean;
      };
      delayMs?: number;
    }
  /** Never answers (until the client goes away or the server closes), to test timeouts. */
  | { hang: true };

/** The parsed JSON body of a chat-completions request (loosely typed). */
export interface OpenAITestRequest {
  model?: string;
  messages: Array<Record<string, unknown>>;
  tools?: Array<Record<string, unknown>>;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  [key: string]: unknown;
}

/** One request as the server saw it. */
export interface OpenAITestCall {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: OpenAITestRequest;
  /** True once the client closed the connection before the answer was complete. */
  closedByClient: boolean;
  /** True once the answer was completely sent. */
  completed: boolean;
}

export type OpenAITestResponder = (
  request: OpenAITestRequest,
  call: OpenAITestCall,
) => OpenAITestResponse | Promise<OpenAITestResponse>;

export interface OpenAITestServerOptions {
  /** When set, requests without `Authorization: Bearer <apiKey>` get a 401. */
  apiKey?: string;
  /** Model id of `GET /v1/models` and of answers to requests without `model`. Default `test-model`. */
  model?: string;
}

const ERROR_DEFAULTS: Record<number, { type: string; code: string | null }> = {
  400: { type: 'invalid_request_error', code: null },
  401: { type: 'invalid_request_error', code: 'invalid_api_key' },
  403: { type: 'invalid_request_error', code: 'unsupported_country_region_territory' },
  404: { type: 'invalid_request_error', code: 'model_not_found' },
  429: { type: 'requests', code: 'rate_limit_exceeded' },
  500: { type: 'server_error', code: null },
  503: { type: 'server_error', code: 'service_unavailable' },
};

function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** A string in word chunks: each word keeps its trailing whitespace. */
function wordChunks(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** A string in `parts` roughly equal pieces (at least one, no empty piece unless the string is empty). */
function splitInto(text: string, parts: number): string[] {
  if (text.length <= 1) return [text];
  const size = Math.ceil(text.length / Math.min(parts, text.length));
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

export class OpenAITestServer {
  /** Every request body, in arrival order (chat completions only). */
  readonly requests: OpenAITestRequest[] = [];
  /** Every chat-completions request with its headers and fate, in arrival order. */
  readonly calls: OpenAITestCall[] = [];
  readonly #server: Server;
  readonly #options: OpenAITestServerOptions;
  readonly #queue: OpenAITestResponse[] = [];
  readonly #sockets = new Set<Socket>();
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  #responder: OpenAITestResponder | undefined;
  #toolCallCount = 0;
  #completionCount = 0;
  #closed = false;

  private constructor(server: Server, options: OpenAITestServerOptions) {
    this.#server = server;
    this.#options = options;
  }

  /** Start a server on 127.0.0.1 on a free port. */
  static async start(options: OpenAITestServerOptions = {}): Promise<OpenAITestServer> {
    const server = createServer();
    const instance = new OpenAITestServer(server, options);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      instance.#handle(req, res).catch((error: unknown) => {
        if (!res.headersSent && !res.destroyed) {
          instance.#sendError(res, {
            status: 500,
            message: `openai-test-server: ${String(error)}`,
          });
        } else {
          res.destroy();
        }
      });
    });
    server.on('connection', (socket: Socket) => {
      instance.#sockets.add(socket);
      socket.on('close', () => instance.#sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    return instance;
  }

  /** `http://127.0.0.1:<port>` */
  get url(): string {
    const { port } = this.#server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** The base URL an OpenAI client takes: `http://127.0.0.1:<port>/v1`. */
  get baseURL(): string {
    return `${this.url}/v1`;
  }

  /** Queue responses, served first in, first out. */
  enqueue(...responses: OpenAITestResponse[]): this {
    this.#queue.push(...responses);
    return this;
  }

  /** Answer with a function of the request whenever the queue is empty. */
  respond(responder: OpenAITestResponder | undefined): this {
    this.#responder = responder;
    return this;
  }

  /** How many queued responses are left. */
  get pending(): number {
    return this.#queue.length;
  }

  /** Forget the queue, the responder and the recorded requests. */
  reset(): void {
    this.#queue.length = 0;
    this.#responder = undefined;
    this.requests.length = 0;
    this.calls.length = 0;
  }

  /** Stop listening and end every connection, hung requests and slow streams included. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    for (const socket of this.#sockets) socket.destroy();
    this.#server.closeAllConnections();
    await closed;
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.#closed) return;
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        resolve();
      }, ms);
      this.#timers.add(timer);
    });
  }

  #authorized(req: IncomingMessage): boolean {
    return (
      this.#options.apiKey === undefined ||
      req.headers.authorization === `Bearer ${this.#options.apiKey}`
    );
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname.replace(/\/+$/, '');
    const raw = await readBody(req);
    if (req.method === 'GET' && path === '/v1/models') {
      if (!this.#authorized(req)) {
        this.#sendError(res, { status: 401, message: 'Incorrect API key provided.' });
        return;
      }
      const model = this.#options.model ?? 'test-model';
      sendJson(res, 200, {
        object: 'list',
        data: [{ id: model, object: 'model', created: 0, owned_by: 'openai-test-server' }],
      });
      return;
    }
    if (path !== '/v1/chat/completions') {
      this.#sendError(res, {
        status: 404,
        message: `Unknown request URL: ${req.method} ${req.url}`,
        code: 'unknown_url',
      });
      return;
    }
    if (req.method !== 'POST') {
      this.#sendError(res, {
        status: 405,
        message: `Method ${req.method} not allowed`,
        type: 'invalid_request_error',
      });
      return;
    }
    let body: OpenAITestRequest;
    try {
      body = JSON.parse(raw) as OpenAITestRequest;
    } catch {
      this.#sendError(res, {
        status: 400,
        message: 'We could not parse the JSON body of your request.',
      });
      return;
    }
    if (typeof body !== 'object' || body === null || !Array.isArray(body.messages)) {
      this.#sendError(res, {
        status: 400,
        message: "Missing required parameter: 'messages'.",
        code: 'missing_required_parameter',
      });
      return;
    }
    const call: OpenAITestCall = {
      method: req.method,
      path,
      headers: req.headers,
      body,
      closedByClient: false,
      completed: false,
    };
    this.requests.push(body);
    this.calls.push(call);
    res.on('close', () => {
      if (!call.completed) call.closedByClient = true;
    });
    if (!this.#authorized(req)) {
      call.completed = true;
      this.#sendError(res, { status: 401, message: 'Incorrect API key provided.' });
      return;
    }

    const response = this.#queue.shift() ?? (await this.#responder?.(body, call));
    if (!response) {
      res.setHeader('x-should-retry', 'false');
      call.completed = true;
      this.#sendError(res, {
        status: 500,
        message: 'openai-test-server: no scripted response for this request',
      });
      return;
    }
    if ('hang' in response) return;
    if (response.delayMs) await this.#sleep(response.delayMs);
    if (res.destroyed) return;
    if ('error' in response) {
      call.completed = true;
      this.#sendError(res, response.error);
      return;
    }
    if (body.stream === true) {
      await this.#stream(res, body, response, call);
    } else {
      call.completed = true;
      sendJson(res, 200, this.#completion(body, response));
    }
  }

  #sendError(
    res: ServerResponse,
    error: {
      status: number;
      message: string;
      type?: string;
      code?: string | null;
      retryAfterMs?: number;
      shouldRetry?: boolean;
    },
  ): void {
    const defaults = ERROR_DEFAULTS[error.status] ?? {
      type: error.status >= 500 ? 'server_error' : 'invalid_request_error',
      code: null,
    };
    const retryAfterMs = error.retryAfterMs ?? (error.status === 429 ? 0 : undefined);
    if (retryAfterMs !== undefined) {
      res.setHeader('retry-after-ms', String(retryAfterMs));
      res.setHeader('retry-after', String(Math.ceil(retryAfterMs / 1000)));
    }
    if (error.shouldRetry !== undefined) res.setHeader('x-should-retry', String(error.shouldRetry));
    sendJson(res, error.status, {
      error: {
        message: error.message,
        type: error.type ?? defaults.type,
        param: null,
        code: error.code === undefined ? defaults.code : error.code,
      },
    });
  }

  #toolCalls(response: OpenAITestResponse): Array<{ id: string; name: string; arguments: string }> {
    if (!('toolCalls' in response) || !response.toolCalls) return [];
    return response.toolCalls.map((call) => ({
      id: call.id ?? `call_${++this.#toolCallCount}`,
      name: call.name,
      arguments:
        typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    }));
  }

  #usage(
    body: OpenAITestRequest,
    response: OpenAITestAnswerOptions,
    text: string,
    toolCalls: Array<{ name: string; arguments: string }>,
  ): { prompt_tokens: number; completion_tokens: number; total_tokens: number } {
    const given = response.usage;
    const prompt = given?.prompt_tokens ?? estimateTokens(JSON.stringify(body.messages));
    const completion =
      given?.completion_tokens ??
      estimateTokens(text + toolCalls.map((c) => c.name + c.arguments).join(''));
    return {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
    };
  }

  #completion(
    body: OpenAITestRequest,
    response: Exclude<OpenAITestResponse, { error: unknown } | { hang: true }>,
  ) {
    const chunks =
      response.text === undefined
        ? []
        : typeof response.text === 'string'
          ? [response.text]
          : response.text;
    const text = chunks.join('');
    const toolCalls = this.#toolCalls(response);
    return {
      id: `chatcmpl-test${++this.#completionCount}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model ?? this.#options.model ?? 'test-model',
      system_fingerprint: 'fp_openai_test_server',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: text.length > 0 || toolCalls.length === 0 ? text : null,
            refusal: null,
            ...(toolCalls.length > 0
              ? {
                  tool_calls: toolCalls.map((c) => ({
                    id: c.id,
                    type: 'function',
                    function: { name: c.name, arguments: c.arguments },
                  })),
                }
              : {}),
          },
          logprobs: null,
          finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
        },
      ],
      usage: this.#usage(body, response, text, toolCalls),
    };
  }

  async #stream(
    res: ServerResponse,
    body: OpenAITestRequest,
    response: Exclude<OpenAITestResponse, { error: unknown } | { hang: true }>,
    call: OpenAITestCall,
  ): Promise<void> {
    const includeUsage = body.stream_options?.include_usage === true;
    const id = `chatcmpl-test${++this.#completionCount}`;
    const created = Math.floor(Date.now() / 1000);
    const model = body.model ?? this.#options.model ?? 'test-model';
    const textChunks =
      response.text === undefined
        ? []
        : typeof response.text === 'string'
          ? wordChunks(response.text)
          : response.text;
    const toolCalls = this.#toolCalls(response);

    const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      system_fingerprint: 'fp_openai_test_server',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...(includeUsage ? { usage: null } : {}),
    });
    const events: unknown[] = [chunk({ role: 'assistant', content: '', refusal: null })];
    for (const text of textChunks) events.push(chunk({ content: text }));
    toolCalls.forEach((toolCall, index) => {
      events.push(
        chunk({
          tool_calls: [
            {
              index,
              id: toolCall.id,
              type: 'function',
              function: { name: toolCall.name, arguments: '' },
            },
          ],
        }),
      );
      for (const piece of splitInto(toolCall.arguments, 3)) {
        events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
      }
    });
    events.push(chunk({}, toolCalls.length > 0 ? 'tool_calls' : 'stop'));
    if (includeUsage) {
      events.push({
        id,
        object: 'chat.completion.chunk',
        created,
        model,
        system_fingerprint: 'fp_openai_test_server',
        choices: [],
        usage: this.#usage(body, response, textChunks.join(''), toolCalls),
      });
    }

    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    res.flushHeaders();
    let sent = 0;
    for (const event of events) {
      if (res.destroyed || this.#closed) return;
      if (response.dropAfterChunks !== undefined && sent >= response.dropAfterChunks) {
        // Give the client time to read what was sent: an errored fetch body drops its unread chunks.
        await this.#sleep(response.chunksDelayMs || 50);
        res.destroy();
        return;
      }
      if (sent > 1 && response.chunksDelayMs) {
        await this.#sleep(response.chunksDelayMs);
        if (res.destroyed || this.#closed) return;
      }
      res.write(`data: ${JSON.stringify(event)}\n\n`);
      sent++;
    }
    call.completed = true;
    res.end('data: [DONE]\n\n');
  }
}

/** Start an {@link OpenAITestServer} on 127.0.0.1 on a free port. */
export function startOpenAITestServer(
  options: OpenAITestServerOptions = {},
): Promise<OpenAITestServer> {
  return OpenAITestServer.start(options);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}
