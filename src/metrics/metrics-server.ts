import http from 'node:http';
import type { Registry } from 'prom-client';
import type { Logger } from '../lib/logger.js';
import { METRICS_PATH, scrapeMetrics } from './scrape.js';

export interface MetricsServer {
  port: number;
  close: () => Promise<void>;
}

export interface MetricsServerOptions {
  host: string;
  /** 0 picks a free port (tests). */
  port: number;
  /** METRICS_TOKEN; empty: no token asked. */
  token: string;
  logger: Logger;
}

/**
 * A listener of its own for /metrics: the worker's (WORKER_METRICS_PORT), and an area's when its metrics are
 * kept off the public port (RESOLVER_METRICS_PORT, REGISTRY_METRICS_PORT), e.g. a port only the monitoring
 * network reaches. GET or HEAD /metrics and nothing else; plain node:http, as nothing else is served here.
 */
export function serveMetrics(registry: Registry, options: MetricsServerOptions): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== METRICS_PATH) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`Not found: only ${METRICS_PATH} is served here\n`);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'HEAD, GET', 'Content-Type': 'text/plain; charset=utf-8' }).end(`Method ${req.method ?? ''} is not allowed\n`);
      return;
    }
    scrapeMetrics(registry, options.token, req.headers.authorization).then(
      (answer) => {
        res.writeHead(answer.status, answer.headers);
        res.end(req.method === 'HEAD' ? undefined : answer.body);
      },
      (error: unknown) => {
        options.logger.error({ err: error }, 'cannot collect the metrics');
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('The metrics could not be collected\n');
      },
    );
  });
  // A scrape is one short request: a client that holds its socket longer is not Prometheus.
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  server.keepAliveTimeout = 5_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      const address = server.address();
      resolve({
        port: typeof address === 'object' && address ? address.port : options.port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeIdleConnections();
          }),
      });
    });
  });
}
