import { listenArea } from '../bootstrap/listen-area.js';
import { StartupError, type PartStarter, type StartedPart } from '../bootstrap/process-runner.js';
import { createProcessRegistry } from '../metrics/process-registry.js';
import { ResolverMetrics } from '../metrics/resolver-metrics.js';
import { createResolverApp } from '../resolver/app.js';
import { SatelliteSource } from './satellite-source.js';
import { UpstreamClient } from './upstream-client.js';
import { SatelliteUsage } from './usage-batches.js';

/** Starts a satellite resolver (its entry, main.ts, loads this module once its arguments and settings are good). */
export const startSatellite: PartStarter = async (config, logger): Promise<StartedPart> => {
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
  const area = await listenArea(app, { port: config.RESOLVER_PORT, metricsPort: config.RESOLVER_METRICS_PORT }, metrics.registry, config, logger);
  return {
    description: `satellite resolver of ${config.SATELLITE_UPSTREAM_URL} on ${config.PUBLIC_RESOLVER_URL} (${area.listening})`,
    stop: async () => {
      await area.close();
      await usage?.stop();
      await registry.stop();
    },
  };
};
