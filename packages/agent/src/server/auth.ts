/**
 * Optional token auth for the WebSocket upgrade: `?token=` (as
 * `@pipecat-ai/client-js` sends it) or `Authorization: Bearer <token>`,
 * compared in constant time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Constant-time string equality (lengths are hidden by hashing first). */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

/** The token a request presents, if any. */
export function presentedToken(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  if (typeof header === 'string') {
    const match = /^Bearer\s+(.+)$/i.exec(header.trim());
    if (match) return match[1];
  }
  const url = new URL(request.url ?? '/', 'http://localhost');
  return url.searchParams.get('token') ?? undefined;
}

/** Does the request carry the expected token? Always true when no token is configured. */
export function isAuthorized(request: IncomingMessage, token: string | undefined): boolean {
  if (token === undefined || token === '') return true;
  const presented = presentedToken(request);
  return presented !== undefined && safeEqual(presented, token);
}
