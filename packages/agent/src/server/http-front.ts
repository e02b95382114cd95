/**
 * The HTTP side of a bot server: `POST /connect` and `GET /healthz`, and the checks a
 * WebSocket upgrade must pass (the server not closing, the connection limits, an allowed
 * origin, the token) before it becomes a connection.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { isAuthorized, isOriginAllowed } from './auth.js';
import type { Logger } from './logger.js';

/** What the HTTP endpoints report. */
export interface HttpEndpointState {
  closing: boolean;
  /** Sessions with a connection. */
  sessions: number;
  /** The `ws_url` `POST /connect` answers with. */
  wsUrl: () => string;
}

/** Answer `POST /connect`, `GET /healthz`, or 404. */
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
  if (req.method === 'POST' && url.pathname === '/connect') {
    json(200, { ws_url: state.wsUrl() });
  } else if (req.method === 'GET' && url.pathname === '/healthz') {
    json(200, { status: state.closing ? 'closing' : 'ok', sessions: state.sessions });
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

/** Answer a refused upgrade (503, 403 or 401) on `socket` and return true; false lets it in. */
export function refuseUpgrade(req: IncomingMessage, socket: Duplex, gate: UpgradeGate): boolean {
  if (gate.closing) {
    socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n');
    return true;
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
    return true;
  }
  if (!isOriginAllowed(req, gate.allowedOrigins)) {
    gate.log.warn(
      { remote: req.socket.remoteAddress, origin: req.headers.origin },
      'refused a connection from an origin not allowed',
    );
    socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    return true;
  }
  if (!isAuthorized(req, gate.token)) {
    gate.log.warn({ remote: req.socket.remoteAddress }, 'refused an unauthenticated connection');
    socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    return true;
  }
  return false;
}
