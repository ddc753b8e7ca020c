/**
 * Both areas over one migrated test database loaded with the sample registry, each listening on 127.0.0.1
 * (see raw-http.ts), with curation on (a curator token), the registration endpoints mounted and the
 * dataset built once (no worker runs here, so the dataset endpoint would otherwise wait for one). The URL
 * check and the regex test are stand-ins that answer at once: they have tests of their own, and here the
 * point is what the routes do with what a client sends, not a fetch or a worker thread per request.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type Koa from 'koa';
import { loadConfig } from '../../src/config.js';
import { importRegistry } from '../../src/importer/import-registry.js';
import { validateNamespaces } from '../../src/importer/read-dataset.js';
import { createLogger } from '../../src/lib/logger.js';
import { createProducerRedis } from '../../src/queue/connections.js';
import { createRegistryApp } from '../../src/registry/app.js';
import type { RegexTest, UrlCheck } from '../../src/registry/registration/checks.js';
import { createResolverApp } from '../../src/resolver/app.js';
import { SnapshotStore } from '../../src/resolver/snapshot-store.js';
import { processDatasetBuild } from '../../workers/dataset/dataset.processor.js';
import { startRawServer, type RawServer } from './raw-http.js';
import { REGISTRY_URL, RESOLVER_URL, SAMPLE_REGISTRY } from './resolver-app.js';
import { createTestDatabase, TEST_REDIS_URL, type TestDatabase } from './test-database.js';

export interface BothAreas {
  t: TestDatabase;
  curatorToken: string;
  registryApp: Koa;
  resolverApp: Koa;
  registry: RawServer;
  resolver: RawServer;
  close: () => Promise<void>;
}

const urlCheck: UrlCheck = async () => null;
// Every pattern compiles and every sample matches: a real regex run on fuzzed patterns belongs to the
// regex tester (worker thread, time limit), which has tests of its own.
const regexTest: RegexTest = async (_pattern, sample) => (sample === null ? { compiles: true } : { compiles: true, matches: true });

export async function startBothAreas(label: string): Promise<BothAreas> {
  const t = await createTestDatabase(label);
  await importRegistry(t.db, validateNamespaces(JSON.parse(await readFile(SAMPLE_REGISTRY, 'utf8'))), {});
  const curatorToken = randomBytes(24).toString('hex');
  const datasetDir = await mkdtemp(path.join(os.tmpdir(), `${label}-dataset-`));
  await processDatasetBuild({ db: t.db, dir: datasetDir }, { data: { reason: 'registry-change' } });
  const config = loadConfig({
    DATABASE_URL: t.url,
    REDIS_URL: TEST_REDIS_URL,
    LOG_LEVEL: 'silent',
    PUBLIC_RESOLVER_URL: RESOLVER_URL,
    PUBLIC_REGISTRY_URL: REGISTRY_URL,
    CURATOR_TOKEN: curatorToken,
    DATASET_DIR: datasetDir,
    QUEUE_PREFIX: `test-${label}-${randomBytes(4).toString('hex')}`,
  });
  const logger = createLogger('silent', 'test');
  const redis = createProducerRedis(TEST_REDIS_URL);
  const store = new SnapshotStore({ db: t.db, databaseUrl: t.url, logger, checkIntervalMs: 1000 });
  await store.start();
  const registryApp = createRegistryApp({ config, db: t.db, redis, logger, registration: { urlCheck, regexTest } });
  const resolverApp = createResolverApp({ config, db: t.db, redis, logger, registry: store });
  const registry = await startRawServer(registryApp.callback());
  const resolver = await startRawServer(resolverApp.callback());
  return {
    t,
    curatorToken,
    registryApp,
    resolverApp,
    registry,
    resolver,
    close: async () => {
      await registry.close();
      await resolver.close();
      await store.stop();
      redis.disconnect();
      await t.drop();
      await rm(datasetDir, { recursive: true, force: true });
    },
  };
}

const DESCRIPTION = 'A database of example records, described at length for the curators of the registry.';

/** A prefix registration that passes every check (with the stand-in checks above). */
export function validPrefixPayload(prefix: string): Record<string, unknown> {
  return {
    name: `Example records ${prefix}`,
    description: DESCRIPTION,
    requestedPrefix: prefix,
    sampleId: '12345',
    idRegexPattern: '^\\d+$',
    providerUrlPattern: `https://example.org/${prefix}/{$id}`,
    providerHomeUrl: 'https://example.org/',
    providerName: `Example provider ${prefix}`,
    providerDescription: DESCRIPTION,
    providerLocation: 'GB',
    providerCode: `p${prefix}`,
    institutionName: 'Example institute',
    institutionHomeUrl: 'https://institute.example.org/',
    institutionDescription: DESCRIPTION,
    institutionLocation: 'gb',
    references: ['https://doi.org/10.1000/182'],
    additionalInformation: 'nothing else',
    requester: { name: 'Ann Example', email: 'ann@example.org' },
    namespaceEmbeddedInLui: false,
    protectedUrls: false,
  };
}

/** A resource registration (a new provider for ncbigene) that passes every check. */
export function validResourcePayload(code: string): Record<string, unknown> {
  return {
    namespacePrefix: 'ncbigene',
    providerHomeUrl: 'https://mirror.example.org/',
    providerName: `Mirror ${code}`,
    providerDescription: DESCRIPTION,
    providerLocation: 'JP',
    providerCode: code,
    providerUrlPattern: `https://mirror.example.org/${code}/{$id}`,
    sampleId: '100010',
    institutionName: 'Mirror Institute',
    institutionHomeUrl: 'https://mirror.example.org/institute',
    institutionDescription: DESCRIPTION,
    institutionLocation: 'JP',
    requester: { name: 'Rob Resource', email: 'rob@example.org' },
  };
}
