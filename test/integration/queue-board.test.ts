/**
 * Issue 14 item 3: the queue dashboard (bull-board) on the registry area, behind the curator desk's sign-in
 * or the curator token, over the real queues in Redis. Without a session a page is sent to the sign-in
 * and comes back after it; the board's API answers 401. A curator sees every queue of the service, retries
 * a job a real worker failed (one and all), cleans a queue; the other actions are refused, as is an action
 * from another origin. /admin/queues, the address, redirects to the board. The rate limits never
 * count a curator at the board.
 */
import { randomBytes } from 'node:crypto';
import type { RequestListener } from 'node:http';
import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import request from 'supertest';
import { queueNames } from '../../src/queue/queues.js';
import { REGISTRY_URL, startRegistry, type RegistryUnderTest } from '../support/areas.js';
import { HTML_ACCEPT, cookieSet, postDeskSignIn, signInAtDesk } from '../support/desk-session.js';
import { TEST_REDIS_URL } from '../support/test-database.js';
import { waitFor } from '../support/wait.js';

const CURATOR_TOKEN = randomBytes(24).toString('hex');
const BOARD = '/curation/queues';
const API = `${BOARD}/api/queues`;
/** The queue the tests fail jobs in: one of the service's, under the test's own QUEUE_PREFIX. */
const QUEUE = queueNames.housekeeping;

interface BoardQueue {
  name: string;
  description?: string;
  counts: Record<string, number>;
  jobs: { id: string; failedReason?: string }[];
  allowRetries: boolean;
  readOnlyMode: boolean;
}

describe('the queue board', () => {
  let t: RegistryUnderTest;
  let app: RequestListener;
  let session: string;

  beforeAll(async () => {
    t = await startRegistry('queue_board', { env: { CURATOR_TOKEN } });
    app = t.app;
    session = await signInAtDesk(app, CURATOR_TOKEN);
  });

  afterAll(async () => {
    await t.close();
  });

  const asCurator = (req: request.Test) => req.set('Cookie', session);
  const boardQueues = async (query = ''): Promise<BoardQueue[]> => {
    const res = await asCurator(request(app).get(`${API}${query}`));
    expect(res.status).toBe(200);
    return (res.body as { queues: BoardQueue[] }).queues;
  };
  const queueOnBoard = async (status: string): Promise<BoardQueue> =>
    (await boardQueues(`?activeQueue=${QUEUE}&status=${status}&page=1&jobsPerPage=50`)).find((q) => q.name === QUEUE)!;
  /** A board action as its page sends it: PUT, from the registry's own origin. */
  const act = (path: string, origin = REGISTRY_URL) => asCurator(request(app).put(`${API}/${path}`)).set('Origin', origin);

  it('opens no queue for requests outside the board (no queue is registered in Redis until the board is asked for)', async () => {
    expect((await request(app).get('/restApi/namespaces')).status).toBe(200);
    expect((await request(app).get('/curation').set('Cookie', session).set('Accept', HTML_ACCEPT)).status).toBe(200);
    expect(await t.redis.keys(`${t.config.QUEUE_PREFIX}:*`)).toEqual([]);
  });

  describe('without a session or the curator token', () => {
    it('sends a browser to the desk sign-in, which brings the curator back to the board', async () => {
      const page = await request(app).get(`${BOARD}/queue/${QUEUE}?status=failed`).set('Accept', HTML_ACCEPT);
      expect(page.status).toBe(303);
      const next = `${BOARD}/queue/${QUEUE}?status=failed`;
      expect(page.headers.location).toBe(`/curation/sign-in?next=${encodeURIComponent(next)}`);
      expect((await request(app).get(BOARD).set('Accept', HTML_ACCEPT)).headers.location).toBe(`/curation/sign-in?next=${encodeURIComponent(BOARD)}`);

      const signedIn = await postDeskSignIn(app, CURATOR_TOKEN, next);
      expect(signedIn.status).toBe(303);
      expect(signedIn.headers.location).toBe(next);
      const board = await request(app).get(next).set('Accept', HTML_ACCEPT).set('Cookie', cookieSet(signedIn, 'registry_curator'));
      expect(board.status).toBe(200);
    });

    it('answers the board API, its files and its actions 401, and a wrong token 403', async () => {
      for (const res of [
        await request(app).get(API),
        await request(app).get(`${API}?activeQueue=${QUEUE}`).set('Accept', HTML_ACCEPT),
        await request(app).get(`${BOARD}/static/images/logo.svg`),
        await request(app).put(`${API}/${QUEUE}/retry/failed`),
        await request(app).put(`${API}/${QUEUE}/clean/completed`).set('Cookie', 'registry_curator=forged'),
      ]) {
        expect(res.status).toBe(401);
        expect(res.headers['www-authenticate']).toBe('Bearer realm="curation"');
        expect(res.headers['cache-control']).toBe('no-store');
      }
      const wrong = await request(app).get(API).set('Authorization', 'Bearer not-the-token');
      expect(wrong.status).toBe(403);
    });

    it('answers 404 where curation is off, as the desk does', async () => {
      const off = t.registryApp({ env: { CURATOR_TOKEN: '' } }).callback();
      expect((await request(off).get(API)).status).toBe(404);
      expect((await request(off).get(BOARD).set('Accept', HTML_ACCEPT)).status).toBe(404);
    });
  });

  it('answers /admin/queues, the issue’s address, with 308 to the board, path and query kept', async () => {
    const cases: [string, string][] = [
      ['/admin/queues', BOARD],
      ['/admin/queues/', BOARD],
      [`/admin/queues/queue/${QUEUE}?status=failed`, `${BOARD}/queue/${QUEUE}?status=failed`],
      ['/admin/queues/api/queues?activeQueue=x', `${API}?activeQueue=x`],
    ];
    for (const [from, to] of cases) {
      const res = await request(app).get(from);
      expect(res.status).toBe(308);
      expect(res.headers.location).toBe(to);
    }
    const put = await request(app).put(`/admin/queues/api/queues/${QUEUE}/retry/failed`);
    expect(put.status).toBe(308);
    expect(put.headers.location).toBe(`${API}/${QUEUE}/retry/failed`);
    // The redirect's target answers the curator token as well as the session.
    const followed = await request(app).get(put.headers.location!.replace(/\/[^/]+\/retry\/failed$/, '')).set('Authorization', `Bearer ${CURATOR_TOKEN}`);
    expect(followed.status).toBe(200);
  });

  it('shows every queue of the service, with its description, to a signed-in curator and to the curator token', async () => {
    const expected = Object.values(queueNames).sort();
    const bySession = await boardQueues();
    expect(bySession.map((q) => q.name).sort()).toEqual(expected);
    for (const queue of bySession) {
      expect(queue.description).toMatch(/\S/);
      expect(queue.readOnlyMode).toBe(false);
      expect(queue.allowRetries).toBe(true);
    }
    const byToken = await request(app).get(API).set('Authorization', `Bearer ${CURATOR_TOKEN}`);
    expect(byToken.status).toBe(200);
    expect((byToken.body as { queues: BoardQueue[] }).queues.map((q) => q.name).sort()).toEqual(expected);
  });

  it('serves the board page and its files with headers that let them load and keep them to the registry', async () => {
    const page = await asCurator(request(app).get(BOARD).set('Accept', HTML_ACCEPT));
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['x-frame-options']).toBe('DENY');
    const csp = page.headers['content-security-policy'] as string;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.text).toContain(`<base href="${BOARD}/" />`);
    const scripts = [...page.text.matchAll(/<script defer src="([^"]+)"/g)].map((m) => m[1]!);
    const styles = [...page.text.matchAll(/<link href="(static\/[^"]+\.css)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    expect(styles.length).toBeGreaterThan(0);
    // nosniff is on every answer: each file must come with its own type, or the browser refuses it.
    for (const [file, type] of [...scripts.map((s) => [s, /javascript/] as const), ...styles.map((s) => [s, /^text\/css/] as const)]) {
      const res = await asCurator(request(app).get(`${BOARD}/${file}`));
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(type);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  describe('over a real queue and worker', () => {
    let connection: Redis;
    let queue: Queue;
    let worker: Worker;
    /** How many times the worker has run each job: each job fails its first run; `always` jobs fail every run. */
    const runs = new Map<string, number>();

    beforeAll(async () => {
      connection = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
      queue = new Queue(QUEUE, { connection, prefix: t.config.QUEUE_PREFIX });
      worker = new Worker(
        QUEUE,
        async (job: Job<{ always?: boolean }>) => {
          const run = (runs.get(job.id!) ?? 0) + 1;
          runs.set(job.id!, run);
          if (run === 1 || job.data.always) throw new Error(`run ${run} of job ${job.id} fails`);
          return { run };
        },
        { connection, prefix: t.config.QUEUE_PREFIX },
      );
      worker.on('error', () => undefined);
    });

    afterAll(async () => {
      await worker?.close();
      await queue?.close();
      connection?.disconnect();
    });

    const failedJob = async (data: { always?: boolean } = {}): Promise<string> => {
      const job = await queue.add('board-test', data, { attempts: 1 });
      await waitFor(async () => (await job.getState()) === 'failed', { timeoutMs: 10_000, what: `job ${job.id} to fail` });
      return job.id!;
    };
    const stateOf = async (id: string) => (await queue.getJob(id))?.getState() ?? 'gone';

    it('lists a failed job with its reason, and retries it until the worker completes it', async () => {
      const id = await failedJob();
      const failed = await queueOnBoard('failed');
      expect(failed.counts.failed).toBe(1);
      expect(failed.jobs).toEqual([expect.objectContaining({ id, failedReason: `run 1 of job ${id} fails` })]);

      const retried = await act(`${QUEUE}/${id}/retry`);
      expect(retried.status).toBe(204);
      await waitFor(async () => (await stateOf(id)) === 'completed', { timeoutMs: 10_000, what: `job ${id} to complete after its retry` });
      expect(runs.get(id)).toBe(2);
    });

    it('retries every failed job of a queue at once', async () => {
      const ids = [await failedJob(), await failedJob()];
      const retried = await act(`${QUEUE}/retry/failed`);
      expect(retried.status).toBe(200);
      expect(retried.body).toEqual({ retried: 2, skipped: 0 });
      for (const id of ids) await waitFor(async () => (await stateOf(id)) === 'completed', { timeoutMs: 10_000, what: `job ${id} to complete` });
      expect((await queueOnBoard('failed')).counts.failed).toBe(0);
    });

    it('cleans one job, and a queue of its completed jobs', async () => {
      const id = await failedJob({ always: true });
      const cleaned = await act(`${QUEUE}/${id}/clean`);
      expect(cleaned.status).toBe(204);
      expect(await stateOf(id)).toBe('gone');

      expect((await queueOnBoard('completed')).counts.completed).toBeGreaterThan(0);
      // bull-board cleans only jobs finished more than 5 s before (its grace time): asked again until then.
      await waitFor(
        async () => {
          expect((await act(`${QUEUE}/clean/completed`)).status).toBe(200);
          return (await queueOnBoard('completed')).counts.completed === 0;
        },
        { timeoutMs: 15_000, everyMs: 1000, what: 'the completed jobs to be cleaned' },
      );
      expect(await queue.getCompletedCount()).toBe(0);
    });

    it('refuses the actions it does not offer, and an action from another origin', async () => {
      const id = await failedJob({ always: true });
      for (const res of [
        await act(`${QUEUE}/obliterate`),
        await act(`${QUEUE}/empty`),
        await act(`${QUEUE}/pause`),
        await asCurator(request(app).post(`${API}/${QUEUE}/add`)).set('Origin', REGISTRY_URL).send({ name: 'x', data: {} }),
        await asCurator(request(app).patch(`${API}/${QUEUE}/${id}/update-data`)).set('Origin', REGISTRY_URL).send({ data: {} }),
      ]) {
        expect(res.status).toBe(403);
      }
      expect(await stateOf(id)).toBe('failed');
      expect(await queue.isPaused()).toBe(false);

      const foreign = await act(`${QUEUE}/${id}/retry`, 'https://elsewhere.example');
      expect(foreign.status).toBe(403);
      expect(await stateOf(id)).toBe('failed');
      // The curator token is no browser's: its actions need no Origin.
      const byToken = await request(app).put(`${API}/${QUEUE}/${id}/clean`).set('Authorization', `Bearer ${CURATOR_TOKEN}`);
      expect(byToken.status).toBe(204);
      expect(await stateOf(id)).toBe('gone');
    });
  });

  it('never counts a curator at the board against the rate limits', async () => {
    const limited = t.registryApp({ env: { CURATOR_TOKEN, RATE_LIMITS: 'true', RATE_LIMIT_BROWSE: '2', RATE_LIMIT_SUBMISSIONS: '1' } }).callback();
    const curator = await signInAtDesk(limited, CURATOR_TOKEN);
    for (let i = 0; i < 6; i++) {
      const res = await request(limited).get(API).set('Cookie', curator);
      expect(res.status).toBe(200);
      expect(res.headers.ratelimit).toBeUndefined();
    }
    for (let i = 0; i < 3; i++) {
      expect((await request(limited).put(`${API}/${QUEUE}/clean/failed`).set('Cookie', curator).set('Origin', REGISTRY_URL)).status).toBe(200);
    }
    for (let i = 0; i < 3; i++) expect((await request(limited).get(API).set('Authorization', `Bearer ${CURATOR_TOKEN}`)).status).toBe(200);
  });
});
