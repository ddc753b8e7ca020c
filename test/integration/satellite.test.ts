/**
 * Satellite resolvers (issue 25 item 1), with real processes: an upstream registry area over a test
 * database (its dataset built once, as a worker would have), and a satellite (dist/src/satellite/main.js)
 * with no database of its own, following it. The upstream is stopped and started again on the same port to
 * show the satellite through an outage and its own restart.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import request from 'supertest';
import os from 'node:os';
import path from 'node:path';
import { startStack, type AreaStack } from '../support/areas.js';
import { freePort, spawnNode, stopProcess, type Spawned } from '../support/processes.js';
import { waitFor } from '../support/wait.js';
import { usageKeys, utcDay } from '../../src/statistics/usage-keys.js';
import { deleteUsageKeys } from '../support/usage-cleanup.js';

const LONG = 120_000;
const CURATOR_TOKEN = 'curator-token-of-the-satellite-test-0123456789';
const SATELLITE_TOKEN = 'satellite-token-of-the-satellite-test-0123456789';

interface Area {
  spawned: Spawned;
  base: string;
}

describe('a satellite resolver following an upstream registry area', () => {
  let t: AreaStack;
  let upstreamPort: number;
  let satellitePort: number;
  let snapshotDir: string;
  let upstream: Area | undefined;
  let satellite: Area | undefined;
  const days = new Set<string>();

  const stackEnv = (): Record<string, string> => ({
    DATABASE_URL: t.url,
    REDIS_URL: t.config.REDIS_URL,
    QUEUE_PREFIX: t.config.QUEUE_PREFIX,
    DATASET_DIR: t.config.DATASET_DIR,
    PUBLIC_RESOLVER_URL: t.config.PUBLIC_RESOLVER_URL,
    PUBLIC_REGISTRY_URL: t.config.PUBLIC_REGISTRY_URL,
    ROR_API_URL: 'off',
    RATE_LIMITS: 'false',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
  });

  async function startArea(entry: string, port: number, env: Record<string, string>, readyPath = '/health/ready'): Promise<Area> {
    const spawned = spawnNode(entry, env);
    const base = `http://127.0.0.1:${port}`;
    await waitFor(
      async () => {
        if (spawned.child.exitCode !== null) throw new Error(`${entry} exited: ${spawned.output()}`);
        return (await fetch(`${base}${readyPath}`).catch(() => null))?.status === 200;
      },
      { timeoutMs: 60_000, what: `${entry} starting` },
    );
    return { spawned, base };
  }

  const startUpstream = () =>
    startArea('dist/src/registry/main.js', upstreamPort, { ...stackEnv(), REGISTRY_PORT: String(upstreamPort), CURATOR_TOKEN, SATELLITE_TOKEN });

  // The satellite is given no database and no Redis: nothing of the stack but the upstream's address.
  const startSatellite = () =>
    startArea('dist/src/satellite/main.js', satellitePort, {
      HOST: '127.0.0.1',
      RESOLVER_PORT: String(satellitePort),
      PUBLIC_RESOLVER_URL: t.config.PUBLIC_RESOLVER_URL,
      PUBLIC_REGISTRY_URL: t.config.PUBLIC_REGISTRY_URL,
      SATELLITE_UPSTREAM_URL: `http://127.0.0.1:${upstreamPort}`,
      SATELLITE_TOKEN,
      SATELLITE_POLL_INTERVAL_MS: '300',
      // Short, so that checks stored in the test show within seconds (5 minutes by default, as the resolvers').
      SATELLITE_MEASUREMENT_INTERVAL_MS: '500',
      SATELLITE_SNAPSHOT_DIR: snapshotDir,
      USAGE_FLUSH_INTERVAL_MS: '300',
      LOG_LEVEL: 'warn',
    }, '/health/live');

  const resolve = async (curie: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${satellite!.base}/${curie}`, { headers });
    return { status: res.status, body: (await res.json()) as { payload: { resolvedResources: { description: string; mirId: string }[] } } };
  };
  const ready = async () => {
    const res = await fetch(`${satellite!.base}/health/ready`);
    return { status: res.status, body: (await res.json()) as { payload: { status: string; reason?: string; checks: Record<string, string> } } };
  };
  const patchResource = async (id: number, description: string) => {
    const res = await fetch(`${upstream!.base}/restApi/resources/${id}`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${CURATOR_TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ description }),
    });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  };
  /** A browser's request: the redirect target and entity tag. */
  const browse = async (curie: string) => {
    const res = await fetch(`${satellite!.base}/${curie}`, { headers: { Accept: 'text/html' }, redirect: 'manual' });
    await res.arrayBuffer();
    return { status: res.status, location: res.headers.get('location'), etag: res.headers.get('etag') };
  };
  /** What pmc:PMC3084216 answers once link checks demoted its official provider (the ranking test sets it). */
  let demoted: { json: string; etag: string | null; location: string | null } | undefined;
  const descriptionsOf = async (curie: string) => (await resolve(curie)).body.payload.resolvedResources.map((r) => r.description);

  beforeAll(async () => {
    t = await startStack('satellite', { dataset: 'built' });
    snapshotDir = await mkdtemp(path.join(os.tmpdir(), 'satellite-snapshot-'));
    upstreamPort = await freePort();
    satellitePort = await freePort();
    upstream = await startUpstream();
    satellite = await startSatellite();
  }, LONG);

  afterAll(async () => {
    await stopProcess(satellite?.spawned);
    await stopProcess(upstream?.spawned);
    // Usage counters (and the satellite's batch ids) are keyed by day, not by queue prefix.
    if (t) await deleteUsageKeys(t.redis, days);
    await rm(snapshotDir, { recursive: true, force: true });
    await t?.close();
  }, LONG);

  it('answers a resolution from the upstream registry, as the resolver would, and is ready', async () => {
    const { status, body } = await resolve('GO:0006915');
    expect(status).toBe(200);
    expect(body.payload.resolvedResources.length).toBeGreaterThan(0);
    // The same bytes and entity tags as a resolver over the upstream's database: found, by synonym, by MIR id,
    // deprecated, a LUI made canonical, failures.
    const { koa } = await t.resolverApp();
    const resolver = koa.callback();
    for (const curie of ['GO:0006915', 'taxonomy:9606', 'ncbitaxon:9606', 'MIR:00000006', '3dmet:B00162', 'chebi:chebi:36927', 'ncbi/taxonomy:9606', 'nope:1', 'taxonomy:abc']) {
      const fromSatellite = await fetch(`${satellite!.base}/${curie}`);
      const fromResolver = await request(resolver).get(`/${curie}`);
      expect({ curie, status: fromSatellite.status, etag: fromSatellite.headers.get('etag'), body: await fromSatellite.text() }).toEqual({
        curie,
        status: fromResolver.status,
        etag: fromResolver.headers.etag ?? null,
        body: fromResolver.text,
      });
    }
    // The MCP tool that reads past the snapshot (the description) answers as the resolver's does.
    const describe = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'describeNamespace', arguments: { prefix: 'taxonomy' } } });
    const mcpHeaders = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    const fromSatellite = await fetch(`${satellite!.base}/mcp`, { method: 'POST', headers: mcpHeaders, body: describe });
    const fromResolver = await request(resolver).post('/mcp').set(mcpHeaders).send(describe);
    const satelliteText = await fromSatellite.text();
    expect(satelliteText).toContain('The taxonomy contains the relationships between all living forms');
    expect({ status: fromSatellite.status, text: satelliteText }).toEqual({ status: fromResolver.status, text: fromResolver.text });

    const health = await ready();
    expect(health.status).toBe(200);
    expect(health.body.payload).toEqual({ status: 'ok', checks: { upstream: 'ok' } });

    // Provider metadata needs a worker, which a satellite has not: a 404 saying so, not a resolution failure.
    const metadata = await fetch(`${satellite!.base}/metadataApi/getMetadataFor/GO:0006915`);
    expect([metadata.status, ((await metadata.json()) as { errorMessage: string }).errorMessage]).toEqual([
      404,
      'Provider metadata is not served by this satellite resolver (it has no worker to fetch pages); ask the main resolvers',
    ]);
  });

  it("shows a curator's change on the upstream within seconds", async () => {
    const description = 'ORCID described again on the upstream, for its satellite';
    expect(await descriptionsOf('orcid:0000-0002-5355-2576')).not.toContain(description);
    await patchResource(1102, description);
    await waitFor(async () => (await descriptionsOf('orcid:0000-0002-5355-2576')).includes(description), {
      timeoutMs: 10_000,
      what: 'the change on the satellite',
    });
  }, LONG);

  it("ranks providers by the upstream's link checks within seconds, as a resolver over its database does", async () => {
    days.add(utcDay(new Date()));
    const curie = 'pmc:PMC3084216';
    const before = await browse(curie);
    expect(before.status).toBe(302);
    // As the link-check worker stores them: the sample URL of pmc's official provider (465, the redirect target)
    // not found for 4 days (a failing provider, never the redirect target while another works), the other (464) working.
    await t.db('link_check_runs').insert({ id: 'satellite-run', planned: 2 });
    const check = (resourceId: number, age: string, outcome: 'up' | 'not_found') => ({
      resourceId,
      urlKind: 'sample' as const,
      url: `https://provider-${resourceId}.example.org/sample`,
      checkedAt: t.db.raw('now() - ?::interval', [age]),
      outcome,
      httpStatus: outcome === 'up' ? 200 : 404,
    });
    await t.db('link_checks').insert([check(465, '4 days', 'not_found'), check(465, '1 hour', 'not_found'), check(464, '4 days', 'up'), check(464, '1 hour', 'up')]);

    // A resolver started now reads the measurements at its start.
    const { koa } = await t.resolverApp();
    const resolver = koa.callback();
    const fromResolver = await request(resolver).get(`/${curie}`).set('Accept', 'text/html');
    expect(fromResolver.status).toBe(302);
    expect(fromResolver.headers.location).not.toBe(before.location);
    await waitFor(async () => (await browse(curie)).location === fromResolver.headers.location, {
      timeoutMs: 15_000,
      what: 'the satellite redirecting past the failing provider',
    });
    const browsed = await browse(curie);
    expect(browsed).toEqual({ status: 302, location: fromResolver.headers.location, etag: fromResolver.headers.etag ?? null });
    expect(browsed.etag).not.toBe(before.etag);
    // The same JSON bytes and entity tags: the recommendation indices and explanations moved alike.
    for (const c of [curie, 'GO:0006915']) {
      const fromSatellite = await fetch(`${satellite!.base}/${c}`);
      const json = await request(resolver).get(`/${c}`);
      expect({ c, status: fromSatellite.status, etag: fromSatellite.headers.get('etag'), body: await fromSatellite.text() }).toEqual({
        c,
        status: json.status,
        etag: json.headers.etag ?? null,
        body: json.text,
      });
    }
    // A namespace patched from the change feed is ranked by them too.
    await patchResource(464, 'PubMed Central, the free archive of full-text articles, described again beside its link checks');
    const same = async () => {
      const [s, r] = [await fetch(`${satellite!.base}/${curie}`), await request(resolver).get(`/${curie}`)];
      const text = await s.text();
      return text.includes('described again beside its link checks') && text === r.text && s.headers.get('etag') === r.headers.etag;
    };
    await waitFor(same, { timeoutMs: 15_000, what: 'the patched namespace ranked alike on the satellite and the resolver' });
    const fromSatellite = await fetch(`${satellite!.base}/${curie}`);
    demoted = { json: await fromSatellite.text(), etag: fromSatellite.headers.get('etag'), location: browsed.location };
    expect(demoted.json).toContain('measured availability 0 % over 7 days (2 checks)');
  }, LONG);

  it('keeps answering while the upstream is down, degraded, and after its own restart serves from disk', async () => {
    await stopProcess(upstream?.spawned);
    upstream = undefined;
    // The dependency checks are shared for up to a second (http/health.ts): both the verdict and the check, then.
    await waitFor(
      async () => {
        const { payload } = (await ready()).body;
        return payload.status === 'degraded' && payload.checks.upstream !== 'ok';
      },
      { timeoutMs: 10_000, what: 'the satellite saying degraded' },
    );
    const health = await ready();
    expect(health.status).toBe(200);
    expect(health.body.payload.reason).toMatch(/upstream/);
    expect(health.body.payload.checks.upstream).toMatch(/^failing: /);
    expect((await resolve('GO:0006915')).status).toBe(200);

    await stopProcess(satellite?.spawned);
    satellite = await startSatellite();
    expect((await resolve('GO:0006915')).status).toBe(200);
    expect(await descriptionsOf('orcid:0000-0002-5355-2576')).toContain('ORCID described again on the upstream, for its satellite');
    expect((await ready()).body.payload.status).toBe('degraded');
    // Ranked by the measurements saved with the snapshot: the same answer, redirect and entity tag as before.
    const fromSatellite = await fetch(`${satellite!.base}/pmc:PMC3084216`);
    expect({ json: await fromSatellite.text(), etag: fromSatellite.headers.get('etag'), location: (await browse('pmc:PMC3084216')).location }).toEqual(demoted);
  }, LONG);

  it('catches up with a change made meanwhile once the upstream is back', async () => {
    // Made in the database while no registry area runs: the change feed has it all the same.
    const description = 'ORCID described while the satellite could not see its upstream';
    await t.db('resources').where({ id: 1102 }).update({ description });
    upstream = await startUpstream();
    await waitFor(async () => (await descriptionsOf('orcid:0000-0002-5355-2576')).includes(description), {
      timeoutMs: 15_000,
      what: 'the change made meanwhile on the satellite',
    });
    await waitFor(async () => (await ready()).body.payload.status === 'ok', { timeoutMs: 10_000, what: 'the satellite ready again' });
  }, LONG);

  it("counts its resolutions in the upstream's statistics", async () => {
    const today = utcDay(new Date());
    days.add(today);
    const statistics = async () => {
      const res = await fetch(`${upstream!.base}/statistics/namespace/taxonomy?period=day&from=${today}&to=${today}`);
      return ((await res.json()) as { payload: { nb_visits: number; nb_uniq_visitors: number }[] }).payload[0]!;
    };
    const before = await statistics();
    for (const agent of ['satellite-test-a', 'satellite-test-a', 'satellite-test-b']) {
      expect((await resolve('taxonomy:9606', { 'User-Agent': agent })).status).toBe(200);
    }
    // DNT: 1 is never counted, on a satellite as on a resolver.
    expect((await resolve('taxonomy:9606', { DNT: '1' })).status).toBe(200);
    await waitFor(async () => (await statistics()).nb_visits - before.nb_visits === 3, { timeoutMs: 15_000, what: 'the visits upstream' });
    const after = await statistics();
    expect(after.nb_uniq_visitors - before.nb_uniq_visitors).toBe(2);
  }, LONG);

  it('loads the dataset again when the feed does not know its cursor, and catches up from the dataset\'s own', async () => {
    // A curator setting the dataset file does not carry: it comes with the overrides (and the feed).
    await t.db('namespaces').where({ prefix: 'pdb' }).update({ suffixPassthrough: true });
    await stopProcess(satellite?.spawned);
    const file = path.join(snapshotDir, 'snapshot.json');
    const saved = JSON.parse(await readFile(file, 'utf8')) as { cursor: string };
    // No namespaces either: what it serves next can only come from the dataset and the feed after it.
    await writeFile(file, JSON.stringify({ ...saved, cursor: 'not-a-cursor-of-this-feed', namespaces: [] }));
    satellite = await startSatellite();
    // The dataset was built before every change of this file: the feed from its X-Registry-Change-Cursor brings them.
    await waitFor(async () => ((await resolve('orcid:0000-0002-5355-2576')).body.payload?.resolvedResources ?? []).some((r) => r.description === 'ORCID described while the satellite could not see its upstream'), {
      timeoutMs: 15_000,
      what: 'the satellite caught up after loading the dataset again',
    });
    await waitFor(async () => (JSON.parse(await readFile(file, 'utf8')) as { cursor: string }).cursor !== 'not-a-cursor-of-this-feed', {
      timeoutMs: 10_000,
      what: 'a cursor of the feed saved again',
    });
    expect((await ready()).body.payload.status).toBe('ok');
    const { koa } = await t.resolverApp();
    // pmc: the dataset loaded again is ranked by the link checks, as the resolver's snapshot.
    for (const curie of ['pdb:2gc4/assembly/1', 'pdb:2gc4', 'orcid:0000-0002-5355-2576', 'pmc:PMC3084216']) {
      const fromSatellite = await fetch(`${satellite!.base}/${curie}`);
      const fromResolver = await request(koa.callback()).get(`/${curie}`);
      expect({ curie, status: fromSatellite.status, body: await fromSatellite.text() }).toEqual({ curie, status: fromResolver.status, body: fromResolver.text });
    }
    expect((await fetch(`${satellite!.base}/pdb:2gc4/assembly/1`)).status).toBe(200);
  }, LONG);

  it('loads the dataset again when the upstream has another database than its snapshot came from', async () => {
    await stopProcess(satellite?.spawned);
    const file = path.join(snapshotDir, 'snapshot.json');
    const saved = JSON.parse(await readFile(file, 'utf8')) as { databaseId: string };
    expect(saved.databaseId).toMatch(/^\d+$/);
    // A valid cursor, but of another registry (a restored database): only X-Registry-Database tells.
    await writeFile(file, JSON.stringify({ ...saved, databaseId: 'another-database', namespaces: [] }));
    satellite = await startSatellite();
    await waitFor(
      async () => {
        const { status, body } = await resolve('orcid:0000-0002-5355-2576');
        return status === 200 && body.payload.resolvedResources.some((r) => r.description === 'ORCID described while the satellite could not see its upstream');
      },
      { timeoutMs: 15_000, what: 'the dataset loaded again, and the feed after it' },
    );
    await waitFor(async () => (JSON.parse(await readFile(file, 'utf8')) as { databaseId: string }).databaseId === saved.databaseId, {
      timeoutMs: 10_000,
      what: 'the database saved again',
    });
  }, LONG);

  describe('the satellite API of the registry area', () => {
    const api = (pathAndQuery: string, init: RequestInit & { token?: string | null } = {}) => {
      const { token = SATELLITE_TOKEN, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (token !== null) headers.set('Authorization', `Bearer ${token}`);
      return fetch(`${upstream!.base}/satelliteApi${pathAndQuery}`, { ...rest, headers });
    };
    const errorOf = async (res: Response) => ((await res.json()) as { errorMessage: string }).errorMessage;
    const usage = (body: unknown) => api('/usage', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

    it('refuses a request without the satellite token, or with another', async () => {
      const without = await api('/namespaces?ids=1', { token: null });
      expect(without.status).toBe(401);
      expect(without.headers.get('www-authenticate')).toBe('Bearer realm="satellite"');
      expect(await errorOf(without)).toMatch(/SATELLITE_TOKEN/);
      const wrong = await api('/usage', { token: CURATOR_TOKEN, method: 'POST', body: '{}' });
      expect(wrong.status).toBe(401);
      expect(await errorOf(wrong)).toMatch(/not the satellite token/);
    });

    it('gives the link-check measurements the resolvers rank by, one entry per checked resource', async () => {
      const res = await api('/measurements');
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const { payload } = (await res.json()) as { payload: { measurements: number[][] } };
      expect(payload.measurements).toEqual(expect.arrayContaining([[464, 2, 2, 0, 0], [465, 0, 2, 0, 1]]));
      expect((await api('/measurements', { token: null })).status).toBe(401);
    });

    it('gives the namespaces asked for, and says which it does not have', async () => {
      const res = await api('/namespaces?ids=999999,1');
      expect(res.status).toBe(200);
      const { payload } = (await res.json()) as { payload: { registryVersion: number; namespaces: { id: number; prefix: string }[]; missing: number[] } };
      expect(payload.missing).toEqual([999999]);
      expect(payload.registryVersion).toBeGreaterThan(0);
      expect(payload.namespaces.map((n) => n.id)).toEqual(payload.namespaces.length ? [1] : []);
    });

    it.each([
      ['', /'ids' is required/],
      ['?ids=a,b', /comma-separated namespace ids/],
      ['?ids=0', /from 1 to/],
      [`?ids=${Array.from({ length: 201 }, (_, i) => i + 1).join(',')}`, /more than 200/],
    ])('answers 400 to namespaces%s', async (query, message) => {
      const res = await api(`/namespaces${query}`);
      expect(res.status).toBe(400);
      expect(await errorOf(res)).toMatch(message);
    });

    it.each([
      [{ entries: [] }, /needs 'batchId'/],
      [{ batchId: 'short', entries: [] }, /'batchId' must be 16 to 64/],
      [{ batchId: 'b'.repeat(20), entries: [{ day: '2020-01-01', prefix: 'go', visits: 1, visitors: [] }] }, /within the last 30 days/],
      [{ batchId: 'b'.repeat(20), entries: [{ day: '2026-02-30', prefix: 'go', visits: 1, visitors: [] }] }, /not a real date/],
      [{ batchId: 'b'.repeat(20), entries: [{ day: utcDay(new Date()), prefix: 'go', visits: -1, visitors: [] }] }, /visits/],
      [{ batchId: 'b'.repeat(20), entries: [{ day: utcDay(new Date()), prefix: 'go', visits: 1, visitors: ['1.2.3.4'] }] }, /visitor hash/],
      [{ batchId: 'b'.repeat(20), entries: Array.from({ length: 2001 }, () => ({ day: utcDay(new Date()), prefix: 'go', visits: 1, visitors: [] })) }, /more than 2000/],
    ])('answers 400 to a malformed usage batch (%#)', async (body, message) => {
      const res = await usage(body);
      expect(res.status).toBe(400);
      expect(await errorOf(res)).toMatch(message);
    });

    it('answers 413 to a usage body over its limit, and 415 to one that is not JSON', async () => {
      const big = await usage({ batchId: 'c'.repeat(20), entries: [], padding: 'x'.repeat(600 * 1024) });
      expect(big.status).toBe(413);
      const text = await api('/usage', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'visits' });
      expect(text.status).toBe(415);
    });

    it('counts a batch once however often it is sent, and ignores unknown prefixes', async () => {
      const today = utcDay(new Date());
      days.add(today);
      const batch = { batchId: `retry-${Date.now()}-abcdef`, entries: [{ day: today, prefix: 'chebi', visits: 4, visitors: ['A'.repeat(22)] }, { day: today, prefix: 'no-such-prefix', visits: 9, visitors: [] }] };
      const visits = async () => Number((await t.redis.hget(usageKeys.visits(today), 'chebi')) ?? 0);
      const before = await visits();
      const first = await usage(batch);
      expect(first.status).toBe(200);
      expect(((await first.json()) as { payload: unknown }).payload).toEqual({ batchId: batch.batchId, counted: true, duplicate: false, entries: 2, ignored: 1 });
      const again = await usage(batch);
      expect(((await again.json()) as { payload: { duplicate: boolean } }).payload.duplicate).toBe(true);
      expect((await visits()) - before).toBe(4);
      expect(await t.redis.hget(usageKeys.visits(today), 'no-such-prefix')).toBeNull();
    });
  });
});
