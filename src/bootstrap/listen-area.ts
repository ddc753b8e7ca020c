import type Koa from 'koa';
import type { Registry } from 'prom-client';
import type { Config } from '../config.js';
import { listen } from '../http/server.js';
import type { Logger } from '../lib/logger.js';
import { warmUp } from '../lib/warm-up.js';
import { serveMetrics } from '../metrics/metrics-server.js';

export interface ListeningArea {
  /** For the start-up log: `listening on HOST:PORT`, and where the metrics are when on a port of their own. */
  listening: string;
  /** Stops the area's listener (in-flight requests finish), then the metrics listener. */
  close: () => Promise<void>;
}

/**
 * The last steps of an HTTP area's start (resolver, registry, satellite): what its features load on first
 * use (lib/warm-up.ts) is loaded before the first request rather than on it; then the area listens on
 * `port`, and its metrics on `metricsPort` when that is not 0 (0: /metrics on the area's own port).
 */
export async function listenArea(
  app: Koa,
  ports: { port: number; metricsPort: number },
  metrics: Registry,
  config: Pick<Config, 'HOST' | 'HTTP_REQUEST_TIMEOUT_MS' | 'HTTP_KEEP_ALIVE_TIMEOUT_MS' | 'METRICS_TOKEN'>,
  logger: Logger,
): Promise<ListeningArea> {
  await warmUp();
  const server = await listen(app, ports.port, config);
  const metricsServer =
    ports.metricsPort === 0 ? undefined : await serveMetrics(metrics, { host: config.HOST, port: ports.metricsPort, token: config.METRICS_TOKEN, logger });
  const metricsAt = metricsServer ? `, metrics on ${config.HOST}:${metricsServer.port}` : '';
  return {
    listening: `listening on ${config.HOST}:${server.port}${metricsAt}`,
    close: async () => {
      await server.close();
      await metricsServer?.close();
    },
  };
}
