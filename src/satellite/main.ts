import { preloadRedosChecker } from '../lib/redos-check.js';
import { listen } from '../http/server.js';
import { runPart, StartupError } from '../bootstrap/process-runner.js';
import { serveMetrics } from '../metrics/metrics-server.js';
import { createProcessRegistry } from '../metrics/process-registry.js';
import { ResolverMetrics } from '../metrics/resolver-metrics.js';
import { createResolverApp } from '../resolver/app.js';
import { SatelliteSource } from './satellite-source.js';
import { UpstreamClient } from './upstream-client.js';
import { SatelliteUsage } from './usage-batches.js';

// `npm run start:satellite`: a resolver area without a database of its own, following an upstream registry area.
const USAGE =
  'Usage: npm run start:satellite   (node dist/src/cli.js satellite; in the Docker image: satellite)\n' +
  'Runs a satellite resolver on RESOLVER_PORT: the resolver area without Postgres or Redis, loading the registry\n' +
  "from SATELLITE_UPSTREAM_URL's dataset and following its change feed, its last snapshot kept in\n" +
  'SATELLITE_SNAPSHOT_DIR; usage counts go to the upstream in batches (SATELLITE_TOKEN).';

await runPart('satellite', USAGE, async (config, logger) => {
  if (config.SATELLITE_UPSTREAM_URL === '') throw new StartupError('SATELLITE_UPSTREAM_URL is required: the base URL of the upstream registry area');
  if (config.SATELLITE_TOKEN === '') throw new StartupError("SATELLITE_TOKEN is required: the upstream registry area's satellite token");
  const upstream = new UpstreamClient(config.SATELLITE_UPSTREAM_URL, config.SATELLITE_TOKEN);
  const metrics = new ResolverMetrics(createProcessRegistry());
  const registry = new SatelliteSource({
    upstream,
    logger,
    dir: config.SATELLITE_SNAPSHOT_DIR,
    pollIntervalMs: config.SATELLITE_POLL_INTERVAL_MS,
    measurementIntervalMs: config.SATELLITE_MEASUREMENT_INTERVAL_MS,
  });
  await registry.start();
  logger.info({ namespaces: registry.snapshot.namespacesByPrefix.size, version: registry.snapshot.version }, 'registry snapshot in place');
  const usage = config.USAGE_COUNTING ? new SatelliteUsage(upstream, config.SATELLITE_TOKEN, logger, config.USAGE_FLUSH_INTERVAL_MS) : undefined;
  usage?.start();
  const app = createResolverApp({
    config,
    logger,
    registry,
    usage,
    metrics,
    checks: [{ name: 'upstream', check: registry.upstreamCheck }],
    readDescription: registry.readDescription,
  });
  // The ReDoS checker is loaded before the first request, not on it (lib/redos-check.ts).
  await preloadRedosChecker();
  const server = await listen(app, config.RESOLVER_PORT, config);
  const metricsServer =
    config.RESOLVER_METRICS_PORT === 0
      ? undefined
      : await serveMetrics(metrics.registry, { host: config.HOST, port: config.RESOLVER_METRICS_PORT, token: config.METRICS_TOKEN, logger });
  const metricsAt = metricsServer ? `, metrics on ${config.HOST}:${metricsServer.port}` : '';
  return {
    description: `satellite resolver of ${config.SATELLITE_UPSTREAM_URL} on ${config.PUBLIC_RESOLVER_URL} (listening on ${config.HOST}:${server.port}${metricsAt})`,
    stop: async () => {
      await server.close();
      await metricsServer?.close();
      await usage?.stop();
      await registry.stop();
    },
  };
});
