/**
 * Scale-out on one machine, as `npm run start:cluster` runs it (the compiled dist/src/cluster.js): two
 * resolver areas, two registry areas and two workers on one database and one Redis, behind HAProxy with
 * deploy/haproxy/haproxy.cfg, and a satellite resolver following the registry through it. A change is seen
 * by both resolvers and the satellite, built into the dataset once, usage counted
 * by both resolvers adds up, and a resolver killed under traffic costs no request: the balancer sends the
 * GETs it had to the other one. The queues use a hash-tagged prefix ({…}), as on Redis Cluster.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { createWorkerRedis } from '../../src/queue/connections.js';
import type { DatasetBuildJob } from '../../src/queue/dataset.queue.js';
import { createQueue, queueNames } from '../../src/queue/queues.js';
import { usageKeys, utcDay } from '../../src/statistics/usage-keys.js';
import { startStack, type AreaStack } from '../support/areas.js';
import { freePort, stopProcess, type Spawned } from '../support/processes.js';
import { describeRequiring, haproxyBinary } from '../support/requirements.js';
import { spawnCluster } from '../support/service-processes.js';
import { TEST_REDIS_URL } from '../support/test-database.js';
import { waitFor } from '../support/wait.js';
import { deleteUsageKeys } from '../support/usage-cleanup.js';

const LONG = 90_000;

/** Five consecutive ports nobody listens on (CLUSTER_BACKEND_PORT and the four after it). */
async function freePortRun(count: number): Promise<number> {
  const free = (port: number) =>
    new Promise<boolean>((resolve) => {
      const server = net.createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20000 + Math.floor(Math.random() * 40000);
    let all = true;
    for (let i = 0; i < count && all; i++) all = await free(base + i);
    if (all) return base;
  }
  throw new Error(`no ${count} consecutive free ports found`);
}

/** Whether a process with this id is still there (signal 0 checks without sending anything). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describeRequiring([haproxyBinary()], 'npm run start:cluster: two of each part behind HAProxy', () => {
  const curatorToken = randomBytes(24).toString('hex');
  let t: AreaStack;
  let cluster: Spawned;
  let resolverBase: string;
  let registryBase: string;
  /** resolver-1 and resolver-2, directly. */
  let resolvers: string[];
  /** The satellite resolver, following the registry through the balancer. */
  let satelliteBase: string;
  let satelliteDir: string | undefined;
  let pids: Record<string, number>;
  let connection: Redis;
  let datasetQueue: Queue<DatasetBuildJob>;
  const days = new Set<string>();

  const lastBuildId = async (): Promise<number> =>
    ((await t.db('datasetBuilds').max('id as id').first()) as { id: number | null }).id ?? 0;

  /** No dataset job waiting or running and no build row open, for `quietMs` in a row. */
  const datasetSettled = async (quietMs = 1500): Promise<void> => {
    let quietSince = Date.now();
    await waitFor(
      async () => {
        const counts = await datasetQueue.getJobCounts('waiting', 'active', 'prioritized');
        const running = await t.db('datasetBuilds').where({ status: 'running' }).first('id');
        if (Object.values(counts).some((n) => n > 0) || running) quietSince = Date.now();
        return Date.now() - quietSince >= quietMs;
      },
      { timeoutMs: 30_000, what: 'the dataset queue settling' },
    );
  };

  beforeAll(async () => {
    t = await startStack('cluster', {
      dataset: 'built',
      env: { CURATOR_TOKEN: curatorToken, QUEUE_PREFIX: `{test-cluster-${randomBytes(4).toString('hex')}}` },
    });
    const [resolverPort, registryPort, backendPort] = [await freePort(), await freePort(), await freePortRun(5)];
    resolverBase = `http://127.0.0.1:${resolverPort}`;
    registryBase = `http://127.0.0.1:${registryPort}`;
    resolvers = [`http://127.0.0.1:${backendPort}`, `http://127.0.0.1:${backendPort + 1}`];
    satelliteBase = `http://127.0.0.1:${backendPort + 4}`;
    satelliteDir = await mkdtemp(path.join(os.tmpdir(), 'cluster-satellite-'));
    days.add(utcDay(new Date()));
    cluster = spawnCluster(t, {
      HOST: '127.0.0.1',
      RESOLVER_PORT: String(resolverPort),
      REGISTRY_PORT: String(registryPort),
      CLUSTER_BACKEND_PORT: String(backendPort),
      SATELLITE_SNAPSHOT_DIR: satelliteDir,
      PUBLIC_RESOLVER_URL: resolverBase,
      PUBLIC_REGISTRY_URL: registryBase,
      CURATOR_TOKEN: curatorToken,
      USAGE_FLUSH_INTERVAL_MS: '200',
    });
    await waitFor(
      () => {
        if (cluster.child.exitCode !== null) throw new Error(`the cluster exited: ${cluster.output()}`);
        return cluster.output().includes('cluster is running');
      },
      { timeoutMs: 60_000, what: 'npm run start:cluster starting', everyMs: 200 },
    );
    pids = Object.fromEntries([...cluster.output().matchAll(/^ {2}(\S+) \((?:HAProxy, )?pid (\d+)\)/gm)].map((m) => [m[1]!, Number(m[2])]));
    // HAProxy marks an instance up after two passing checks.
    await waitFor(async () => (await fetch(`${resolverBase}/health/ready`)).status === 200, { timeoutMs: 10_000, what: 'the balancer answering' });
    connection = createWorkerRedis(TEST_REDIS_URL);
    datasetQueue = createQueue(queueNames.dataset, connection, t.config.QUEUE_PREFIX);
  }, LONG);

  afterAll(async () => {
    if (cluster) await stopProcess(cluster);
    // The balancer is the cluster's child; it stops with it, unless the cluster itself was killed.
    const balancer = pids?.balancer;
    if (balancer && alive(balancer)) process.kill(balancer, 'SIGKILL');
    // Usage counters (and the satellite's batch ids) are keyed by day, not by queue prefix.
    if (t) await deleteUsageKeys(t.redis, days);
    await datasetQueue?.close();
    connection?.disconnect();
    if (satelliteDir) await rm(satelliteDir, { recursive: true, force: true });
    await t?.close();
  }, LONG);

  it('runs each part twice and HAProxy, all on the one database and Redis', () => {
    expect(Object.keys(pids).sort()).toEqual(['balancer', 'registry-1', 'registry-2', 'resolver-1', 'resolver-2', 'satellite', 'worker-1', 'worker-2']);
  });

  it('shows a change made through the balancer on both resolvers, and builds the dataset for it once', async () => {
    // A provider's description: a field whose edit checks no URL (a URL would be fetched by a worker).
    const NEW_DESCRIPTION = 'ORCID at Bethesda, described again through the balancer of the scale-out test';
    const descriptionAt = async (base: string) => {
      const body = (await (await fetch(`${base}/orcid:0000-0002-5355-2576`)).json()) as { payload: { resolvedResources: { description: string }[] } };
      return body.payload.resolvedResources.map((r) => r.description);
    };
    for (const base of [...resolvers, satelliteBase]) expect(await descriptionAt(base)).not.toContain(NEW_DESCRIPTION);
    await datasetSettled();
    const before = await lastBuildId();

    const patched = await fetch(`${registryBase}/restApi/resources/1102`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${curatorToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ description: NEW_DESCRIPTION }),
    });
    expect(patched.status).toBe(200);
    await patched.arrayBuffer();
    // How soon each resolver shows it is bench:resolver's "change visible" figure, not asserted here.
    await Promise.all(
      [...resolvers, satelliteBase].map((base) =>
        waitFor(async () => (await descriptionAt(base)).includes(NEW_DESCRIPTION), { timeoutMs: 5000, what: `the change on ${base}` }),
      ),
    );

    // Both workers hear of the change; the queue's deduplication and the build lock make it one build.
    await waitFor(async () => (await t.db('datasetBuilds').where('id', '>', before).where({ status: 'succeeded' })).length > 0, {
      timeoutMs: 20_000,
      what: 'a dataset build after the change',
    });
    await datasetSettled();
    const builds = (await t.db('datasetBuilds').where('id', '>', before).orderBy('id')) as { status: string }[];
    expect(builds.filter((b) => b.status === 'succeeded')).toHaveLength(1);
    // A second ask that arrived while the build ran may follow it, finding nothing new: 'skipped'.
    expect(builds.filter((b) => b.status !== 'succeeded' && b.status !== 'skipped')).toEqual([]);
  }, LONG);

  it('adds up the usage counted by each resolver', async () => {
    const visits = async (prefix = 'go') => {
      let sum = 0;
      for (const day of days) sum += Number((await t.redis.hget(usageKeys.visits(day), prefix)) ?? 0);
      return sum;
    };
    const before = await visits();
    const through = async (base: string, times: number, agent: string, curie = 'GO:0006915') => {
      for (let i = 0; i < times; i++) {
        const res = await fetch(`${base}/${curie}`, { headers: { 'User-Agent': agent } });
        expect(res.status).toBe(200);
        await res.arrayBuffer();
      }
    };
    await through(resolvers[0]!, 7, 'cluster-test-a');
    await through(resolvers[1]!, 5, 'cluster-test-b');
    days.add(utcDay(new Date()));

    // Each resolver flushes its own counts (USAGE_FLUSH_INTERVAL_MS=200) into the same Redis counters.
    await waitFor(async () => (await visits()) - before === 12, { timeoutMs: 5000, what: 'the counts of both resolvers in Redis' });
    // Nothing counted twice: once a later visit from each resolver is in Redis, every earlier flush of theirs
    // is done (a flush sends all a resolver has counted), so the GO counts are final.
    const marks = await visits('taxonomy');
    await through(resolvers[0]!, 1, 'cluster-test-a', 'taxonomy:9606');
    await through(resolvers[1]!, 1, 'cluster-test-b', 'taxonomy:9606');
    days.add(utcDay(new Date()));
    await waitFor(async () => (await visits('taxonomy')) - marks === 2, { timeoutMs: 5000, what: 'a later visit of each resolver in Redis' });
    expect((await visits()) - before).toBe(12);
  }, LONG);

  it('loses no GET beyond those in flight when a resolver is killed under traffic', async () => {
    const CONCURRENCY = 4;
    const statuses = new Map<string, number>();
    let sent = 0;
    let stop = false;
    const client = async () => {
      while (!stop) {
        sent++;
        let outcome: string;
        try {
          const res = await fetch(`${resolverBase}/taxonomy:9606`);
          await res.arrayBuffer();
          outcome = String(res.status);
        } catch (error) {
          outcome = `error: ${(error as Error).cause ? String((error as Error).cause) : (error as Error).message}`;
        }
        statuses.set(outcome, (statuses.get(outcome) ?? 0) + 1);
      }
    };
    const clients = Array.from({ length: CONCURRENCY }, client);
    const answered = () => [...statuses.values()].reduce((n, count) => n + count, 0);
    await waitFor(() => answered() >= 50, { timeoutMs: 30_000, what: 'traffic through the balancer' });
    const outputBefore = cluster.output().length;
    process.kill(pids['resolver-1']!, 'SIGKILL');
    // Through the balancer's next health checks (two failed ones take it out; HAProxy says so on its stderr,
    // which is the cluster's) and a while after.
    await waitFor(() => /resolver-1 is DOWN/.test(cluster.output().slice(outputBefore)), { timeoutMs: 30_000, what: 'the balancer taking resolver-1 out' });
    const atDown = answered();
    await waitFor(() => answered() >= atDown + 60, { timeoutMs: 30_000, what: 'traffic after resolver-1 was taken out' });
    stop = true;
    await Promise.all(clients);

    const failed = [...statuses].filter(([status]) => !/^[23]\d\d$/.test(status));
    const failures = failed.reduce((n, [, count]) => n + count, 0);
    console.info(`cluster: ${sent} GETs through the balancer while resolver-1 was killed: ${JSON.stringify(Object.fromEntries(statuses))}`);
    expect(sent).toBeGreaterThan(100);
    // Only the requests resolver-1 had in hand could be lost, and the balancer retries even those.
    expect(failures).toBeLessThanOrEqual(CONCURRENCY);

    // The cluster starts the killed instance again; the balancer takes it back.
    await waitFor(() => /resolver-1 \(pid \d+\) is back/.test(cluster.output()), { timeoutMs: 30_000, what: 'resolver-1 started again' });
    await waitFor(async () => (await fetch(`${resolvers[0]!}/health/ready`)).status === 200, { timeoutMs: 10_000, what: 'resolver-1 ready again' });
  }, LONG);
});
