/**
 * Link checks rank providers in the running resolver (issue 12): checks stored and announced as the
 * link-check worker does (rows in link_checks, then announceLinkChecks) change the recommendation indices
 * and the browser redirect without a restart or the periodic check; the measurements follow the definition
 * of core/reliability.ts (window, uncounted classes, the not_found streak); the insight API answers from the
 * snapshot. How soon announced checks show is bench:resolver's "announced link checks in the ranking"
 * figure, not asserted here (a bound in milliseconds fails whenever the machine is busy).
 */
import request from 'supertest';
import { announceLinkChecks } from '../../src/db/link-check-changes.js';
import { readSampleMeasurements } from '../../src/db/link-check-reads.js';
import type { LinkCheckOutcome } from '../../src/db/tables.js';
import { startResolver, type ResolverUnderTest } from '../support/areas.js';
import { waitFor } from '../support/wait.js';

let r: ResolverUnderTest;
beforeAll(async () => {
  // The periodic registry check far beyond every deadline: only the notifications can meet them.
  r = await startResolver('link_check_ranking', { checkIntervalMs: 60_000 });
  await r.db('link_check_runs').insert({ id: 'run-1', planned: 100 });
});
afterAll(() => r.close());

interface Resolved {
  id: number;
  recommendation: { recommendationIndex: number; recommendationExplanation: string };
}

async function resources(curie: string): Promise<Resolved[]> {
  const res = await request(r.app).get(`/${curie}`);
  expect(res.status).toBe(200);
  return res.body.payload.resolvedResources as Resolved[];
}

async function redirectTarget(curie: string): Promise<string> {
  const res = await request(r.app).get(`/${curie}`).set('Accept', 'text/html');
  expect(res.status).toBe(302);
  return res.headers.location as string;
}

const indexOf = (list: Resolved[], id: number) => list.find((x) => x.id === id)?.recommendation.recommendationIndex;

/** Stores sample-URL checks of one resource, `ages` apart (a Postgres interval each, e.g. '4 days'). */
async function storeChecks(resourceId: number, checks: [age: string, outcome: LinkCheckOutcome][], urlKind: 'sample' | 'home' = 'sample') {
  for (const [age, outcome] of checks) {
    await r.db('link_checks').insert({
      resourceId,
      urlKind,
      url: `https://provider-${resourceId}.example.org/sample`,
      checkedAt: r.db.raw(`now() - ?::interval`, [age]),
      outcome,
      httpStatus: outcome === 'up' ? 200 : outcome === 'not_found' ? 404 : null,
    });
  }
}

/** Announces the stored checks and waits for their effect: 5 s at most, far below the minute of the periodic check. */
async function announceAndWait(seen: () => Promise<boolean>, what: string): Promise<void> {
  await announceLinkChecks(r.db);
  await waitFor(async () => (await seen()) || undefined, { timeoutMs: 5000, what });
}

describe('ranking by measured availability', () => {
  it('ranks a failing unofficial provider below a healthy one, in the JSON and the redirect, once announced', async () => {
    // pmc's two providers, both unofficial: 20 each without history, and the first (464) wins the tie.
    await r.db('resources').where({ id: 465 }).update({ official: false });
    await waitFor(async () => indexOf(await resources('pmc:PMC3084216'), 465) === 20 || undefined, { timeoutMs: 5000, what: 'the registry change' });
    expect(await redirectTarget('pmc:PMC3084216')).toBe('https://www.ncbi.nlm.nih.gov/pmc/articles/PMC3084216/?tool=pubmed');

    await storeChecks(464, [['3 days', 'timeout'], ['2 days', 'refused'], ['1 day', 'http_error'], ['1 hour', 'timeout']]);
    await storeChecks(465, [['3 days', 'up'], ['2 days', 'up'], ['1 day', 'bot_blocked'], ['1 hour', 'up']]);
    await announceAndWait(async () => indexOf(await resources('pmc:PMC3084216'), 465) === 40, 'the new ranking');

    const list = await resources('pmc:PMC3084216');
    // Dataset order is kept; only the indices moved.
    expect(list.map((x) => x.id)).toEqual([464, 465]);
    expect(list.map((x) => x.recommendation)).toEqual([
      { recommendationIndex: 0, recommendationExplanation: 'official 0, measured availability 0 % over 7 days (4 checks), not hosted at EBI' },
      {
        recommendationIndex: 40,
        recommendationExplanation:
          'official 0, measured availability 100 % over 7 days (3 checks; 1 check blocked as a bot or skipped, not counted), not hosted at EBI',
      },
    ]);
    expect(await redirectTarget('pmc:PMC3084216')).toBe('http://europepmc.org/articles/PMC3084216');
  });

  it('never redirects to a provider whose sample URL has been not found for 3 days while another works', async () => {
    expect(await redirectTarget('ncbigene:100010')).toBe('https://www.ncbi.nlm.nih.gov/gene/100010');
    await storeChecks(240, [['4 days', 'not_found'], ['3 days', 'not_found'], ['2 days', 'not_found'], ['1 day', 'not_found'], ['1 hour', 'not_found']]);
    await announceAndWait(async () => indexOf(await resources('ncbigene:100010'), 240) === 55, 'the new ranking');

    // Official still outranks unofficial in the JSON (55 against 20), but the redirect goes to the one that works.
    const list = await resources('ncbigene:100010');
    expect(list.map((x) => [x.id, x.recommendation.recommendationIndex])).toEqual([[240, 55], [241, 20]]);
    expect(list[0]?.recommendation.recommendationExplanation).toContain('sample URL not found for 3 days in a row');
    expect(await redirectTarget('ncbigene:100010')).toBe('http://bio2rdf.org/ncbigene:100010');
    // Asking for the provider by its code still reaches it.
    expect(await redirectTarget('ncbi/ncbigene:100010')).toBe('https://www.ncbi.nlm.nih.gov/gene/100010');
  });

  it('takes the measurements up again when the registry changes', async () => {
    await r.db('resources').where({ id: 241 }).update({ description: 'renamed in a test' });
    await r.store.refreshSoon();
    expect(indexOf(await resources('ncbigene:100010'), 240)).toBe(55);
    expect(await redirectTarget('ncbigene:100010')).toBe('http://bio2rdf.org/ncbigene:100010');
  });
});

describe('the measurements', () => {
  // Resources of the sample registry, each given its own history.
  const cases: [id: number, checks: [string, LinkCheckOutcome][], expected: { up: number; counted: number; uncounted: number; notFoundStreak: boolean }][] = [
    [29, [['4 days', 'not_found'], ['2 days', 'not_found'], ['1 hour', 'not_found']], { up: 0, counted: 3, uncounted: 0, notFoundStreak: true }],
    // Not found for 2 days only.
    [30, [['2 days', 'not_found'], ['1 day', 'not_found']], { up: 0, counted: 2, uncounted: 0, notFoundStreak: false }],
    // A working check ends a streak; the new one is an hour old.
    [31, [['4 days', 'not_found'], ['2 days', 'up'], ['1 hour', 'not_found']], { up: 1, counted: 3, uncounted: 0, notFoundStreak: false }],
    // So does a timeout.
    [32, [['5 days', 'not_found'], ['4 days', 'not_found'], ['1 hour', 'timeout']], { up: 0, counted: 3, uncounted: 0, notFoundStreak: false }],
    // A bot block neither counts nor ends one.
    [34, [['4 days', 'not_found'], ['1 day', 'bot_blocked'], ['1 hour', 'not_found']], { up: 0, counted: 2, uncounted: 1, notFoundStreak: true }],
    // Checks older than 7 days are not counted; protected counts as up; skipped does not count.
    [35, [['9 days', 'up'], ['8 days', 'up'], ['2 days', 'protected'], ['1 day', 'skipped'], ['1 hour', 'up']], { up: 2, counted: 2, uncounted: 1, notFoundStreak: false }],
  ];

  it('follow the definition of core/reliability.ts', async () => {
    for (const [id, checks] of cases) await storeChecks(id, checks);
    // Home-page checks are not the provider's availability.
    await storeChecks(9, [['5 days', 'not_found'], ['1 hour', 'not_found']], 'home');
    const measurements = await readSampleMeasurements(r.db, [...cases.map(([id]) => id), 9]);
    for (const [id, , expected] of cases) expect([id, measurements.get(id)]).toEqual([id, expected]);
    expect(measurements.has(9)).toBe(false);
  });

  it('are the same read for a few resources or for all', async () => {
    const all = await readSampleMeasurements(r.db);
    const some = await readSampleMeasurements(r.db, [29, 35]);
    expect(some).toEqual(new Map([[29, all.get(29)], [35, all.get(35)]]));
    expect(await readSampleMeasurements(r.db, [])).toEqual(new Map());
  });
});

describe('the insight API', () => {
  it('answers every resource resolved with its sample id, as the reference does', async () => {
    const res = await request(r.app).get('/insightApi/get_all_sample_ids_resolved');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(Object.keys(res.body)).toEqual(['apiVersion', 'errorMessage', 'payload']);
    expect(res.body.payload.parsedCompactIdentifier).toBeNull();
    const items = res.body.payload.resolvedResources as Record<string, unknown>[];
    const total = (await r.db('resources').count<{ count: string }[]>('* as count'))[0]!.count;
    expect(items).toHaveLength(Number(total));
    const uniprotFirst = items.find((x) => x.id === 25);
    expect(uniprotFirst).toMatchObject({
      compactIdentifierResolvedUrl: 'http://purl.uniprot.org/uniprot/P0DP23',
      recommendation: { recommendationIndex: 0, recommendationExplanation: '--- default explanation ---' },
      namespacePrefix: 'uniprot',
      deprecatedNamespace: false,
      renderDeprecatedLanding: false,
    });
    // Each resource with its own sample id, deprecated ones and deprecated namespaces included.
    expect(items.find((x) => x.id === 64)).toMatchObject({
      compactIdentifierResolvedUrl: 'http://linkedlifedata.com/resource/pubmed/id/23735196',
      deprecatedResource: true,
    });
    expect(items.find((x) => x.id === 232)).toMatchObject({ namespacePrefix: '3dmet', deprecatedNamespace: true, renderDeprecatedLanding: false });
    expect(Object.keys(uniprotFirst!)).toEqual([
      'id', 'mirId', 'providerCode', 'compactIdentifierResolvedUrl', 'description', 'institution', 'location', 'official',
      'resourceHomeUrl', 'recommendation', 'namespacePrefix', 'deprecatedNamespace', 'namespaceDeprecationDate',
      'deprecatedResource', 'resourceDeprecationDate', 'renderDeprecatedLanding', 'protectedUrls', 'renderProtectedLanding',
      'authHelpUrl', 'authHelpDescription',
    ]);
  });

  it('answers get_all_home_urls the same', async () => {
    const samples = await request(r.app).get('/insightApi/get_all_sample_ids_resolved');
    const homes = await request(r.app).get('/insightApi/get_all_home_urls');
    expect(homes.status).toBe(200);
    expect(homes.text).toBe(samples.text);
  });
});
