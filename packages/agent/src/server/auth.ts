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
  if (token === undefined) return true;
  const presented = presentedToken(request);
  return presented !== undefined && safeEqual(presented, token);
}

/** Is `host` a loopback address or name (`127.0.0.0/8`, `::1`, `localhost`)? */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  return (
    h === 'localhost' ||
    h.endsWith('.localhost') ||
    h === '::1' ||
    /^127(\.\d{1,3}){3}$/.test(h) ||
    /^::ffff:127(\.\d{1,3}){3}$/.test(h)
  );
}

/** The `scheme://host[:port]` form of an origin, or undefined when it is not one. */
export function normalizeOrigin(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.origin === 'null' ? undefined : url.origin;
  } catch {
    return undefined;
  }
}

/**
 * May this upgrade request connect, judged by its `Origin` header? Requests without one (not
 * browsers) may; a browser's origin must be in `allowed` (or `allowed` holds `*`).
 */
export function isOriginAllowed(
  request: IncomingMessage,
  allowed: readonly string[] | undefined,
): boolean {
  if (allowed === undefined) return true;
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  if (allowed.includes('*')) return true;
  const normalized = normalizeOrigin(origin);
  return normalized !== undefined && allowed.some((a) => normalizeOrigin(a) === normalized);
}

/**
 * Check the auth settings of a server about to bind `host`: an empty token is an error, and a
 * non-loopback address needs a token unless `allowUnauthenticated` says otherwise.
 */
export function checkAuthSettings(options: {
  host: string;
  token?: string | undefined;
  allowUnauthenticated?: boolean | undefined;
  allowedOrigins?: readonly string[] | undefined;
}): void {
  if (options.token !== undefined && options.token.trim() === '')
    throw new Error(
      'the token is empty: give a non-empty token (--token or $SCENARO_TOKEN), or none at all',
    );
  if (options.token === undefined && !options.allowUnauthenticated && !isLoopbackHost(options.host))
    throw new Error(
      `refusing to serve ${options.host} without a token: anyone who can reach it could drive ` +
        'the bot and its control plane. Set one with --token <secret> or $SCENARO_TOKEN ' +
        '(clients pass ?token= or Authorization: Bearer), or, behind something else that ' +
        'authenticates, pass --insecure-no-auth (allowUnauthenticated).',
    );
  for (const origin of options.allowedOrigins ?? []) {
    if (origin !== '*' && normalizeOrigin(origin) === undefined)
      throw new Error(`not an origin: '${origin}' (expected scheme://host[:port], or *)`);
  }
}
