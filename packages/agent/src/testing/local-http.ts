/**
 * A test HTTP server on a free port of 127.0.0.1, for the local stand-ins of remote endpoints.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A listening {@link listenLocally} server. */
export interface LocalHttpServer {
  /** `http://127.0.0.1:<port>` followed by the path it was given. */
  baseURL: string;
  /** Close the server, ending every connection it still has. */
  close(): Promise<void>;
}

/** Listen with `server` on a free port of 127.0.0.1; its base URL ends with `path`. */
export async function listenLocally(server: Server, path = ''): Promise<LocalHttpServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
