/**
 * What a test scripts the OpenAI-compatible test server with (responses, tool calls, errors)
 * and what the server records of each request.
 */
import type { IncomingHttpHeaders } from 'node:http';

/** A scripted tool call. */
export interface OpenAITestToolCall {
  name: string;
  /** An object is sent as its JSON; a string as is (it may be invalid JSON on purpose). */
  arguments: Record<string, unknown> | string;
  /** Defaults to `call_<n>`, n counting the server's tool calls from 1. */
  id?: string;
}

/** Options of every answering response. */
export interface OpenAITestAnswerOptions {
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

/** An OpenAI error answer: `{error: {message, type, param, code}}` with the HTTP status. */
export interface OpenAITestError {
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
}

/** A response that answers (text, tool calls or both), as opposed to an error or a hang. */
export type OpenAITestAnswer =
  | (OpenAITestAnswerOptions & {
      /** The answer text; an array gives the exact content chunks, a string is split into word chunks. */
      text: string | string[];
      toolCalls?: undefined;
    })
  | (OpenAITestAnswerOptions & {
      toolCalls: OpenAITestToolCall[];
      /** Text streamed before the tool calls. */
      text?: string | string[];
    });

/** What the server answers to one request. */
export type OpenAITestResponse =
  | OpenAITestAnswer
  | { error: OpenAITestError; delayMs?: number }
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
