import http from 'node:http';
import type Koa from 'koa';
import type { Config } from '../config.js';

export interface RunningServer {
  server: http.Server;
  port: number;
  close: () => Promise<void>;
}

/**
 * Listens with explicit timeouts: Node's defaults let a slow client hold a socket for 5 minutes.
 * close() stops accepting, lets in-flight requests finish, and drops idle keep-alive sockets.
 */
export function listen(app: Koa, port: number, config: Pick<Config, 'HOST' | 'HTTP_REQUEST_TIMEOUT_MS' | 'HTTP_KEEP_ALIVE_TIMEOUT_MS'>): Promise<RunningServer> {
  const server = http.createServer(app.callback());
  server.requestTimeout = config.HTTP_REQUEST_TIMEOUT_MS;
  server.headersTimeout = Math.min(config.HTTP_REQUEST_TIMEOUT_MS, 20000);
  server.keepAliveTimeout = config.HTTP_KEEP_ALIVE_TIMEOUT_MS;
  server.maxHeadersCount = 100;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, config.HOST, () => {
      server.off('error', reject);
      const address = server.address();
      const actualPort = typeof address === 'object' && address ? address.port : port;
      resolve({
        server,
        port: actualPort,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeIdleConnections();
          }),
      });
    });
  });
}
