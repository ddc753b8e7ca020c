import type http from 'node:http';

/**
 * Runs a same-run baseline (the least a server can do for the benchmark's requests) in its child process on
 * 127.0.0.1 until SIGTERM, SIGINT or its parent going; `port` 0 takes a free one, told to `onListening`.
 */
export function serveBaseline(server: http.Server, port: number, onListening?: (port: number) => void): void {
  // The service's keep-alive default (HTTP_KEEP_ALIVE_TIMEOUT_MS), so neither side closes connections sooner.
  server.keepAliveTimeout = 65_000;
  server.listen(port, '127.0.0.1', () => {
    const address = server.address();
    onListening?.(typeof address === 'object' && address ? address.port : 0);
  });
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('disconnect', stop);
}
