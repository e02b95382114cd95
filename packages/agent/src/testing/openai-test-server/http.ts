/**
 * The HTTP side of the OpenAI-compatible test server: reading a request body, answering JSON,
 * and OpenAI-shaped errors with their default `type`/`code` and retry headers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OpenAITestError } from './types.js';

const ERROR_DEFAULTS: Record<number, { type: string; code: string | null }> = {
  400: { type: 'invalid_request_error', code: null },
  401: { type: 'invalid_request_error', code: 'invalid_api_key' },
  403: { type: 'invalid_request_error', code: 'unsupported_country_region_territory' },
  404: { type: 'invalid_request_error', code: 'model_not_found' },
  429: { type: 'requests', code: 'rate_limit_exceeded' },
  500: { type: 'server_error', code: null },
  503: { type: 'server_error', code: 'service_unavailable' },
};

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** Answer `{error: {message, type, param, code}}` with the error's status and retry headers. */
export function sendError(res: ServerResponse, error: OpenAITestError): void {
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
