/**
 * GET /resolutionApi/diff computes a diff once per pair of dataset builds, in a worker thread, however many
 * clients ask for it at once; and one client may not have several diffs computed at the same time.
 */
import request from 'supertest';
import { daysBefore } from '../../src/lib/calendar-date.js';
import { processDatasetBuild } from '../../workers/dataset/dataset.processor.js';
import { startRegistry, type RegistryUnderTest } from '../support/areas.js';
import { waitFor } from '../support/wait.js';

const DAY = daysBefore(new Date(), 3);

let t: RegistryUnderTest;

async function scrape(): Promise<{ renders: number; diffs: number }> {
  const answer = await request(t.app).get('/metrics');
  expect(answer.status).toBe(200);
  const count = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(answer.text)?.[1] ?? 0);
  return { renders: count('curie_metrics_renders_total'), diffs: count('curie_dataset_diffs_computed_total') };
}

/** curie_dataset_diffs_computed_total as of now: /metrics renders at most once a second, so a later render's. */
async function diffsComputed(): Promise<number> {
  const seen = await scrape();
  const fresh = await waitFor(async () => {
    const next = await scrape();
    return next.renders > seen.renders ? next : undefined;
  }, { timeoutMs: 10_000, what: 'a metrics render after the requests' });
  return fresh.diffs;
}

beforeAll(async () => {
  t = await startRegistry('diffshare');
  // A build kept under DAY, then a registry change and the current build: two builds that differ.
  await processDatasetBuild({ db: t.db, dir: t.datasetDir, keepDated: true }, { data: { reason: 'manual', date: DAY } });
  await t.db('namespaces').where({ prefix: 'go' }).update({ name: 'Gene Ontology (renamed)' });
  await processDatasetBuild({ db: t.db, dir: t.datasetDir }, { data: { reason: 'registry-change' } });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('GET /resolutionApi/diff under concurrent requests', () => {
  it('computes a diff asked for by several requests at once only once, and gives each the same answer', async () => {
    const before = await diffsComputed();
    const answers = await Promise.all([1, 2, 3, 4].map(() => request(t.app).get('/resolutionApi/diff').query({ from: DAY, to: 'current' })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(answers[0]!.headers['content-type']).toBe('application/json; charset=utf-8');
    const { payload } = answers[0]!.body;
    expect(payload.from.version).toBe(DAY);
    expect(payload.namespaces.changed).toEqual([
      { prefix: 'go', mirId: expect.any(String), name: 'Gene Ontology (renamed)', changes: [{ field: 'name', from: 'Gene Ontology', to: 'Gene Ontology (renamed)' }] },
    ]);
    expect(await diffsComputed()).toBe(before + 1);

    const again = await request(t.app).get('/resolutionApi/diff').query({ from: DAY, to: 'current' });
    expect(again.text).toBe(answers[0]!.text);
    expect(await diffsComputed()).toBe(before + 1);
  });

  it('answers 429 with Retry-After to a client asking for a second diff while its first is being computed', async () => {
    const [first, second] = await Promise.all([
      request(t.app).get('/resolutionApi/diff').query({ from: 'current', to: DAY }),
      request(t.app).get('/resolutionApi/diff').query({ from: DAY, to: DAY }),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 429]);
    const refused = first.status === 429 ? first : second;
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.body).toEqual({
      apiVersion: '1.0',
      errorMessage: 'Too many dataset diffs from your address: at most 1 may be computed at once; send the next one when it has been answered',
      payload: null,
    });
    // Once answered, the refused one is computed as well.
    const retried = await request(t.app).get('/resolutionApi/diff').query(refused === first ? { from: 'current', to: DAY } : { from: DAY, to: DAY });
    expect(retried.status).toBe(200);
  });
});
