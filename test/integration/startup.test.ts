import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createWorkerRedis } from '../../src/queue/connections.js';
import { deleteQueueKeys } from '../../src/queue/queue-keys.js';
import { freePort, spawnNode, type Spawned } from '../support/processes.js';
import { TEST_POSTGRES_URL, TEST_REDIS_URL } from '../support/test-database.js';
import { waitFor } from '../support/wait.js';

// These tests run the compiled entry points (npm test builds first), as `npm start` does.
describe('npm start', () => {
  it('stops with a clear message naming Postgres, where it looked and how to start it', async () => {
    const port = await freePort();
    const run = spawnNode('dist/src/main.js', {
      DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/curie_resolver`,
      REDIS_URL: TEST_REDIS_URL,
    });
    const { code } = await run.exited;
    expect(code).not.toBe(0);
    expect(run.output()).toContain(`Cannot reach PostgreSQL at postgres://postgres@127.0.0.1:${port}/curie_resolver`);
    expect(run.output()).toMatch(/docker compose up -d postgres/);
    expect(run.output()).toMatch(/systemctl start postgresql|pg_ctlcluster/);
  });

  it('stops with one message naming every bad setting', async () => {
    const run = spawnNode('dist/src/main.js', { RESOLVER_PORT: 'x', DATABASE_URL: 'mysql://nope' });
    const { code } = await run.exited;
    expect(code).toBe(1);
    expect(run.output()).toMatch(/RESOLVER_PORT/);
    expect(run.output()).toMatch(/DATABASE_URL/);
    expect(run.output().trim().split('\n')).toHaveLength(1);
  });

  describe('on a machine with Postgres and Redis', () => {
    const database = `test_startup_${process.pid}`;
    const queuePrefix = `test-startup-${randomBytes(4).toString('hex')}`;
    let datasetDir: string;
    let started: Spawned | undefined;
    const admin = async (sql: string) => {
      const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await client.connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    };
    beforeAll(() => {
      datasetDir = mkdtempSync(path.join(tmpdir(), 'startup-dataset-'));
    });
    afterAll(async () => {
      // Stopped already, unless the test failed half-way.
      if (started && started.child.exitCode === null && started.child.signalCode === null) started.child.kill('SIGTERM');
      await started?.exited;
      await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      // The worker it started scheduled the nightly and polling jobs, and stopped with it.
      const redis = createWorkerRedis(TEST_REDIS_URL);
      try {
        await deleteQueueKeys(redis, queuePrefix);
      } finally {
        redis.disconnect();
      }
      rmSync(datasetDir, { recursive: true, force: true });
    });

    it('creates the database, seeds the sample registry, serves both areas and stops on SIGTERM', async () => {
      const [resolverPort, registryPort] = [await freePort(), await freePort()];
      const url = new URL(TEST_POSTGRES_URL);
      url.pathname = `/${database}`;
      const run = spawnNode('dist/src/main.js', {
        DATABASE_URL: url.toString(),
        REDIS_URL: TEST_REDIS_URL,
        HOST: '127.0.0.1',
        RESOLVER_PORT: String(resolverPort),
        REGISTRY_PORT: String(registryPort),
        LOG_LEVEL: 'warn',
        // The worker it starts builds the dataset and schedules jobs: keep both away from shared places.
        DATASET_DIR: datasetDir,
        QUEUE_PREFIX: queuePrefix,
      });
      started = run;
      try {
        for (const port of [resolverPort, registryPort]) {
          const body = await waitFor(
            async () => {
              const res = await fetch(`http://127.0.0.1:${port}/health/ready`);
              return res.status === 200 ? ((await res.json()) as { payload: { status: string } }) : undefined;
            },
            { timeoutMs: 60000, what: `port ${port} ready` },
          );
          expect(body.payload.status).toBe('ok');
        }
        await waitFor(async () => run.output().includes('Press Ctrl-C to stop.'), { timeoutMs: 10000, what: 'addresses printed' });
        expect(run.output()).toContain('resolver area on http://localhost:8080');
        const client = new pg.Client({ connectionString: url.toString() });
        await client.connect();
        const { rows } = await client.query<{ count: string }>('SELECT count(*) FROM namespaces');
        await client.end();
        expect(Number(rows[0]?.count)).toBeGreaterThanOrEqual(15);
      } finally {
        run.child.kill('SIGTERM');
      }
      const { code } = await run.exited;
      expect(code).toBe(0);
      // Every child stopped with it: nothing answers on either port any more.
      for (const port of [resolverPort, registryPort]) {
        await expect(fetch(`http://127.0.0.1:${port}/health/live`)).rejects.toThrow();
      }
    }, 90000);
  });
});
