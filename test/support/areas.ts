/**
 * The two HTTP areas as the integration tests start them: a fresh migrated database (the sample registry in
 * it unless told otherwise), the settings, a producer Redis connection, the app, and close(). A test file's
 * set-up is `t = await startRegistry('label', {...})` in beforeAll and `t.close()` in afterAll; bodies use
 * `t.app` (a request listener for supertest), `t.db`, `t.url`, `t.config`, `t.redis`.
 *
 * test/support/ is where the tests reach into src/ to assemble a service (this file, test-database.ts,
 * service-processes.ts): a test file imports src/ only for what it tests.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { RequestListener } from 'node:http';
import type { Redis } from 'ioredis';
import type Koa from 'koa';
import { loadConfig, type Config } from '../../src/config.js';
import { createLogger, type Logger } from '../../src/lib/logger.js';
import { createProducerRedis } from '../../src/queue/connections.js';
import { deleteQueueKeys } from '../../src/queue/queue-keys.js';
import { createRegistryApp, type RegistryAppDeps } from '../../src/registry/app.js';
import { SparqlPool } from '../../src/registry/sparql/sparql-pool.js';
import { createResolverApp } from '../../src/resolver/app.js';
import type { SnapshotSource } from '../../src/resolver/snapshot-source.js';
import { SnapshotStore } from '../../src/resolver/snapshot-store.js';
import type { UsageRecorder } from '../../src/statistics/usage-recorder.js';
import { processDatasetBuild } from '../../workers/dataset/dataset.processor.js';
import { startRawServer, type RawServer } from './raw-http.js';
import { acceptingChecks } from './stand-in-checks.js';
import { createTestDatabase, loadSample, SAMPLE_REGISTRY, TEST_REDIS_URL, type TestDatabase } from './test-database.js';

export const RESOLVER_URL = 'https://resolver.test';
export const REGISTRY_URL = 'https://registry.test';

export interface StartOptions {
  /** What the database holds: the sample registry (the default), a dataset file with extra records, these records only, or nothing. */
  data?: 'sample' | 'none' | { file?: string; extra?: unknown[]; records?: unknown[] };
  /** Settings over the harness's: the test database and Redis, LOG_LEVEL=silent, the *.test public URLs, a unique QUEUE_PREFIX. */
  env?: Record<string, string>;
  /** The dataset built once into the stack's DATASET_DIR (a directory of its own), as a worker would have. */
  dataset?: 'built';
  /** The Postgres server the database is made on: a cluster of the test's own in the fault drills. */
  postgresUrl?: string;
}

export interface RegistryAppOptions {
  env?: Record<string, string>;
  registration?: RegistryAppDeps['registration'];
  registryVersions?: RegistryAppDeps['registryVersions'];
  /** Another Redis connection than the stack's (one that cannot connect, say). */
  redis?: Redis;
  /** The SPARQL endpoint's threads: /sparql is mounted with them (the caller closes them). */
  sparql?: RegistryAppDeps['sparql'];
}

export interface ResolverAppOptions {
  /** Settings over the stack's for this resolver (its public URLs, say). */
  env?: Record<string, string>;
  /** How often the snapshot store checks for a missed change notification (1 s by default). */
  checkIntervalMs?: number;
  /** A fixed snapshot instead of a started SnapshotStore. */
  registry?: SnapshotSource;
  usage?: UsageRecorder;
}

/** What both areas stand on; close() stops everything started on it, resolvers included. */
export interface AreaStack extends TestDatabase {
  config: Readonly<Config>;
  redis: Redis;
  logger: Logger;
  /** DATASET_DIR: a directory of the stack's own, removed at close(). */
  datasetDir: string;
  /** One more registry area on the same database and Redis, with other settings or checks. */
  registryApp: (options?: RegistryAppOptions) => Koa;
  /** A resolver area on the same database and Redis; its snapshot store is stopped at close(). */
  resolverApp: (options?: ResolverAppOptions) => Promise<{ koa: Koa; store: SnapshotStore | undefined }>;
  close: () => Promise<void>;
}

export interface RegistryUnderTest extends AreaStack {
  koa: Koa;
  /** A request listener for supertest. */
  app: RequestListener;
}

export interface ResolverUnderTest extends AreaStack {
  koa: Koa;
  app: RequestListener;
  store: SnapshotStore;
}

export async function startStack(label: string, options: StartOptions = {}): Promise<AreaStack> {
  const data = options.data ?? 'sample';
  // A whole dataset file comes as a copy of a template that holds it (test-database.ts), imported once a run.
  const dataset = data === 'sample' ? SAMPLE_REGISTRY : data !== 'none' && data.file && !data.extra && !data.records ? data.file : undefined;
  const t = await createTestDatabase(label, { ...(options.postgresUrl ? { server: options.postgresUrl } : {}), dataset });
  if (data !== 'none' && data !== 'sample' && dataset === undefined) await loadSample(t.db, data);
  const datasetDir = await mkdtemp(path.join(os.tmpdir(), `${label}-dataset-`));
  if (options.dataset === 'built') await processDatasetBuild({ db: t.db, dir: datasetDir }, { data: { reason: 'registry-change' } });
  const queuePrefix = `test-${label}-${randomBytes(4).toString('hex')}`;
  const baseEnv: Record<string, string> = {
    DATABASE_URL: t.url,
    REDIS_URL: TEST_REDIS_URL,
    LOG_LEVEL: 'silent',
    PUBLIC_RESOLVER_URL: RESOLVER_URL,
    PUBLIC_REGISTRY_URL: REGISTRY_URL,
    QUEUE_PREFIX: queuePrefix,
    DATASET_DIR: datasetDir,
    // Tests never reach the real ROR API; a test of the lookup points it at a loopback fixture.
    ROR_API_URL: 'off',
    // Tests send many requests from one address; the rate limit tests turn the limits on for themselves.
    RATE_LIMITS: 'false',
  };
  const config = loadConfig({ ...baseEnv, ...options.env });
  const logger = createLogger('silent', 'test');
  const redis = createProducerRedis(TEST_REDIS_URL);
  // A producer connection refuses commands until it is up (no offline queue): tests use it at once.
  if (redis.status !== 'ready') await once(redis, 'ready');
  const stores: SnapshotStore[] = [];
  return {
    ...t,
    config,
    redis,
    logger,
    datasetDir,
    registryApp: (app = {}) =>
      createRegistryApp({
        config: app.env ? loadConfig({ ...baseEnv, ...options.env, ...app.env }) : config,
        db: t.db,
        redis: app.redis ?? redis,
        logger,
        registration: app.registration,
        registryVersions: app.registryVersions,
        sparql: app.sparql,
      }),
    resolverApp: async (app = {}) => {
      let store: SnapshotStore | undefined;
      if (!app.registry) {
        store = new SnapshotStore({ db: t.db, databaseUrl: t.url, logger, checkIntervalMs: app.checkIntervalMs ?? 1000 });
        await store.start();
        stores.push(store);
      }
      const resolverConfig = app.env ? loadConfig({ ...baseEnv, ...options.env, ...app.env }) : config;
      const koa = createResolverApp({ config: resolverConfig, db: t.db, redis, logger, registry: app.registry ?? store!, usage: app.usage });
      return { koa, store };
    },
    close: async () => {
      for (const store of stores) await store.stop();
      await deleteQueueKeys(redis, config.QUEUE_PREFIX);
      redis.disconnect();
      await t.drop();
      await rm(datasetDir, { recursive: true, force: true });
    },
  };
}

/** The registry area over a fresh database; `registration` mounts the submission and validation endpoints. */
export async function startRegistry(label: string, options: StartOptions & Omit<RegistryAppOptions, 'env'> = {}): Promise<RegistryUnderTest> {
  const stack = await startStack(label, options);
  const koa = stack.registryApp({ registration: options.registration, registryVersions: options.registryVersions });
  return { ...stack, koa, app: koa.callback() };
}

/** The resolver area over a fresh database, kept current by a started SnapshotStore as `npm run start:resolver` does. */
export async function startResolver(
  label: string,
  options: StartOptions & Pick<ResolverAppOptions, 'checkIntervalMs'> = {},
): Promise<ResolverUnderTest> {
  const stack = await startStack(label, options);
  const { koa, store } = await stack.resolverApp({ checkIntervalMs: options.checkIntervalMs });
  return { ...stack, koa, app: koa.callback(), store: store! };
}

export interface BothAreas extends AreaStack {
  curatorToken: string;
  /** SATELLITE_TOKEN of the registry area: its satellite API is on. */
  satelliteToken: string;
  /** Each area listening on 127.0.0.1 (see raw-http.ts), with its Koa app for its routers. */
  registry: RawServer & { koa: Koa };
  resolver: RawServer & { koa: Koa };
}

export interface BothAreasOptions {
  /**
   * Make each area's public URL its listening address (http://127.0.0.1:<port>), so that the links the
   * areas print lead a real client (a browser) from one to the other; the *.test URLs otherwise.
   */
  listeningPublicUrls?: boolean;
}

/**
 * Both areas over one database with the sample registry, each listening, with curation on (a curator
 * token), the registration endpoints mounted with checks that accept everything, and the dataset built once
 * (no worker runs here, so the dataset endpoint would otherwise wait for one).
 */
export async function startBothAreas(label: string, options: BothAreasOptions = {}): Promise<BothAreas> {
  const curatorToken = randomBytes(24).toString('hex');
  const satelliteToken = randomBytes(24).toString('hex');
  // No worker runs here: a provider-metadata request can only wait out METADATA_WAIT_MS and answer 202.
  const stackEnv = { CURATOR_TOKEN: curatorToken, SATELLITE_TOKEN: satelliteToken, METADATA_WAIT_MS: '50' };
  const stack = await startStack(label, { dataset: 'built', env: stackEnv });
  // Listening first, so that the apps can be built with the addresses; the servers hand them requests after.
  const listeners: { registry?: RequestListener; resolver?: RequestListener } = {};
  const registry = await startRawServer((req, res) => listeners.registry!(req, res));
  const resolver = await startRawServer((req, res) => listeners.resolver!(req, res));
  const env = options.listeningPublicUrls
    ? { PUBLIC_REGISTRY_URL: `http://127.0.0.1:${registry.port}`, PUBLIC_RESOLVER_URL: `http://127.0.0.1:${resolver.port}` }
    : undefined;
  // Threads start on the first query only; closed with the areas.
  const sparql = new SparqlPool({
    threads: 1,
    timeoutMs: 10_000,
    perClient: 4,
    maxResultBytes: stack.config.SPARQL_MAX_RESULT_BYTES,
    publicResolverUrl: env?.PUBLIC_RESOLVER_URL ?? stack.config.PUBLIC_RESOLVER_URL,
    publicRegistryUrl: env?.PUBLIC_REGISTRY_URL ?? stack.config.PUBLIC_REGISTRY_URL,
  });
  const registryKoa = stack.registryApp({ registration: acceptingChecks, env, sparql });
  const { koa: resolverKoa } = await stack.resolverApp({ env });
  listeners.registry = registryKoa.callback();
  listeners.resolver = resolverKoa.callback();
  return {
    ...stack,
    curatorToken,
    satelliteToken,
    registry: { ...registry, koa: registryKoa },
    resolver: { ...resolver, koa: resolverKoa },
    close: async () => {
      await registry.close();
      await resolver.close();
      await sparql.close();
      await stack.close();
    },
  };
}
