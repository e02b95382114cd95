/**
 * Plain HTTP probes of a bot server, without an RTVI client: the status an upgrade gets, the
 * JSON of an HTTP endpoint, and the TCP socket under a WebSocket.
 */
import { request as httpRequest } from 'node:http';
import { Socket } from 'node:net';
import { WebSocket } from 'ws';

/**
 * The TCP socket under a `ws` WebSocket (its private `_socket`), for tests that pause, stall or
 * inspect the transport itself.
 */
export function tcpSocketOf(ws: WebSocket): Socket {
  const socket: unknown = Reflect.get(ws, '_socket');
  if (!(socket instanceof Socket)) throw new Error('the WebSocket has no TCP socket (yet)');
  return socket;
}

/** The HTTP status an upgrade to `url` is answered with (101 when it is accepted). */
export async function upgradeStatus(
  url: string,
  headers: Record<string, string> = {},
): Promise<number> {
  const ws = new WebSocket(url, { headers });
  return new Promise<number>((resolve, reject) => {
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('unexpected-response', (_req, res) => {
      res.resume();
      ws.terminate();
      resolve(res.statusCode ?? 0);
    });
    ws.once('error', reject);
  });
}

/** A plain HTTP request to the server; resolves with the status and the parsed JSON body. */
export async function httpJson(
  url: string,
  method: 'GET' | 'POST',
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url.replace(/^ws/, 'http'), { method }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown });
        } catch {
          resolve({ status: res.statusCode ?? 0, body: text });
        }
      });
    });
    req.on('error', reject);
    req.end();
  });
}
