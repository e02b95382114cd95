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
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { AnswerComposer } from './answers.js';
import { readBody, sendError, sendJson } from './http.js';
import type {
  OpenAITestAnswer,
  OpenAITestCall,
  OpenAITestRequest,
  OpenAITestResponder,
  OpenAITestResponse,
  OpenAITestServerOptions,
} from './types.js';

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
  readonly #answers: AnswerComposer;
  #responder: OpenAITestResponder | undefined;
  #closed = false;

  private constructor(server: Server, options: OpenAITestServerOptions) {
    this.#server = server;
    this.#options = options;
    this.#answers = new AnswerComposer(options.model ?? 'test-model');
  }

  /** Start a server on 127.0.0.1 on a free port. */
  static async start(options: OpenAITestServerOptions = {}): Promise<OpenAITestServer> {
    const server = createServer();
    const instance = new OpenAITestServer(server, options);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      instance.#handle(req, res).catch((error: unknown) => {
        if (!res.headersSent && !res.destroyed) {
          sendError(res, {
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
        sendError(res, { status: 401, message: 'Incorrect API key provided.' });
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
      sendError(res, {
        status: 404,
        message: `Unknown request URL: ${req.method} ${req.url}`,
        code: 'unknown_url',
      });
      return;
    }
    if (req.method !== 'POST') {
      sendError(res, {
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
      sendError(res, {
        status: 400,
        message: 'We could not parse the JSON body of your request.',
      });
      return;
    }
    if (typeof body !== 'object' || body === null || !Array.isArray(body.messages)) {
      sendError(res, {
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
      sendError(res, { status: 401, message: 'Incorrect API key provided.' });
      return;
    }

    const response = this.#queue.shift() ?? (await this.#responder?.(body, call));
    if (!response) {
      res.setHeader('x-should-retry', 'false');
      call.completed = true;
      sendError(res, {
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
      sendError(res, response.error);
      return;
    }
    if (body.stream === true) {
      await this.#stream(res, body, response, call);
    } else {
      call.completed = true;
      sendJson(res, 200, this.#answers.completion(body, response));
    }
  }

  async #stream(
    res: ServerResponse,
    body: OpenAITestRequest,
    response: OpenAITestAnswer,
    call: OpenAITestCall,
  ): Promise<void> {
    const events = this.#answers.streamEvents(body, response);
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
