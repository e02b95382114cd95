/**
 * The demo page's HTTP server: the built page (static files through `sirv`, any other page
 * path gets the app), `GET /config.json`, `GET /healthz`, and nothing else. Bound to a
 * loopback address, it answers loopback host names only, so another site's DNS name pointing
 * here cannot read the config and its token.
 */
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import sirv from 'sirv';

/** What {@link startPageServer} serves besides the files. */
export interface PageServerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** The built page (`index.html` and `assets/`). */
  pageDir: string;
  /** The body of `GET /config.json` for one request. */
  config: (req: IncomingMessage) => unknown;
  /** The body of `GET /healthz`. */
  health: () => unknown;
  /** Called with a request that failed inside the server. */
  onError: (err: unknown, req: IncomingMessage) => void;
}

/** A listening page server. */
export interface PageServer {
  /** `http://host:port/`. */
  url: string;
  close(): Promise<void>;
}

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
} as const;

/** Content types with a charset where the body is text (sirv's lookup gives bare types). */
const TEXT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/** True for `localhost`, `::1` and `127.x.y.z`. */
function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || host.startsWith('127.');
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string>) {
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    ...SECURITY_HEADERS,
    ...headers,
  });
  res.end(body);
}

function json(res: ServerResponse, body: unknown, headers: Record<string, string> = {}) {
  send(res, 200, JSON.stringify(body), {
    'content-type': 'application/json; charset=utf-8',
    ...headers,
  });
}

function decodes(pathname: string): boolean {
  try {
    return !decodeURIComponent(pathname).includes('\0');
  } catch {
    return false;
  }
}

/** The address a server listens on, as a URL host (wildcards as loopback). */
function urlHost(address: AddressInfo): string {
  if (address.address === '0.0.0.0') return '127.0.0.1';
  if (address.address === '::') return '[::1]';
  return address.family === 'IPv6' ? `[${address.address}]` : address.address;
}

/** Throw a message that says how to build the page when `pageDir` has no `index.html`. */
export function assertPageBuilt(pageDir: string): void {
  const indexFile = path.join(pageDir, 'index.html');
  if (!existsSync(indexFile)) {
    throw new Error(
      `the demo page is not built (${indexFile} is missing): run \`npm run build\` at the repository root first`,
    );
  }
}

/** Serve the page; resolves once listening. */
export async function startPageServer(options: PageServerOptions): Promise<PageServer> {
  assertPageBuilt(options.pageDir);
  const files = sirv(options.pageDir, {
    single: true,
    dotfiles: false,
    setHeaders: (res, pathname) => {
      // A path without an extension is a page path: it gets index.html.
      const type = TEXT_TYPES[path.extname(pathname) || '.html'];
      if (type) res.setHeader('content-type', type);
      res.setHeader(
        'cache-control',
        pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    },
    onNoMatch: (_req, res) => send(res, 404, 'not found', {}),
  });
  const loopbackOnly = isLoopback(options.host);

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (loopbackOnly) {
      const hostname = new URL(`http://${req.headers.host ?? 'localhost'}`).hostname;
      if (!isLoopback(hostname)) return send(res, 403, 'forbidden host', {});
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return send(res, 405, 'method not allowed', { allow: 'GET, HEAD' });
    }
    if (url.pathname === '/config.json') {
      return json(res, options.config(req), { 'cache-control': 'no-store' });
    }
    if (url.pathname === '/healthz') return json(res, options.health());
    if (!decodes(url.pathname)) return send(res, 400, 'bad path', {});
    files(req, res);
  };

  const http: Server = createServer((req, res) => {
    try {
      onRequest(req, res);
    } catch (err) {
      options.onError(err, req);
      if (!res.headersSent) send(res, 500, 'internal error', {});
      else res.destroy();
    }
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const address = http.address() as AddressInfo;
  let closed: Promise<void> | undefined;
  return {
    url: `http://${urlHost(address)}:${address.port}/`,
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      })),
  };
}
