/**
 * The scale scenario: the real dataset plus N synthetic namespaces (one resource each) in a database of its
 * own; snapshot load time, the resolver's memory, resolve JSON throughput over all namespaces, and how long
 * a registry change takes to show.
 */
import http from 'node:http';
import pg from 'pg';
import { LINK_CHECKS_CHANNEL } from '../../src/db/link-check-changes.js';
import type { DatasetNamespace } from '../../src/importer/dataset.schema.js';
import { dropDatabase, databaseUrlFor, migrateAndImport, recreateDatabase } from '../lib/database.js';
import { checkOnce, describeCheck, type CheckSummary } from '../lib/check-once.js';
import { sendRequest } from '../lib/http-client.js';
import { measureTogether, type LoadSettings, type RunFigures, type ScenarioFigures } from '../lib/load.js';
import { readMemory, startResolver, type MemoryFigures, type ServerProcess } from '../lib/server-processes.js';
import { say } from '../lib/settings.js';
import { RESOLVER_BENCH_ENV, type BenchSettings } from './settings.js';
import type { BenchRequest, WorkloadNamespace } from '../lib/workload.js';
import { buildResolveMix, resolveJsonRequests } from './workload.js';

export interface ScaleFigures {
  syntheticNamespaces: number;
  totalNamespaces: number | null;
  insertMs: number;
  snapshotLoadMs: number | null;
  resolverStartMs: number;
  memoryAfterLoad: MemoryFigures;
  memoryAfterScenario: MemoryFigures;
  requestCount: number;
  /**
   * Every request sent once before the load, as the real-dataset scenario does (so both start equally
   * warm), and checked against the status the mix expects.
   */
  check: CheckSummary & { disagreements: number };
  resolveJson: ScenarioFigures;
  /**
   * A fresh real-dataset resolver's resolve JSON, its runs taken in turn with `resolveJson`'s: both
   * resolvers have the same history (started, every request sent once, warmed up), and a change in the
   * machine's background load falls on both alike.
   */
  realPaired: ScenarioFigures;
  /** ms from the UPDATE's commit until the resolver answered with the new URL; null when not seen in 10 s. */
  visibilityMs: (number | null)[];
  /** ms from the announcement of a stored link check until the resolver's ranking explained it; null when not seen in 10 s. */
  rankingVisibilityMs: (number | null)[];
  resolverErrorLines: number;
}

const SYNTHETIC_PATTERN = '^\\d+$';
const syntheticPrefix = (n: number) => `synth${String(n).padStart(7, '0')}`;
const syntheticUrlPattern = (n: number) => `https://synth${n}.example.org/entry/{$id}`;

/** The synthetic namespaces as the workload sees them; insertSynthetic writes exactly these. */
export function syntheticNamespaces(count: number): WorkloadNamespace[] {
  return Array.from({ length: count }, (_, i) => {
    const n = i + 1;
    return {
      prefix: syntheticPrefix(n),
      pattern: SYNTHETIC_PATTERN,
      sampleId: String(n),
      namespaceEmbeddedInLui: false,
      deprecated: false,
      // Every other one has a provider code, about the real dataset's share of resources with one.
      resources: [{ providerCode: n % 2 === 0 ? 'synth' : '', sampleId: String(n), urlPattern: syntheticUrlPattern(n), deprecated: false }],
    };
  });
}

/**
 * One INSERT … SELECT generate_series for the namespaces and their resources, in one statement. The
 * registry_changes triggers stay on, as they would for any write.
 */
export async function insertSynthetic(client: pg.Client, count: number): Promise<number> {
  if (count > 9_999_999) throw new Error('at most 9,999,999 synthetic namespaces (7-digit numbering)');
  const started = performance.now();
  await client.query(
    `WITH inst AS (SELECT id, location_country_code FROM institutions ORDER BY id LIMIT 1),
     ns AS (
       INSERT INTO namespaces (prefix, mir_id, name, pattern, description, sample_id)
       SELECT 'synth' || lpad(g::text, 7, '0'), 'MIR:7' || lpad(g::text, 7, '0'), 'Synthetic namespace ' || g, $2::text,
              'A synthetic namespace of the resolver benchmark', g::text
       FROM generate_series(1, $1::int) AS g
       RETURNING id, sample_id
     )
     INSERT INTO resources (mir_id, url_pattern, name, description, official, provider_code, sample_id, resource_home_url,
                            namespace_id, institution_id, location_country_code)
     SELECT 'MIR:6' || lpad(ns.sample_id, 7, '0'), 'https://synth' || ns.sample_id || '.example.org/entry/{$id}',
            'Synthetic resource ' || ns.sample_id, 'A synthetic resource of the resolver benchmark', true,
            CASE WHEN ns.sample_id::int % 2 = 0 THEN 'synth' ELSE '' END, ns.sample_id,
            'https://synth' || ns.sample_id || '.example.org/', ns.id, inst.id, inst.location_country_code
     FROM ns CROSS JOIN inst`,
    [count, SYNTHETIC_PATTERN],
  );
  await client.query('ANALYZE namespaces, resources');
  return Math.round(performance.now() - started);
}

/** Changes one synthetic resource's URL pattern and polls the resolver until its answer carries the new URL. */
async function measureVisibility(client: pg.Client, port: number, n: number, trial: number): Promise<number | null> {
  const { rows } = await client.query<{ id: string }>(
    'SELECT r.id FROM resources r JOIN namespaces ns ON ns.id = r.namespace_id WHERE ns.prefix = $1',
    [syntheticPrefix(n)],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error(`synthetic namespace ${syntheticPrefix(n)} not found`);
  const host = `moved${trial}-${Date.now()}.example.org`;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    await client.query('UPDATE resources SET url_pattern = $1 WHERE id = $2', [`https://${host}/entry/{$id}`, id]);
    const committed = performance.now();
    while (performance.now() - committed < 10_000) {
      const answer = await sendRequest(port, { method: 'GET', path: `/${syntheticPrefix(n)}:${n}`, headers: { Accept: 'application/json' } }, agent);
      if (answer.body.includes(host)) return Math.round(performance.now() - committed);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return null;
  } finally {
    agent.destroy();
  }
}

/**
 * Stores a failing sample-URL check of one provider of a real namespace with several live providers (a lone
 * provider's recommendation says only that it is alone), announces it as the link-check worker does
 * (LINK_CHECKS_CHANNEL, its own channel beside registry_changes), and polls the resolver until that
 * namespace's answer explains the measurement: how soon link checks rank providers, the figure the
 * link-check ranking tests no longer bound. `trial` picks another namespace each time.
 */
async function measureRankingVisibility(client: pg.Client, port: number, trial: number): Promise<number | null> {
  const { rows } = await client.query<{ prefix: string; sampleId: string; resourceId: string }>(
    `SELECT ns.prefix, ns.sample_id AS "sampleId", min(r.id) AS "resourceId"
       FROM namespaces ns JOIN resources r ON r.namespace_id = ns.id AND NOT r.deprecated
      WHERE NOT ns.deprecated AND NOT ns.namespace_embedded_in_lui AND ns.sample_id IS NOT NULL
      GROUP BY ns.id HAVING count(*) > 1 ORDER BY ns.prefix`,
  );
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const candidates = rows.slice(trial - 1).filter((_, i) => i % 3 === 0);
    for (const { prefix, sampleId, resourceId } of candidates) {
      const requestPath = `/${prefix}:${encodeURIComponent(sampleId)}`;
      const before = await sendRequest(port, { method: 'GET', path: requestPath, headers: { Accept: 'application/json' } }, agent);
      if (before.status !== 200 || before.body.includes('measured availability')) continue;
      await client.query(`INSERT INTO link_checks (resource_id, url_kind, url, outcome, http_status) VALUES ($1, 'sample', $2, 'not_found', 404)`, [
        resourceId,
        `https://bench.example.org${requestPath}`,
      ]);
      await client.query('SELECT pg_notify($1, $2)', [LINK_CHECKS_CHANNEL, '']);
      const announced = performance.now();
      while (performance.now() - announced < 10_000) {
        const answer = await sendRequest(port, { method: 'GET', path: requestPath, headers: { Accept: 'application/json' } }, agent);
        if (answer.body.includes('measured availability')) return Math.round(performance.now() - announced);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return null;
    }
    throw new Error('no namespace with several live providers resolves its sample id');
  } finally {
    agent.destroy();
  }
}

export async function runScale(options: {
  settings: BenchSettings;
  load: LoadSettings;
  namespaces: DatasetNamespace[];
  /** Status each real-dataset resolve path got in the real-dataset run. */
  realExpected: Map<string, number>;
  /**
   * The real-dataset database and its resolve JSON requests: a fresh resolver on it is measured in turn
   * with the scale resolver.
   */
  real: { databaseUrl: string; requests: BenchRequest[] };
  onRun?: (target: string, run: number, figures: RunFigures) => void;
  /** Told of the resolver once started, so that an interrupted run can stop it. */
  onServer?: (server: ServerProcess) => void;
}): Promise<ScaleFigures> {
  const { settings } = options;
  const url = databaseUrlFor(settings.baseDatabaseUrl, settings.scaleDatabaseName);
  say(`scale: creating ${settings.scaleDatabaseName} with the real dataset and ${settings.scaleNamespaces.toLocaleString('en')} synthetic namespaces`);
  await recreateDatabase(settings.baseDatabaseUrl, settings.scaleDatabaseName);
  const client = new pg.Client({ connectionString: url });
  let resolver: Awaited<ReturnType<typeof startResolver>> | null = null;
  let realResolver: Awaited<ReturnType<typeof startResolver>> | null = null;
  try {
    await migrateAndImport(url, options.namespaces);
    await client.connect();
    const insertMs = await insertSynthetic(client, settings.scaleNamespaces);
    say(`scale: inserted in ${insertMs} ms; starting the resolver`);

    resolver = await startResolver({ projectRoot: settings.projectRoot, databaseUrl: url, redisUrl: settings.redisUrl, name: 'resolver (scale)', extraEnv: RESOLVER_BENCH_ENV });
    options.onServer?.(resolver);
    const memoryAfterLoad = readMemory(resolver.pid);
    say(`scale: snapshot of ${resolver.snapshotNamespaces} namespaces loaded in ${resolver.snapshotLoadMs} ms (ready after ${resolver.startMs} ms), RSS ${memoryAfterLoad.rssMb} MB`);

    const synthetic = syntheticNamespaces(settings.scaleNamespaces);
    const requests = resolveJsonRequests(buildResolveMix([...options.namespaces, ...synthetic]));
    for (const request of requests) request.expectedStatus = options.realExpected.get(request.path) ?? request.intendedStatus;
    say(`scale: sending each of the ${requests.length.toLocaleString('en')} requests once to check its status`);
    const check = await checkEvery(resolver.port, requests);
    say(`scale: ${describeCheck(check)}; ${check.disagreements} differ from the expected status`);

    say('scale: starting a fresh real-dataset resolver to measure in turn with it');
    realResolver = await startResolver({
      projectRoot: settings.projectRoot,
      databaseUrl: options.real.databaseUrl,
      redisUrl: settings.redisUrl,
      name: 'resolver (paired)',
      extraEnv: RESOLVER_BENCH_ENV,
    });
    options.onServer?.(realResolver);
    const realRequests = options.real.requests.map((r) => ({ ...r }));
    await checkOnce(realResolver.port, realRequests);
    const realName = 'real-dataset resolveJson (paired)';
    say(`scale: resolve JSON over ${requests.length.toLocaleString('en')} requests, in turn with the real-dataset resolver`);
    const pair = await measureTogether(
      [
        { name: realName, port: realResolver.port, requests: realRequests },
        { name: 'scale resolveJson', port: resolver.port, requests },
      ],
      options.load,
      options.onRun,
    );
    const resolveJson = pair['scale resolveJson']!;
    const realPaired = pair[realName]!;
    await realResolver.stop();
    realResolver = null;
    const memoryAfterScenario = readMemory(resolver.pid);

    const visibilityMs: (number | null)[] = [];
    for (let trial = 1; trial <= 3; trial++) {
      const n = Math.ceil((settings.scaleNamespaces * trial) / 4);
      visibilityMs.push(await measureVisibility(client, resolver.port, n, trial));
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    say(`scale: change visible after ${visibilityMs.join(', ')} ms`);
    const rankingVisibilityMs: (number | null)[] = [];
    for (let trial = 1; trial <= 3; trial++) {
      rankingVisibilityMs.push(await measureRankingVisibility(client, resolver.port, trial));
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    say(`scale: link checks ranking providers after ${rankingVisibilityMs.join(', ')} ms`);
    return {
      syntheticNamespaces: settings.scaleNamespaces,
      totalNamespaces: resolver.snapshotNamespaces,
      insertMs,
      snapshotLoadMs: resolver.snapshotLoadMs,
      resolverStartMs: resolver.startMs,
      memoryAfterLoad,
      memoryAfterScenario,
      requestCount: requests.length,
      check,
      resolveJson,
      realPaired,
      visibilityMs,
      rankingVisibilityMs,
      resolverErrorLines: resolver.errorLines(),
    };
  } finally {
    await resolver?.stop();
    await realResolver?.stop();
    await client.end().catch(() => undefined);
    if (!settings.keepDb) await dropDatabase(settings.baseDatabaseUrl, settings.scaleDatabaseName);
  }
}

/** Sends every request once and counts those whose status is not the one the mix expects. */
async function checkEvery(port: number, requests: BenchRequest[]): Promise<CheckSummary & { disagreements: number }> {
  const planned = requests.map((r) => r.expectedStatus);
  const { summary } = await checkOnce(port, requests);
  const disagreements = requests.filter((r, i) => r.expectedStatus !== planned[i]).length;
  return { ...summary, disagreements };
}
