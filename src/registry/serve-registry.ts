import { closeReads, connectPostgres, connectReads, connectRedis } from '../bootstrap/connect.js';
import { listenArea } from '../bootstrap/listen-area.js';
import type { PartStarter, StartedPart } from '../bootstrap/process-runner.js';
import { createRegistryApp } from './app.js';
import { createRegexTester } from './registration/regex/regex-tester.js';
import { SparqlPool } from './sparql/sparql-pool.js';
import { createQueuedUrlCheck } from './registration/url-check/queued-url-check.js';
import { RegistryVersionSource } from './model/registry-version.js';
import { createProcessRegistry } from '../metrics/process-registry.js';

/** Starts the registry area (its entry, main.ts, loads this module once its arguments and settings are good). */
export const startRegistry: PartStarter = async (config, logger): Promise<StartedPart> => {
  const db = await connectPostgres(config);
  // The browse API reads from the replica when there is one; writes and curators' reads stay on db.
  const reads = await connectReads(config, db, logger);
  const redis = await connectRedis(config);
  // Registration's slow checks: URLs are fetched by the worker process through the queue, never here;
  // user-supplied regular expressions run in worker threads with a time bound.
  const urlChecks = createQueuedUrlCheck({
    connection: redis,
    prefix: config.QUEUE_PREFIX,
    waitMs: config.URL_CHECK_WAIT_MS,
    cacheSeconds: config.URL_CHECK_CACHE_SECONDS,
    logger,
  });
  const regex = createRegexTester({
    timeoutMs: config.REGEX_CHECK_TIMEOUT_MS,
    maxPatternLength: config.REGEX_MAX_PATTERN_LENGTH,
    maxPerClient: config.REGEX_CHECKS_PER_CLIENT,
    maxQueueWaitMs: config.REGEX_CHECK_QUEUE_WAIT_MS,
  });
  // SPARQL queries run in worker threads of their own, each within a time limit.
  const sparql = new SparqlPool({
    threads: config.SPARQL_THREADS,
    timeoutMs: config.SPARQL_TIMEOUT_MS,
    perClient: config.SPARQL_QUERIES_PER_CLIENT,
    maxResultBytes: config.SPARQL_MAX_RESULT_BYTES,
    publicResolverUrl: config.PUBLIC_RESOLVER_URL,
    publicRegistryUrl: config.PUBLIC_REGISTRY_URL,
    logger,
  });
  // Browse answers stay cached until a registry change is announced (NOTIFY at commit).
  const registryVersions = new RegistryVersionSource(reads.db, { databaseUrl: config.DATABASE_URL, logger, reads });
  await registryVersions.start();
  const metrics = createProcessRegistry();
  const app = createRegistryApp({
    config,
    metrics,
    db,
    reads,
    redis,
    logger,
    registration: { urlCheck: urlChecks.urlCheck, regexTest: regex.regexTest },
    registryVersions,
    sparql,
  });
  const area = await listenArea(app, { port: config.REGISTRY_PORT, metricsPort: config.REGISTRY_METRICS_PORT }, metrics, config, logger);
  return {
    description: `registry area on ${config.PUBLIC_REGISTRY_URL} (${area.listening})`,
    stop: async () => {
      await area.close();
      await urlChecks.close();
      await regex.close();
      await sparql.close();
      await registryVersions.stop();
      await closeReads(reads);
      await db.destroy();
      redis.disconnect();
    },
  };
};
