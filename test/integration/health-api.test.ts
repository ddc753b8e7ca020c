/**
 * The health API of the registry area (issue 12): what the link checks found about each provider, its
 * reliability by the resolver's own definition, and a summary over the registry; public and cacheable.
 */
import request from 'supertest';
import type { LinkCheckOutcome } from '../../src/db/tables.js';
import { startRegistry, type RegistryUnderTest } from '../support/areas.js';

let t: RegistryUnderTest;
beforeAll(async () => {
  t = await startRegistry('health_api');
  await t.db('link_check_runs').insert([
    { id: 'run-old', planned: 2, done: 2, startedAt: t.db.raw("now() - interval '2 days'"), finishedAt: t.db.raw("now() - interval '2 days'") },
    { id: 'run-new', planned: 2, done: 2, startedAt: t.db.raw("now() - interval '1 day'"), finishedAt: new Date('2030-01-02T03:04:05.678Z') },
    { id: 'run-open', planned: 2, done: 0 },
  ]);
  const check = (resourceId: number, urlKind: 'sample' | 'home', age: string, outcome: LinkCheckOutcome, httpStatus: number | null, runId: string | null = null) => ({
    resourceId,
    urlKind,
    url: urlKind === 'sample' ? `https://provider-${resourceId}.example.org/sample` : `https://provider-${resourceId}.example.org/`,
    runId,
    checkedAt: t.db.raw('now() - ?::interval', [age]),
    httpStatus,
    latencyMs: 120,
    finalUrl: null,
    outcome,
    detail: outcome === 'timeout' ? 'no answer within 10 s' : null,
  });
  await t.db('link_checks').insert([
    check(29, 'sample', '3 days', 'up', 200),
    check(29, 'sample', '2 days', 'timeout', null, 'run-old'),
    check(29, 'home', '2 days', 'up', 200, 'run-old'),
    check(29, 'sample', '1 day', 'up', 200, 'run-new'),
    check(29, 'home', '1 day', 'bot_blocked', 429, 'run-new'),
    check(30, 'sample', '1 day', 'not_found', 404, 'run-new'),
  ]);
  // More than the 30 listed.
  await t.db('link_checks').insert(Array.from({ length: 35 }, (_, i) => check(32, 'sample', `${10 + i} hours`, 'up', 200)));
});
afterAll(() => t.close());

describe('GET /healthApi/resources/{id}', () => {
  it('explains the state of a provider', async () => {
    const res = await request(t.app).get('/healthApi/resources/29');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(Object.keys(res.body)).toEqual(['apiVersion', 'errorMessage', 'payload']);
    const p = res.body.payload;
    expect(Object.keys(p)).toEqual([
      'resourceId', 'mirId', 'namespacePrefix', 'currentState', 'reliability', 'sampleChecks', 'lastSuccess', 'lastFailure', 'recentChecks',
    ]);
    expect(p).toMatchObject({
      resourceId: 29,
      mirId: 'MIR:00100007',
      namespacePrefix: 'taxonomy',
      currentState: {
        sample: { urlKind: 'sample', outcome: 'up', httpStatus: 200, checkedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*\+00:00$/) },
        home: { urlKind: 'home', outcome: 'bot_blocked', httpStatus: 429 },
      },
      // 2 of 3 sample checks up, by the resolver's rounding.
      reliability: 67,
      sampleChecks: { windowDays: 7, up: 2, counted: 3, notCounted: 0, notFoundStreakDays: 3, notFoundStreak: false },
      lastSuccess: { outcome: 'up', httpStatus: 200 },
      lastFailure: { urlKind: 'sample', outcome: 'timeout', httpStatus: null },
    });
    expect(p.recentChecks).toHaveLength(5);
    expect(Object.keys(p.recentChecks[0])).toEqual(['urlKind', 'url', 'checkedAt', 'outcome', 'httpStatus', 'latencyMs', 'finalUrl', 'detail', 'runId']);
    // Newest first.
    const times = (p.recentChecks as { checkedAt: string }[]).map((c) => Date.parse(c.checkedAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(p.recentChecks).toContainEqual(expect.objectContaining({ outcome: 'timeout', detail: 'no answer within 10 s', runId: 'run-old' }));
  });

  it('gives a provider without checks reliability 50 and no state', async () => {
    const res = await request(t.app).get('/healthApi/resources/31');
    expect(res.status).toBe(200);
    expect(res.body.payload).toMatchObject({
      resourceId: 31,
      currentState: { sample: null, home: null },
      reliability: 50,
      lastSuccess: null,
      lastFailure: null,
      recentChecks: [],
    });
  });

  it('lists the last 30 checks only', async () => {
    const res = await request(t.app).get('/healthApi/resources/32');
    expect(res.body.payload.recentChecks).toHaveLength(30);
    expect(res.body.payload.sampleChecks).toMatchObject({ up: 35, counted: 35 });
    expect(res.body.payload.reliability).toBe(100);
  });

  it('answers 404 in the envelope for an unknown id, 400 for one that is not a number', async () => {
    for (const id of ['999999', '99999999999999']) {
      const res = await request(t.app).get(`/healthApi/resources/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ apiVersion: '1.0', errorMessage: `No resource with id '${id}'`, payload: null });
    }
    const bad = await request(t.app).get('/healthApi/resources/abc');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ apiVersion: '1.0', errorMessage: "Resource id 'abc' is not a number", payload: null });
  });

  it('is cacheable: a public max-age, an ETag and 304 when it still holds', async () => {
    const first = await request(t.app).get('/healthApi/resources/29');
    expect(first.headers['cache-control']).toBe('public, max-age=60');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await request(t.app).get('/healthApi/resources/29').set('If-None-Match', etag);
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const other = await request(t.app).get('/healthApi/resources/29').set('If-None-Match', '"something-else"');
    expect(other.status).toBe(200);
  });
});

describe('GET /healthApi/namespaces/{prefix}', () => {
  it('gives the same for every resource of the namespace, in dataset order', async () => {
    const res = await request(t.app).get('/healthApi/namespaces/taxonomy');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.payload)).toEqual(['namespacePrefix', 'resources']);
    expect(res.body.payload.namespacePrefix).toBe('taxonomy');
    const resources = res.body.payload.resources as { resourceId: number; reliability: number }[];
    expect(resources.map((x) => x.resourceId)).toEqual([29, 30, 31, 32, 34, 35]);
    const single = await request(t.app).get('/healthApi/resources/29');
    expect(resources[0]).toEqual(single.body.payload);
    expect(resources[1]).toMatchObject({ reliability: 0, currentState: { sample: { outcome: 'not_found' } } });
    expect(res.headers.etag).toBeDefined();
  });

  it('finds the prefix in any case, and answers 404 for an unknown one', async () => {
    expect((await request(t.app).get('/healthApi/namespaces/TAXONOMY')).body.payload.namespacePrefix).toBe('taxonomy');
    const res = await request(t.app).get('/healthApi/namespaces/nosuchprefix');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ apiVersion: '1.0', errorMessage: "No namespace with prefix 'nosuchprefix'", payload: null });
  });
});

describe('GET /healthApi/summary', () => {
  it('counts the latest check of each resource and URL kind by outcome class, and says when the last run finished', async () => {
    const res = await request(t.app).get('/healthApi/summary');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.payload)).toEqual(['latestChecks', 'lastRunFinishedAt']);
    const { sample, home } = res.body.payload.latestChecks;
    expect(Object.keys(sample)).toEqual([
      'up', 'protected', 'http_error', 'not_found', 'timeout', 'dns', 'tls', 'refused', 'bot_blocked', 'redirect_loop', 'skipped',
    ]);
    expect(sample).toMatchObject({ up: 2, not_found: 1, timeout: 0 });
    expect(home).toMatchObject({ up: 0, bot_blocked: 1 });
    expect(res.body.payload.lastRunFinishedAt).toBe('2030-01-02T03:04:05.678+00:00');
    expect(res.headers['cache-control']).toBe('public, max-age=60');
  });
});
