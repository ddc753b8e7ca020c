/**
 * Issue 12 from end to end: a real worker process checks two fixture providers of one namespace, the first
 * of which (dataset order, so the redirect target on a tie) answers 404 on its sample URL; the running
 * resolver, never restarted, ranks it below the healthy one in its JSON answer and sends browsers to the
 * healthy one once the run's checks are announced, without waiting for its periodic registry check (a
 * minute here). How soon is bench:resolver's "announced link checks in the ranking" figure, not asserted
 * here.
 */
import { randomBytes } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import request from 'supertest';
import type { LinkCheckRunRow } from '../../src/db/tables.js';
import { newManualRunId, planLinkCheckRun } from '../../src/link-check/plan-run.js';
import { createWorkerRedis } from '../../src/queue/connections.js';
import type { LinkCheckJob } from '../../src/queue/link-check.queue.js';
import { createQueue, queueNames } from '../../src/queue/queues.js';
import { fixtureNamespace } from '../factories/link-check.factory.js';
import { startResolver, type ResolverUnderTest } from '../support/areas.js';
import { startLinkFixture, type LinkFixture } from '../support/link-check-fixture.js';
import { stopProcess, type Spawned } from '../support/processes.js';
import { spawnWorker, waitForQueueWorkers } from '../support/service-processes.js';
import { TEST_REDIS_URL } from '../support/test-database.js';
import { waitFor } from '../support/wait.js';

const LONG = 120_000;
// Far below the resolver's one-minute periodic check: meeting it shows the worker's announcement did it.
const ANNOUNCED_WITHIN_MS = 10_000;

interface Resolved {
  providerCode: string;
  accessUrl: string;
  recommendation: { recommendationIndex: number; recommendationExplanation: string };
}

describe('link checks re-rank providers in a running resolver', () => {
  let r: ResolverUnderTest;
  let fixture: LinkFixture;
  let connection: Redis;
  let queue: Queue<LinkCheckJob>;
  let worker: Spawned | undefined;
  const prefix = `ranked${randomBytes(3).toString('hex')}`;

  beforeAll(async () => {
    fixture = await startLinkFixture();
    const namespace = fixtureNamespace(prefix, [
      { code: 'failing', urlPattern: fixture.url('/status/404/failing/{$id}'), resourceHomeUrl: fixture.url('/ok/failing') },
      { code: 'healthy', urlPattern: fixture.url('/ok/healthy/{$id}'), resourceHomeUrl: fixture.url('/ok/healthy') },
    ]);
    // The periodic registry check far beyond the deadline: only the link_checks notification can meet it.
    r = await startResolver('link_check_end_to_end', { data: { records: [namespace] }, checkIntervalMs: 60_000 });
    connection = createWorkerRedis(TEST_REDIS_URL);
    queue = createQueue(queueNames.linkCheck, connection, r.config.QUEUE_PREFIX);
    worker = spawnWorker(r, { URL_CHECK_ALLOW_PRIVATE_NETWORKS: 'true', LINKCHECK_HOST_DELAY_MS: '50' });
    await waitForQueueWorkers(queueNames.linkCheck, 1, { redisUrl: TEST_REDIS_URL, prefix: r.config.QUEUE_PREFIX });
  }, LONG);

  afterAll(async () => {
    if (worker) await stopProcess(worker);
    await queue?.close();
    connection?.disconnect();
    await r?.close();
    await fixture?.close();
  });

  const resolved = async (): Promise<Resolved[]> => {
    const res = await request(r.app).get(`/${prefix}:1`);
    expect(res.status).toBe(200);
    return res.body.payload.resolvedResources as Resolved[];
  };
  const redirectTarget = async (): Promise<string> => {
    const res = await request(r.app).get(`/${prefix}:1`).set('Accept', 'text/html');
    expect(res.status).toBe(302);
    return res.headers.location as string;
  };

  it('ranks the provider whose sample URL is not found below the healthy one, in JSON and redirect', async () => {
    const before = await resolved();
    expect(before.map((x) => x.providerCode)).toEqual(['failing', 'healthy']);
    expect(before[0]!.recommendation.recommendationIndex).toBe(before[1]!.recommendation.recommendationIndex);
    expect(before[0]!.recommendation.recommendationExplanation).toMatch(/no availability measured yet/);
    // On a tie the first in dataset order is the target.
    expect(await redirectTarget()).toBe(fixture.url('/status/404/failing/1'));

    const { runId, planned } = await planLinkCheckRun({ db: r.db, queue }, { runId: newManualRunId(), prefix, spreadMs: 0 });
    expect(planned).toBe(4);
    const run = await waitFor(
      async () => {
        const row = (await r.db('link_check_runs').where({ id: runId }).first()) as LinkCheckRunRow | undefined;
        return row && row.done === row.planned ? row : undefined;
      },
      { timeoutMs: 60_000, everyMs: 50, what: 'the link-check run storing every check' },
    );
    expect(run.done).toBe(4);

    // The worker announces stored checks in groups: the ranking is complete once both providers are measured.
    const measured = /measured availability \d+ % over 7 days/;
    const after = await waitFor(
      async () => {
        const list = await resolved();
        return list.every((x) => measured.test(x.recommendation.recommendationExplanation)) ? list : undefined;
      },
      { timeoutMs: ANNOUNCED_WITHIN_MS, everyMs: 50, what: 'both providers measured in the resolver' },
    );
    expect(await redirectTarget()).toBe(fixture.url('/ok/healthy/1'));
    // The JSON list keeps dataset order; the indices and their explanations move.
    expect(after.map((x) => x.providerCode)).toEqual(['failing', 'healthy']);
    const [failing, healthy] = after;
    expect(failing!.recommendation.recommendationIndex).toBeLessThan(healthy!.recommendation.recommendationIndex);
    expect(failing!.recommendation.recommendationExplanation).toMatch(/measured availability 0 % over 7 days \(1 check/);
    expect(healthy!.recommendation.recommendationExplanation).toMatch(/measured availability 100 % over 7 days \(1 check/);
  }, LONG);
});
