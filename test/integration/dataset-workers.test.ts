/**
 * The dataset build as operators run it: two compiled worker processes (npm test builds first) sharing one
 * database, one Redis queue and one dataset directory; and the endpoint's first request before any build.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker, type Queue } from 'bullmq';
import { Redis } from 'ioredis';
import request from 'supertest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/lib/logger.js';
import { createProducerRedis, createWorkerRedis } from '../../src/queue/connections.js';
import type { DatasetBuildJob } from '../../src/queue/dataset.queue.js';
import { createQueue, queueNames, schedulerIds } from '../../src/queue/queues.js';
import { createRegistryApp } from '../../src/registry/app.js';
import { readManifest, type DatasetManifest } from '../../src/dataset/dataset-files.js';
import type { DatasetBuildRow } from '../../src/dataset/dataset-builds.js';
import { deleteQueueKeys } from '../../src/queue/queue-keys.js';
import { processDatasetBuild } from '../../workers/dataset/dataset.processor.js';
import { startStack, type AreaStack } from '../support/areas.js';
import { freePort, stopProcess, type Spawned } from '../support/processes.js';
import { spawnWorker, waitForQueueWorkers } from '../support/service-processes.js';
import { createTestDatabase, loadSample, TEST_REDIS_URL, type TestDatabase } from '../support/test-database.js';
import { waitFor } from '../support/wait.js';

const LONG = 120_000;

const logger = createLogger('silent', 'test');
const uniquePrefix = () => `test-dataset-${randomBytes(4).toString('hex')}`;

const builds = (t: TestDatabase, afterId = 0): Promise<DatasetBuildRow[]> =>
  t.db('datasetBuilds').where('id', '>', afterId).orderBy('id') as Promise<DatasetBuildRow[]>;

const lastBuildId = async (t: TestDatabase): Promise<number> =>
  ((await t.db('datasetBuilds').max('id as id').first()) as { id: number | null }).id ?? 0;

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('two worker processes', () => {
  let t: AreaStack;
  let dir: string;
  let prefix: string;
  let connection: Redis;
  let queue: Queue<DatasetBuildJob>;
  const workers: Spawned[] = [];

  const startWorker = () => {
    // Short enough that a killed worker's job is handed on within seconds; long enough that the survivor's
    // lock outlasts the event-loop stretches of its own 15,000-namespace build on a loaded machine (at 2 s
    // it lapsed there, the job counted as stalled a second time, and BullMQ failed it).
    const worker = spawnWorker(t, { WORKER_LOCK_DURATION_MS: '8000' });
    workers.push(worker);
    return worker;
  };

  /** No job waiting or running and no build row open, for `quietMs` in a row. */
  const settled = async (quietMs = 1500): Promise<void> => {
    let quietSince = Date.now();
    await waitFor(
      async () => {
        const counts = await queue.getJobCounts('waiting', 'active', 'prioritized');
        const running = await t.db('datasetBuilds').where({ status: 'running' }).first('id');
        const busy = Object.values(counts).some((n) => n > 0) || running !== undefined;
        if (busy) quietSince = Date.now();
        return !busy && Date.now() - quietSince >= quietMs && (await readManifest(dir)) ? true : undefined;
      },
      { timeoutMs: 60_000, what: 'the dataset queue settling' },
    );
  };

  beforeAll(async () => {
    t = await startStack('dataset_workers');
    dir = t.datasetDir;
    prefix = t.config.QUEUE_PREFIX;
    connection = createWorkerRedis(TEST_REDIS_URL);
    queue = createQueue(queueNames.dataset, connection, prefix);
    startWorker();
    startWorker();
    await waitForQueueWorkers(queueNames.dataset, 2, { redisUrl: TEST_REDIS_URL, prefix });
    await settled();
  }, LONG);

  afterAll(async () => {
    await Promise.all(workers.map((worker) => stopProcess(worker)));
    await queue.close();
    connection.disconnect();
    await t.close();
  }, LONG);

  it('built the dataset at start, when there was none', async () => {
    const manifest = (await readManifest(dir)) as DatasetManifest;
    expect(manifest.namespaceCount).toBe(22);
    expect((await builds(t)).filter((b) => b.status === 'succeeded')).toHaveLength(1);
  });

  it('schedules one nightly build at 02:00 UTC, though both workers set it up', async () => {
    const schedulers = await queue.getJobSchedulers();

    expect(schedulers).toHaveLength(1);
    expect(schedulers[0]).toMatchObject({ key: schedulerIds.nightlyDatasetBuild, pattern: '0 2 * * *', tz: 'UTC' });
    expect(schedulers[0]?.template?.data).toEqual({ reason: 'nightly' });
    const next = new Date(schedulers[0]?.next ?? 0);
    expect([next.getUTCHours(), next.getUTCMinutes()]).toEqual([2, 0]);
  });

  it('builds once per registry change, though both workers hear of it', async () => {
    const before = await lastBuildId(t);
    const previous = (await readManifest(dir)) as DatasetManifest;

    await t.db.raw("UPDATE namespaces SET name = 'Gene Ontology (changed)' WHERE prefix = 'go'");
    await waitFor(
      async () => (await builds(t, before)).some((b) => b.status === 'succeeded'),
      { timeoutMs: 10_000, what: 'a build after the change' },
    );
    await settled();

    const after = await builds(t, before);
    expect(after.filter((b) => b.status === 'succeeded')).toHaveLength(1);
    // A second ask that arrived while the build ran may follow it, finding nothing new.
    expect(after.filter((b) => b.status !== 'succeeded' && b.status !== 'skipped')).toEqual([]);
    const manifest = (await readManifest(dir)) as DatasetManifest;
    expect(manifest.registryVersion).toBeGreaterThan(previous.registryVersion);
    const plain = readFileSync(path.join(dir, manifest.variants.plain.file), 'utf8');
    expect(plain).toContain('"name":"Gene Ontology (changed)"');
  }, LONG);

  it('keeps the served files when a worker dies mid-build, and the other worker builds again', async () => {
    const before = await lastBuildId(t);
    const previous = (await readManifest(dir)) as DatasetManifest;
    const previousFile = path.join(dir, previous.variants.plain.file);

    // A registry large enough for the build to take seconds; one transaction, so one notification.
    await t.db.transaction(async (trx) => {
      const [institution] = (await trx('institutions')
        .insert({ name: 'Synthetic institute', homeUrl: 'https://synthetic.example', description: 'Synthetic', locationCountryCode: 'GB' })
        .returning('id')) as { id: number }[];
      await trx.raw(
        `INSERT INTO namespaces (prefix, mir_id, name, pattern, description, sample_id)
         SELECT 'syn' || g, 'MIR:9' || lpad(g::text, 7, '0'), 'Synthetic ' || g, '^\\d+$',
                (SELECT string_agg(md5(g::text || k::text), ' ') FROM generate_series(1, 8) k), '1'
         FROM generate_series(1, 15000) g`,
      );
      await trx.raw(
        `INSERT INTO resources (mir_id, url_pattern, name, description, resource_home_url, namespace_id, institution_id, location_country_code)
         SELECT 'MIR:8' || lpad(n.id::text, 7, '0'), 'https://synthetic.example/' || n.prefix || '/{$id}', n.name,
                md5(n.prefix), 'https://synthetic.example/', n.id, ?, 'GB'
         FROM namespaces n WHERE n.prefix LIKE 'syn%'`,
        [institution!.id],
      );
    });

    // Mid-build: the build's row is open and its temporary files are being written.
    const running = await waitFor(
      async () => {
        const row = (await builds(t, before)).find((b) => b.status === 'running');
        const writing = readdirSync(dir).some((name) => name.endsWith('.json.tmp'));
        return row && writing ? row : undefined;
      },
      { timeoutMs: 20_000, what: 'a build writing its files' },
    );
    const [active] = await queue.getJobs(['active']);
    const victim = workers.find((w) => `${os.hostname()}:${w.child.pid}` === running.worker);
    const survivor = workers.find((w) => w !== victim);
    expect(victim).toBeDefined();
    expect(active).toBeDefined();
    victim!.child.kill('SIGKILL');
    await victim!.exited;

    expect(await readManifest(dir)).toEqual(previous);
    expect(sha256(previousFile)).toBe(previous.variants.plain.sha256);

    // The dead worker's job lock lapses; the survivor's stalled-job check puts the job back and builds it.
    const rebuilt = await waitFor(
      async () => (await builds(t, running.id)).find((b) => b.status === 'succeeded'),
      { timeoutMs: 60_000, what: 'the build being retried' },
    );
    expect(rebuilt.worker).toBe(`${os.hostname()}:${survivor!.child.pid}`);
    expect(await t.db('datasetBuilds').where({ id: running.id }).first('status', 'error')).toEqual({ status: 'failed', error: 'abandoned' });
    // The state first, then the job: a job read before it finished keeps its old fields (no return value yet)
    // even when its state, read a moment later, says completed.
    const job = await waitFor(async () => {
      const state = await queue.getJobState(active!.id as string);
      return state === 'completed' || state === 'failed' ? queue.getJob(active!.id as string) : undefined;
    }, { timeoutMs: 60_000, what: 'the stalled job finishing' });
    expect([await job.getState(), job.failedReason]).toEqual(['completed', undefined]);
    expect(job.returnvalue).toMatchObject({ buildId: rebuilt.id, status: 'built', namespaceCount: 15_022 });
    const manifest = (await readManifest(dir)) as DatasetManifest;
    expect(manifest.namespaceCount).toBe(15_022);
    expect(sha256(path.join(dir, manifest.variants.plain.file))).toBe(manifest.variants.plain.sha256);
  }, 3 * 60_000);
});

describe('the first request before any build', () => {
  let t: TestDatabase;
  const dirs: string[] = [];
  const redisConnections: Redis[] = [];
  const queues: Queue[] = [];
  const prefixes: string[] = [];

  const registry = (overrides: Record<string, string>, redisUrl = TEST_REDIS_URL) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dataset-first-'));
    dirs.push(dir);
    const prefix = uniquePrefix();
    prefixes.push(prefix);
    const config = loadConfig({
      DATABASE_URL: t.url,
      REDIS_URL: redisUrl,
      LOG_LEVEL: 'silent',
      DATASET_DIR: dir,
      QUEUE_PREFIX: prefix,
      ...overrides,
    });
    // As the area's own fail-fast connection; an unreachable one is told to let go at once when disconnected
    // (ioredis otherwise keeps a 2 s timer for the socket that never opened).
    const redis = redisUrl === TEST_REDIS_URL ? createProducerRedis(redisUrl) : new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, disconnectTimeout: 10 });
    redis.on('error', () => undefined);
    redisConnections.push(redis);
    // For looking into the queue afterwards (on the test Redis, even when the app's is unreachable).
    let inspection = redis;
    if (redisUrl !== TEST_REDIS_URL) redisConnections.push((inspection = createProducerRedis(TEST_REDIS_URL)));
    const queue = createQueue(queueNames.dataset, inspection, prefix);
    queues.push(queue);
    return { app: createRegistryApp({ config, db: t.db, redis, logger }).callback(), dir, prefix, queue };
  };

  beforeAll(async () => {
    t = await createTestDatabase('dataset_first_request');
    await loadSample(t.db);
  });
  afterAll(async () => {
    for (const queue of queues) await queue.close().catch(() => undefined);
    const cleaner = createWorkerRedis(TEST_REDIS_URL);
    for (const prefix of prefixes) await deleteQueueKeys(cleaner, prefix);
    cleaner.disconnect();
    for (const redis of redisConnections) redis.disconnect();
    await t.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('asks the worker for a build and answers once it is there', async () => {
    const { app, dir, prefix } = registry({});
    const connection = createWorkerRedis(TEST_REDIS_URL);
    const worker = new Worker<DatasetBuildJob>(queueNames.dataset, (job) => processDatasetBuild({ db: t.db, dir }, job), {
      connection,
      prefix,
    });
    worker.on('error', () => undefined);
    try {
      const res = await request(app).get('/resolutionApi/getResolverDataset');

      expect(res.status).toBe(200);
      expect((res.body as { payload: { namespaces: unknown[] } }).payload.namespaces).toHaveLength(22);
      // supertest asks for gzip (and unzips the body).
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.headers.etag).toBe(`"${((await readManifest(dir)) as DatasetManifest).variants.plain.sha256}-gzip"`);
      // The answer goes as soon as the files are there; the worker records the build finished just after.
      const build = await waitFor(
        async () => {
          const [last] = (await t.db('datasetBuilds').orderBy('id', 'desc').limit(1)) as DatasetBuildRow[];
          return last?.status === 'running' ? undefined : last;
        },
        { timeoutMs: 10_000, what: 'the first-request build recorded as finished' },
      );
      expect(build).toMatchObject({ status: 'succeeded', reason: 'first-request' });
    } finally {
      await worker.close();
      connection.disconnect();
    }
  }, LONG);

  it('answers 503 with Retry-After when no worker builds it in time', async () => {
    const { app, queue } = registry({ DATASET_FIRST_BUILD_WAIT_MS: '400' });

    const res = await request(app).get('/resolutionApi/getResolverDataset');

    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('10');
    expect(res.body).toEqual({ apiVersion: '1.0', errorMessage: 'The dataset is being built; retry shortly', payload: null });
    // The build was asked for, once, and waits for a worker.
    expect(await queue.getJobCounts('waiting')).toEqual({ waiting: 1 });
    const [job] = await queue.getJobs(['waiting']);
    expect(job?.data).toEqual({ reason: 'first-request' });
  });

  it('answers 503 saying so when Redis is unreachable', async () => {
    const { app } = registry({ DATASET_FIRST_BUILD_WAIT_MS: '400' }, `redis://127.0.0.1:${await freePort()}`);

    const res = await request(app).get('/resolutionApi/getResolverDataset');

    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBeDefined();
    expect((res.body as { errorMessage: string }).errorMessage).toMatch(/Redis.*unreachable/);
  });
});
