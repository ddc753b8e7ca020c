/**
 * The change feed and the dated datasets across two builds with a registry change between them, as operators
 * run them: a compiled worker process (npm test builds first) builds the dataset, keeping each build under the
 * date its manual job names, and prunes past DATASET_RETENTION_DAYS in its housekeeping job; the registry
 * area serves /changes, /changes.atom, getResolverDataset?version= and /resolutionApi/diff.
 */
import { createHash } from 'node:crypto';
import type { Queue } from 'bullmq';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { Redis } from 'ioredis';
import request from 'supertest';
import type { DatasetBuildJob, DatasetBuildOutcome } from '../../src/queue/dataset.queue.js';
import type { HousekeepingJob } from '../../src/queue/housekeeping.queue.js';
import { createWorkerRedis } from '../../src/queue/connections.js';
import { createQueue, queueNames } from '../../src/queue/queues.js';
import { daysBefore } from '../../src/lib/calendar-date.js';
import { REGISTRY_URL, startStack, type AreaStack } from '../support/areas.js';
import { stopProcess, type Spawned } from '../support/processes.js';
import { runJob, spawnWorker, waitForQueueWorkers } from '../support/service-processes.js';
import { waitFor } from '../support/wait.js';
import { TEST_REDIS_URL } from '../support/test-database.js';

const LONG = 120_000;
const RETENTION_DAYS = 100;
// Relative to today, so that the worker's own clock prunes the first and keeps the second.
const FIRST_DAY = daysBefore(new Date(), RETENTION_DAYS + 50);
const SECOND_DAY = daysBefore(new Date(), 10);

interface FeedChange {
  cursor: string;
  version: number;
  changedAt: string;
  entity: string;
  entityId: string;
  prefix: string | null;
  operation: string;
  record: string | null;
  recordId: string | null;
  title: string;
  url: string | null;
}
interface FeedPage {
  changes: FeedChange[];
  next: string;
  more: boolean;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

let t: AreaStack;
let app: ReturnType<typeof request>;
let worker: Spawned;
let connection: Redis;
let datasetQueue: Queue<DatasetBuildJob>;
let housekeepingQueue: Queue<HousekeepingJob>;
let firstBuild: DatasetBuildOutcome;
let secondBuild: DatasetBuildOutcome;
let firstBytes: string;
let cursorBeforeChange: string;
let changedResource: { id: number; mirId: string; name: string };

const api = () => request(t.registryApp().callback());

async function feedPage(since: string, limit = 100): Promise<FeedPage> {
  const answer = await api().get('/changes').query({ since, limit });
  expect(answer.status).toBe(200);
  return (answer.body as { payload: FeedPage }).payload;
}

/**
 * The first page after `since` once it holds a change. A change shows in the feed once every transaction
 * older than it has ended, anywhere on the Postgres cluster (change-feed.service.ts): at once on a quiet
 * server, later while another database's long transaction runs (a parallel test file's, a benchmark's).
 */
function settledPage(since: string): Promise<FeedPage> {
  return waitFor(
    async () => {
      const page = await feedPage(since);
      return page.changes.length > 0 ? page : undefined;
    },
    { timeoutMs: 60_000, what: 'the change showing in the feed' },
  );
}

/** Every change after `since`, page by page with the given page size; the last page's `next`. */
async function readFeed(since: string, limit: number): Promise<{ changes: FeedChange[]; next: string; pages: number }> {
  const changes: FeedChange[] = [];
  let pages = 0;
  for (let cursor = since; ; ) {
    const page = await feedPage(cursor, limit);
    pages++;
    expect(page.changes.length).toBeLessThanOrEqual(limit);
    changes.push(...page.changes);
    cursor = page.next;
    if (!page.more) return { changes, next: page.next, pages };
  }
}

const build = async (date: string) => (await runJob(datasetQueue, { reason: 'manual', date })).result as DatasetBuildOutcome;

beforeAll(async () => {
  t = await startStack('change_feed', { env: { DATASET_RETENTION_DAYS: String(RETENTION_DAYS) } });
  app = api();
  connection = createWorkerRedis(TEST_REDIS_URL);
  datasetQueue = createQueue(queueNames.dataset, connection, t.config.QUEUE_PREFIX);
  housekeepingQueue = createQueue(queueNames.housekeeping, connection, t.config.QUEUE_PREFIX);
  worker = spawnWorker(t, { DATASET_RETENTION_DAYS: String(RETENTION_DAYS) });
  await waitForQueueWorkers(queueNames.dataset, 1, { redisUrl: TEST_REDIS_URL, prefix: t.config.QUEUE_PREFIX });

  firstBuild = await build(FIRST_DAY);
  firstBytes = (await api().get('/resolutionApi/getResolverDataset').buffer(true)).text;
  cursorBeforeChange = (await readFeed('', 1000)).next;

  // The change: a namespace renamed, a resource edited, a namespace (and its resource) deleted, one added.
  changedResource = (await t.db('resources as r').join('namespaces as n', 'n.id', 'r.namespaceId').where('n.prefix', 'chebi').orderBy('r.id').first('r.id', 'r.mirId', 'r.name')) as typeof changedResource;
  await t.db.transaction(async (trx) => {
    await trx('namespaces').where({ prefix: 'go' }).update({ name: 'Gene Ontology (renamed)' });
    await trx('resources').where({ id: changedResource.id }).update({ name: 'ChEBI at a new name', official: false });
    await trx('namespaces').where({ prefix: 'did' }).delete();
    const institution = (await trx('institutions').first('id')) as { id: number };
    const [added] = (await trx('namespaces')
      .insert({ prefix: 'newthing', mirId: 'MIR:00009999', name: 'A new thing', pattern: '^\\d+$', description: 'Added between the builds', sampleId: '1' })
      .returning('id')) as { id: number }[];
    await trx('resources').insert({
      mirId: 'MIR:00109999',
      urlPattern: 'https://new.example/{$id}',
      name: 'New thing provider',
      description: 'Its only provider',
      resourceHomeUrl: 'https://new.example/',
      namespaceId: added!.id,
      institutionId: institution.id,
      locationCountryCode: 'GB',
      providerCode: 'new',
    });
  });
  await settledPage(cursorBeforeChange);
  secondBuild = await build(SECOND_DAY);
}, LONG);

afterAll(async () => {
  if (worker) await stopProcess(worker);
  await datasetQueue?.close();
  await housekeepingQueue?.close();
  connection?.disconnect();
  await t?.close();
}, LONG);

describe('the change feed', () => {
  it('lists the change after the cursor taken before it, with links to the namespace pages', async () => {
    const { changes } = await readFeed(cursorBeforeChange, 100);

    const described = changes.map((c) => [c.prefix, c.record, c.operation]);
    expect(described).toEqual(
      expect.arrayContaining([
        ['go', 'namespace', 'updated'],
        ['chebi', 'resource', 'updated'],
        ['did', 'namespace', 'deleted'],
        ['newthing', 'namespace', 'created'],
        ['newthing', 'resource', 'created'],
      ]),
    );
    const go = changes.find((c) => c.prefix === 'go')!;
    expect(go).toMatchObject({ entity: 'namespace', url: `${REGISTRY_URL}/registry/go`, title: 'namespace go updated' });
    expect(changes.find((c) => c.record === 'resource' && c.prefix === 'chebi')).toMatchObject({ recordId: String(changedResource.id) });
    // Nothing from before the cursor: the sample import's changes are all behind it.
    expect(changes.every((c) => ['go', 'chebi', 'did', 'newthing', null].includes(c.prefix))).toBe(true);
  });

  it('pages with a stable cursor: small pages read the same changes as one large page, and the end stays put', async () => {
    const whole = await readFeed('', 1000);
    const paged = await readFeed('', 7);

    expect(paged.pages).toBeGreaterThan(2);
    expect(paged.changes.map((c) => c.version)).toEqual(whole.changes.map((c) => c.version));
    expect(paged.next).toBe(whole.next);
    // Caught up: the same cursor again, and nothing after it.
    expect(await feedPage(whole.next)).toEqual({ changes: [], next: whole.next, more: false });
  });

  it('shows a new change after the end cursor, and only it', async () => {
    const { next } = await readFeed('', 1000);
    await t.db('namespaces').where({ prefix: 'pdb' }).update({ description: 'Edited for the feed test' });

    const page = await settledPage(next);
    expect(page.changes.map((c) => [c.prefix, c.record, c.operation])).toEqual([['pdb', 'namespace', 'updated']]);
    expect(page.next).toBe(page.changes[0]!.cursor);
  }, LONG);

  it('refuses a cursor it never gave out, and a page size out of range, with 400', async () => {
    for (const since of ['12', 'not-a-cursor', Buffer.from('v1.1').toString('base64url'), 'x'.repeat(200)]) {
      const answer = await app.get('/changes').query({ since });
      expect(answer.status).toBe(400);
      expect(answer.body.errorMessage).toMatch(/'since' must be a cursor this feed gave out/);
    }
    for (const limit of ['0', '1001', 'ten']) {
      const answer = await app.get('/changes').query({ limit });
      expect(answer.status).toBe(400);
      expect(answer.body.errorMessage).toMatch(/'limit' must be a whole number from 1 to 1000/);
    }
  });

  it('is an Atom 1.0 feed at /changes.atom and by Accept, the latest change first, each entry linking its page', async () => {
    const byPath = await app.get('/changes.atom').buffer(true);
    const byAccept = await app.get('/changes').set('Accept', 'application/atom+xml').buffer(true);

    for (const answer of [byPath, byAccept]) {
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
      expect(XMLValidator.validate(answer.text)).toBe(true);
    }
    const feed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'entry' || name === 'link' }).parse(byPath.text).feed;
    expect(feed.xmlns).toBe('http://www.w3.org/2005/Atom');
    expect(feed.id).toBe(`${REGISTRY_URL}/changes`);
    expect(new Date(feed.updated).toISOString()).toBe(feed.updated);
    expect(feed.author.name).toBeTruthy();
    expect(feed.link).toEqual(expect.arrayContaining([expect.objectContaining({ rel: 'self' })]));
    const entries = feed.entry as { id: string; title: string; updated: string; link?: { rel: string; href: string }[] }[];
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) {
      expect(entry.id).toMatch(new RegExp(`^${REGISTRY_URL}/changes/\\d+$`));
      expect(new Date(entry.updated).toISOString()).toBe(entry.updated);
    }
    // Newest first: the description edit of the test before is the first entry.
    expect(entries[0]).toMatchObject({ title: 'namespace pdb updated', link: [{ rel: 'alternate', href: `${REGISTRY_URL}/registry/pdb` }] });
    expect(feed.updated).toBe(entries[0]!.updated);
  });

  it('pages the Atom feed from a cursor with a rel="next" link while there is more', async () => {
    const answer = await app.get('/changes.atom').query({ since: cursorBeforeChange, limit: 2 }).buffer(true);
    expect(XMLValidator.validate(answer.text)).toBe(true);
    const feed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'entry' || name === 'link' }).parse(answer.text).feed;

    expect(feed.entry).toHaveLength(2);
    const next = (feed.link as { rel: string; href: string }[]).find((l) => l.rel === 'next')!;
    expect(next.href).toMatch(new RegExp(`^${REGISTRY_URL}/changes\\.atom\\?since=[A-Za-z0-9_-]+&limit=2$`));
  });
});

describe('dated datasets', () => {
  it('serves each build as it was on its day, and the current one without a version', async () => {
    const first = await app.get('/resolutionApi/getResolverDataset').query({ version: FIRST_DAY }).buffer(true);
    const second = await app.get('/resolutionApi/getResolverDataset').query({ version: SECOND_DAY }).buffer(true);

    expect(first.status).toBe(200);
    expect(first.text).toBe(firstBytes);
    expect(sha256(first.text)).toBe(firstBuild.etag);
    expect(first.headers.etag).toMatch(new RegExp(`^"${firstBuild.etag}(-gzip)?"$`));
    expect(second.status).toBe(200);
    expect(sha256(second.text)).toBe(secondBuild.etag);
    expect(second.text).not.toBe(first.text);
    expect(second.text).toContain('"name":"Gene Ontology (renamed)"');
    expect(first.text).toContain('"prefix":"did"');
    // The rewritten variant is kept too.
    const rewritten = await app.get('/resolutionApi/getResolverDataset').query({ version: FIRST_DAY, rewriteForEmbeddedPrefixes: 'true' });
    expect(rewritten.status).toBe(200);
  });

  it('answers 404 for a day without a build and 400 for a malformed date', async () => {
    const none = await app.get('/resolutionApi/getResolverDataset').query({ version: '2020-02-29' });
    expect(none.status).toBe(404);
    expect(none.body.errorMessage).toBe('There is no dataset of 2020-02-29: no dataset build was kept that day');
    for (const version of ['2026-02-30', '26-01-01', 'yesterday', '']) {
      const bad = await app.get('/resolutionApi/getResolverDataset').query({ version });
      expect(bad.status).toBe(400);
      expect(bad.body.errorMessage).toBe("'version' must be a date YYYY-MM-DD");
    }
  });

  it('lists what the change added, changed field by field, and removed', async () => {
    const answer = await app.get('/resolutionApi/diff').query({ from: FIRST_DAY, to: SECOND_DAY });
    expect(answer.status).toBe(200);
    const { payload } = answer.body;

    expect(payload.from).toMatchObject({ version: FIRST_DAY, registryVersion: firstBuild.registryVersion, namespaceCount: firstBuild.namespaceCount });
    expect(payload.to).toMatchObject({ version: SECOND_DAY, registryVersion: secondBuild.registryVersion });
    expect(payload.namespaces.added).toEqual([{ prefix: 'newthing', mirId: 'MIR:00009999', name: 'A new thing' }]);
    expect(payload.namespaces.removed).toEqual([expect.objectContaining({ prefix: 'did' })]);
    const go = payload.namespaces.changed.find((n: { prefix: string }) => n.prefix === 'go');
    expect(go.changes).toEqual([{ field: 'name', from: 'Gene Ontology', to: 'Gene Ontology (renamed)' }]);
    expect(payload.resources.added).toEqual([{ namespacePrefix: 'newthing', mirId: 'MIR:00109999', providerCode: 'new', name: 'New thing provider' }]);
    expect(payload.resources.removed).toEqual([expect.objectContaining({ namespacePrefix: 'did' })]);
    const chebi = payload.resources.changed.find((r: { mirId: string }) => r.mirId === changedResource.mirId);
    expect(chebi.changes).toEqual([
      { field: 'name', from: changedResource.name, to: 'ChEBI at a new name' },
      { field: 'official', from: true, to: false },
    ]);
  });

  it("takes 'current' as a version, and a version with itself shows no change", async () => {
    // A build of today's (no date) serves the feed test's description edit, which came after the second build.
    await runJob(datasetQueue, { reason: 'manual' });
    const toCurrent = await app.get('/resolutionApi/diff').query({ from: SECOND_DAY, to: 'current' });
    expect(toCurrent.status).toBe(200);
    expect(toCurrent.body.payload.namespaces.changed.map((n: { prefix: string }) => n.prefix)).toEqual(['pdb']);
    const same = await app.get('/resolutionApi/diff').query({ from: FIRST_DAY, to: FIRST_DAY });
    expect(same.body.payload.namespaces).toEqual({ added: [], removed: [], changed: [] });
    expect(same.body.payload.resources).toEqual({ added: [], removed: [], changed: [] });
    const bad = await app.get('/resolutionApi/diff').query({ from: 'last-week', to: 'current' });
    expect(bad.status).toBe(400);
    expect(bad.body.errorMessage).toBe("'from' must be a date YYYY-MM-DD or 'current'");
  });

  it('prunes days past DATASET_RETENTION_DAYS in the housekeeping job; a pruned day answers 410', async () => {
    const { result } = await runJob(housekeepingQueue, { reason: 'manual' });
    expect(result).toMatchObject({ datedDatasetsPruned: 1 });

    const pruned = await app.get('/resolutionApi/getResolverDataset').query({ version: FIRST_DAY });
    expect(pruned.status).toBe(410);
    expect(pruned.body.errorMessage).toMatch(new RegExp(`^The dataset of ${FIRST_DAY} is no longer kept: dated datasets are kept for ${RETENTION_DAYS} days \\(DATASET_RETENTION_DAYS\\)`));
    const diff = await app.get('/resolutionApi/diff').query({ from: FIRST_DAY, to: 'current' });
    expect(diff.status).toBe(410);
    expect((await app.get('/resolutionApi/getResolverDataset').query({ version: SECOND_DAY })).status).toBe(200);
    expect((await app.get('/resolutionApi/getResolverDataset')).status).toBe(200);
  });
});
