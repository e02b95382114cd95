/**
 * The HTTP side of a bot server: `POST /connect`, `GET /healthz` (liveness), `GET /readyz`
 * (readiness: false while draining), `GET /metrics` (Prometheus, with the WebSocket's token
 * rule), and the checks a WebSocket upgrade must pass (the server not closing, the connection
 * limits, an allowed origin, the token) before it becomes a connection.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { isAuthorized, isOriginAllowed } from './auth.js';
import type { Logger } from './logger.js';
import type { RefusalReason, ServerMetrics } from './metrics.js';

/** What the HTTP endpoints report. */
export interface HttpEndpointState {
  closing: boolean;
  /** Sessions with a connection. */
  sessions: number;
  /** The `ws_url` `POST /connect` answers with; without it there is no `/connect` route. */
  wsUrl?: () => string;
  /** Served at `GET /metrics`; without it there is no such route. */
  metrics?: ServerMetrics;
  /** The token `GET /metrics` needs, as a WebSocket does. */
  token: string | undefined;
  log: Logger;
}

/** Answer `POST /connect`, `GET /healthz`, `GET /readyz`, `GET /metrics`, or 404. */
export function answerHttp(
  req: IncomingMessage,
  res: ServerResponse,
  state: HttpEndpointState,
): void {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const json = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const get = req.method === 'GET';
  if (req.method === 'POST' && url.pathname === '/connect' && state.wsUrl) {
    json(200, { ws_url: state.wsUrl() });
  } else if (get && url.pathname === '/healthz') {
    json(200, { status: state.closing ? 'closing' : 'ok', sessions: state.sessions });
  } else if (get && url.pathname === '/readyz') {
    json(state.closing ? 503 : 200, {
      ready: !state.closing,
      status: state.closing ? 'draining' : 'ok',
    });
  } else if (get && url.pathname === '/metrics' && state.metrics) {
    if (!isAuthorized(req, state.token)) {
      res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
      return;
    }
    const { metrics } = state;
    metrics.text().then(
      (text) => {
        res.writeHead(200, { 'content-type': metrics.contentType });
        res.end(text);
      },
      (err: unknown) => {
        state.log.error({ err }, 'metrics failed');
        json(500, { error: 'metrics failed' });
      },
    );
  } else {
    json(404, { error: `no route for ${req.method} ${url.pathname}` });
  }
}

/** What an upgrade is checked against. */
export interface UpgradeGate {
  closing: boolean;
  connections: number;
  pendingHandshakes: number;
  maxConnections: number;
  maxPendingHandshakes: number;
  allowedOrigins: string[] | undefined;
  token: string | undefined;
  log: Logger;
}

/**
 * Answer a refused upgrade (503, 403 or 401) on `socket` and return why; undefined lets it in.
 */
export function refuseUpgrade(
  req: IncomingMessage,
  socket: Duplex,
  gate: UpgradeGate,
): RefusalReason | undefined {
  if (gate.closing) {
    socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n');
    return 'draining';
  }
  const busy =
    gate.connections >= gate.maxConnections
      ? 'connection'
      : gate.pendingHandshakes >= gate.maxPendingHandshakes
        ? 'pending handshake'
        : undefined;
  if (busy) {
    gate.log.warn({ remote: req.socket.remoteAddress }, `refused a connection: ${busy} limit`);
    socket.end(
      'HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n',
    );
    return 'connection_limit';
  }
  if (!isOriginAllowed(req, gate.allowedOrigins)) {
    gate.log.warn(
      { remote: req.socket.remoteAddress, origin: req.headers.origin },
      'refused a connection from an origin not allowed',
    );
    socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    return 'origin';
  }
  if (!isAuthorized(req, gate.token)) {
    gate.log.warn({ remote: req.socket.remoteAddress }, 'refused an unauthenticated connection');
    socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    return 'unauthorized';
  }
  return undefined;
}

/** Start `server` listening on `port` and `host`. */
export function listenOn(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** The request id of an HTTP request: its `X-Request-Id`, or a fresh one. */
export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && given.length > 0 && given.length <= 128
    ? given
    : randomUUID();
}
