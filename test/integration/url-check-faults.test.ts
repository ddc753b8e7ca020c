/**
 * URL checks when things break: a worker process killed in the middle of a check (another worker retries the
 * job and the waiting validation gets its verdict), and Redis stopping while a validation waits (a clear,
 * retryable CheckUnavailableError, at once rather than at the end of the wait). The Redis that is stopped is
 * this test's own redis-server, never the shared one. Fixtures are on 127.0.0.1, so the workers here run with
 * URL_CHECK_ALLOW_PRIVATE_NETWORKS on.
 */
import http from 'node:http';
import type net from 'node:net';
import { Redis } from 'ioredis';
import { createProducerRedis, createWorkerRedis } from '../../src/queue/connections.js';
import { createQueue, queueNames } from '../../src/queue/queues.js';
import { CheckUnavailableError } from '../../src/registry/model/registration-checks.js';
import { createQueuedUrlCheck } from '../../src/registry/registration/url-check/queued-url-check.js';
import { urlCheckHash, urlCheckJobId } from '../../src/queue/url-check.queue.js';
import { startStack, type AreaStack } from '../support/areas.js';
import { stopProcess, type Spawned } from '../support/processes.js';
import { startOwnRedis, type OwnRedis } from '../support/redis-server.js';
import { describeRequiring, redisServerBinary } from '../support/requirements.js';
import { spawnWorker, waitForQueueWorkers } from '../support/service-processes.js';
import { TEST_REDIS_URL } from '../support/test-database.js';
import { waitFor } from '../support/wait.js';

const LONG = 120_000;

/** Holds the first request of each path without answering; answers the later ones 410 Gone. */
async function startHoldingFixture() {
  const sockets = new Set<net.Socket>();
  const state = { port: 0, requests: [] as string[], held: [] as http.ServerResponse[] };
  const server = http.createServer((req, res) => {
    state.requests.push(req.url ?? '');
    if (state.requests.filter((u) => u === req.url).length === 1) {
      state.held.push(res);
      return;
    }
    res.writeHead(410);
    res.end('gone');
  });
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.address() as net.AddressInfo).port;
  return {
    state,
    url: (p: string) => `http://127.0.0.1:${state.port}${p}`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('a worker killed in the middle of a check', () => {
  let t: AreaStack;
  let prefix: string;
  let inspector: Redis;
  let fixture: Awaited<ReturnType<typeof startHoldingFixture>>;
  const workers: Spawned[] = [];

  const startWorker = () => {
    const worker = spawnWorker(t, { WORKER_LOCK_DURATION_MS: '2000', URL_CHECK_ALLOW_PRIVATE_NETWORKS: 'true' });
    workers.push(worker);
    return worker;
  };
  const workersConnected = (n: number) => waitForQueueWorkers(queueNames.urlCheck, n, { redisUrl: TEST_REDIS_URL, prefix });

  beforeAll(async () => {
    t = await startStack('url_check_faults', { data: 'none' });
    prefix = t.config.QUEUE_PREFIX;
    inspector = createWorkerRedis(TEST_REDIS_URL);
    fixture = await startHoldingFixture();
  });

  afterAll(async () => {
    await Promise.all(workers.map((worker) => stopProcess(worker)));
    await fixture.close();
    inspector.disconnect();
    await t.close();
  }, LONG);

  it('is retried by another worker, and the waiting validation gets that verdict', async () => {
    const victim = startWorker();
    await workersConnected(1);
    const producerRedis = createProducerRedis(TEST_REDIS_URL);
    const checks = createQueuedUrlCheck({ connection: producerRedis, prefix, waitMs: 60_000, cacheSeconds: 300 });
    try {
      const url = fixture.url('/held');
      const answer = checks.urlCheck(url, { isProtected: false });
      // The victim is fetching: the fixture holds its request.
      await waitFor(async () => fixture.state.held.length === 1, { timeoutMs: 15_000, what: 'the first fetch arriving' });

      const survivor = startWorker();
      await workersConnected(2);
      victim.child.kill('SIGKILL');
      expect(await victim.exited).toEqual({ code: null, signal: 'SIGKILL' });

      // The victim's job lock lapses; the survivor's stalled-job check puts the job back and fetches again.
      await expect(answer).resolves.toBe(`Status 410 GONE is not acceptable for URL ${url}`);
      expect(fixture.state.requests).toEqual(['/held', '/held']);
      const queue = createQueue(queueNames.urlCheck, inspector, prefix);
      try {
        const job = await queue.getJob(urlCheckJobId(urlCheckHash(url, false)));
        expect(await job?.getState()).toBe('completed');
        expect(job?.returnvalue).toEqual({ ok: false, message: `Status 410 GONE is not acceptable for URL ${url}` });
      } finally {
        await queue.close();
      }
      expect(survivor.child.exitCode).toBeNull();
    } finally {
      await checks.close();
      producerRedis.disconnect();
    }
  }, LONG);
});

describeRequiring([redisServerBinary()], "the test's own Redis stopped during a check", () => {
  let ownRedis: OwnRedis;
  let fixture: Awaited<ReturnType<typeof startHoldingFixture>>;

  beforeAll(async () => {
    fixture = await startHoldingFixture();
    ownRedis = await startOwnRedis();
  });

  afterAll(async () => {
    await ownRedis.destroy();
    await fixture.close();
  });

  it('rejects the waiting check with CheckUnavailableError at once, and the next one too', async () => {
    // The API's producer connection (createProducerRedis), told to let go at once when disconnected: ioredis
    // otherwise keeps a 2 s timer for a reconnection socket that never opens.
    const producerRedis = new Redis(ownRedis.url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 3000, disconnectTimeout: 10 });
    producerRedis.on('error', () => undefined);
    const checks = createQueuedUrlCheck({ connection: producerRedis, prefix: 'test-url-check-redis-stop', waitMs: 30_000, cacheSeconds: 300 });
    try {
      // No worker on this Redis: the check is queued and waits.
      const answer = checks.urlCheck(fixture.url('/never-fetched'), { isProtected: false });
      const settled = answer.then(
        () => 'resolved',
        (error: unknown) => error,
      );
      const queue = createQueue(queueNames.urlCheck, producerRedis, 'test-url-check-redis-stop');
      try {
        await waitFor(async () => (await queue.getJobCounts('waiting')).waiting === 1, { timeoutMs: 5000, what: 'the check being queued' });
      } finally {
        await queue.close();
      }

      await ownRedis.stop();

      // "At once" is the error's kind: the 30 s wait bound would end in CheckStillRunningError instead.
      const error = await settled;
      expect(error).toBeInstanceOf(CheckUnavailableError);
      expect((error as Error).message).toMatch(/try again/);

      await expect(checks.urlCheck(fixture.url('/never-fetched'), { isProtected: false })).rejects.toBeInstanceOf(CheckUnavailableError);
      expect(fixture.state.requests).toEqual([]);
    } finally {
      await checks.close();
      producerRedis.disconnect();
    }
  }, LONG);
});
