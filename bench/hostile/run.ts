/**
 * `npm run bench:hostile`: every documented route of both areas attacked with its costliest and its refused
 * requests, one route at a time, while a probe process measures what an ordinary client gets meanwhile
 * (issue 21: no request may cost the service more than a small, known amount of work). Writes
 * bench/results/hostile.json and bench/results/hostile.md. See report.ts for what is measured and judged.
 *
 * Settings (environment): HOSTILE_WINDOW_MS (flood per route, default 1500), HOSTILE_ROUTES (a regular
 * expression on `area METHOD /path`: only those routes), HOSTILE_CONNECTIONS (default 6),
 * HOSTILE_TIMEOUT_MS (default 30000), HOSTILE_STRICT=1 (exit 1 when a route misses a target; by default the
 * run only reports), and the shared ones: REGISTRY_DATASET, BENCH_REDIS_DB, BENCH_KEEP_DB.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createDb, migrateToLatest } from '../../src/db/knex.js';
import { runRecordedBuild } from '../../src/dataset/dataset-builds.js';
import { SAMPLE_REGISTRY_FILE, seedSampleRegistryIfEmpty } from '../../src/importer/seed-sample.js';
import type { DatasetNamespace } from '../../src/importer/dataset.schema.js';
import { utcDay } from '../../src/statistics/usage-keys.js';
import { RESOLVER_NODE_FLAGS } from '../../src/resolver/node-flags.js';
import { databaseUrlFor, dropDatabase, migrateAndImport, readBenchDataset, recreateDatabase } from '../lib/database.js';
import { sendRequest } from '../lib/http-client.js';
import { clearUsageCounters, removeQueueKeys } from '../lib/redis.js';
import { beginResults } from '../lib/results.js';
import { readMemory, startNodeService, type NodeServiceProcess } from '../lib/server-processes.js';
import { say } from '../lib/settings.js';
import { runSuite, type SuiteRun } from '../lib/suite.js';
import { attackRoute, sendEachAlone } from './attack.js';
import { cpuShareSince, markCpu } from './cpu-share.js';
import type { CaseContext } from './case-derivation.js';
import { loopMonitorFlags, readLoopDelay } from './loop-delay.js';
import type { Area, OpenApiDocumentLike } from './openapi-operations.js';
import { epochNow, startProbe, type ProbeProcess } from './probe-client.js';
import type { ProbeFigures } from './probe.js';
import { attackStatuses, judgeRoute, notableAlone, markdownReport, textReport, type HostileResults, type LoopFigures, type RouteResult } from './report.js';
import { ROUTE_CASES } from './route-cases.js';
import { planRoutes, routeName } from './route-plan.js';
import { readHostileSettings, type HostileSettings } from './settings.js';

const PROBE_RESOLVER_ADDRESSES = ['127.0.0.2'];
// Three addresses in turn keep the probe's reads under the registry's per-address browse limit.
const PROBE_REGISTRY_ADDRESSES = ['127.0.0.2', '127.0.0.3', '127.0.0.4'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Route n's attacker: a loopback address no probe and no other route uses, so each starts with fresh rate limits. */
const attackerAddress = (n: number) => `127.1.${Math.floor(n / 250)}.${(n % 250) + 1}`;

/** The dataset to import: REGISTRY_DATASET, or the sample registry when that file is absent. */
async function loadRegistry(settings: HostileSettings, databaseUrl: string): Promise<{ namespaces: DatasetNamespace[]; described: HostileResults['dataset']; importMs: number }> {
  if (existsSync(settings.datasetPath)) {
    const { namespaces, described } = await readBenchDataset(settings.datasetPath);
    say(`importing ${namespaces.length} namespaces into ${settings.databaseName}`);
    const { importMs } = await migrateAndImport(databaseUrl, namespaces);
    return { namespaces, described, importMs };
  }
  say(`${settings.datasetPath} is absent: the sample registry is loaded instead`);
  const { namespaces, described } = await readBenchDataset(SAMPLE_REGISTRY_FILE);
  const db = createDb(databaseUrl, { max: 2 });
  try {
    await migrateToLatest(db);
    const started = performance.now();
    await seedSampleRegistryIfEmpty(db);
    return { namespaces, described, importMs: Math.round(performance.now() - started) };
  } finally {
    await db.destroy();
  }
}

/**
 * The namespaces whose refused LUIs the suffix-passthrough cases send (route-cases.ts) get the flag a curator
 * would set (off by default, the path would not run otherwise): ncbiprotein, whose pattern runs on the
 * linear-time engine, and the one the cases' resolving identifier names.
 */
const SUFFIX_PASSTHROUGH_PREFIXES = ['ncbiprotein', 'taxonomy'];

async function enableSuffixPassthrough(databaseUrl: string): Promise<void> {
  const db = createDb(databaseUrl, { max: 1 });
  try {
    await db('namespaces').whereIn('prefix', SUFFIX_PASSTHROUGH_PREFIXES).update({ suffixPassthrough: true });
  } finally {
    await db.destroy();
  }
}

/** The resolver dataset, built once as the worker would, so that the dataset routes serve real files. */
async function buildResolverDataset(databaseUrl: string, dir: string): Promise<number> {
  const db = createDb(databaseUrl, { max: 4 });
  try {
    const started = performance.now();
    await runRecordedBuild(db, { db, dir, reason: 'nightly', force: true, worker: `hostile-benchmark:${process.pid}` });
    return Math.round(performance.now() - started);
  } finally {
    await db.destroy();
  }
}

/** Records of the loaded registry the cases name: a resolving identifier, a namespace, a resource and its institution. */
async function caseContext(databaseUrl: string, namespaces: DatasetNamespace[]): Promise<CaseContext> {
  const withSample = namespaces.filter((ns) => ns.sampleId);
  const preferred = withSample.find((ns) => ns.prefix === 'taxonomy') ?? withSample[0];
  if (!preferred) throw new Error('the registry has no namespace with a sample id to resolve');
  const prefix = namespaces.some((ns) => ns.prefix === 'go') ? 'go' : preferred.prefix;
  const db = createDb(databaseUrl, { max: 1 });
  try {
    const namespace = await db('namespaces').where({ prefix }).first('id');
    if (!namespace) throw new Error(`namespace ${prefix} was not imported`);
    const resource = await db('resources').where({ namespaceId: namespace.id }).orderBy('id').first('id', 'institutionId');
    return {
      curie: `${preferred.prefix}:${preferred.sampleId}`,
      prefix,
      namespaceId: Number(namespace.id),
      resourceId: Number(resource?.id ?? 1),
      institutionId: Number(resource?.institutionId ?? 1),
      curies: withSample.slice(0, 1000).map((ns) => `${ns.prefix}:${ns.sampleId}`),
    };
  } finally {
    await db.destroy();
  }
}

async function readOpenApi(service: NodeServiceProcess): Promise<OpenApiDocumentLike> {
  const answer = await sendRequest(service.port, { method: 'GET', path: '/openapi.json', headers: { Accept: 'application/json' } });
  if (answer.status !== 200) throw new Error(`${service.name}: GET /openapi.json answered ${answer.status}`);
  return JSON.parse(answer.body) as OpenApiDocumentLike;
}

async function readLoops(areas: Record<Area, NodeServiceProcess>): Promise<Record<Area, LoopFigures>> {
  const [resolver, registry] = await Promise.all([readLoopDelay(areas.resolver), readLoopDelay(areas.registry)]);
  return { resolver: { maxMs: resolver.maxMs, busyMaxMs: resolver.busyMaxMs }, registry: { maxMs: registry.maxMs, busyMaxMs: registry.busyMaxMs } };
}

const worstLoop = (readings: LoopFigures[]): LoopFigures => ({
  maxMs: Math.max(...readings.map((r) => r.maxMs)),
  busyMaxMs: Math.max(...readings.map((r) => r.busyMaxMs)),
});

const probeWindow = async (probe: ProbeProcess, from: number, to: number) => (await probe.window(from, to)) as Record<Area, ProbeFigures>;

async function removeBenchData(settings: HostileSettings, datasetDir: string, days: Set<string>): Promise<void> {
  if (!settings.keepDb) await dropDatabase(settings.baseDatabaseUrl, settings.databaseName);
  const removed = await removeQueueKeys(settings.redisUrl, settings.queuePrefix);
  if (removed > 0) say(`removed ${removed} Redis keys under ${settings.queuePrefix}:`);
  await clearUsageCounters(settings.redisUrl, [...days]);
  await rm(datasetDir, { recursive: true, force: true });
}

async function measureHostile(run: SuiteRun): Promise<HostileResults> {
  const settings = readHostileSettings();
  const begun = beginResults(settings.projectRoot);
  const databaseUrl = databaseUrlFor(settings.baseDatabaseUrl, settings.databaseName);
  const datasetDir = await mkdtemp(path.join(os.tmpdir(), 'curie-hostile-dataset-'));
  // The resolver counts usage per UTC day: the days the run touched are cleared afterwards.
  const days = new Set([utcDay(new Date())]);
  run.cleanup = () => removeBenchData(settings, datasetDir, days.add(utcDay(new Date())));

  await recreateDatabase(settings.baseDatabaseUrl, settings.databaseName);
  const { namespaces, described, importMs } = await loadRegistry(settings, databaseUrl);
  await enableSuffixPassthrough(databaseUrl);
  const datasetBuildMs = await buildResolverDataset(databaseUrl, datasetDir);
  say(`imported in ${importMs} ms, dataset built in ${datasetBuildMs} ms`);

  const areaSettings: Record<string, string> = {
    QUEUE_PREFIX: settings.queuePrefix,
    DATASET_DIR: datasetDir,
    // A curator token exists, as in production, so that the curator routes check credentials; nobody sends it.
    CURATOR_TOKEN: randomBytes(24).toString('hex'),
    // The satellite API too is on, behind a token nobody sends.
    SATELLITE_TOKEN: randomBytes(24).toString('hex'),
    // Never the real ROR API: traffic stays on loopback.
    ROR_API_URL: 'off',
    // No worker runs (it would fetch the URLs the cases name), so a URL check only waits: not work, just time.
    URL_CHECK_WAIT_MS: '1000',
    // The same for provider metadata: a lookup waits 1 s for the absent worker, then answers 202 (or 503
    // once MAX_QUEUED_FETCHES pages wait), which is the bound this measures.
    METADATA_WAIT_MS: '1000',
  };
  const shown = { ...areaSettings, CURATOR_TOKEN: '(random)', SATELLITE_TOKEN: '(random)', DATASET_DIR: '(temporary)' };
  const monitor = loopMonitorFlags(settings.projectRoot);
  const common = { projectRoot: settings.projectRoot, databaseUrl, redisUrl: settings.redisUrl, extraEnv: areaSettings };
  const registry = await startNodeService({ ...common, entry: 'dist/src/registry/main.js', portSetting: 'REGISTRY_PORT', name: 'registry', nodeFlags: monitor });
  run.servers.push(registry);
  const resolver = await startNodeService({
    ...common,
    entry: 'dist/src/resolver/main.js',
    portSetting: 'RESOLVER_PORT',
    name: 'resolver',
    nodeFlags: [...RESOLVER_NODE_FLAGS, ...monitor],
  });
  run.servers.push(resolver);
  const areas: Record<Area, NodeServiceProcess> = { resolver, registry };
  say(`resolver on ${resolver.port} (${resolver.startMs} ms), registry on ${registry.port} (${registry.startMs} ms)`);

  const documents = { resolver: await readOpenApi(resolver), registry: await readOpenApi(registry) };
  const ctx = await caseContext(databaseUrl, namespaces);
  const plan = planRoutes(documents, ctx, ROUTE_CASES);
  if (plan.unknownHandKeys.length > 0) throw new Error(`bench/hostile/route-cases.ts names routes no document has: ${plan.unknownHandKeys.join(', ')}`);
  if (plan.uncovered.length > 0) throw new Error(`documented routes without a hostile case (teach bench/hostile/case-derivation.ts or add them to route-cases.ts): ${plan.uncovered.join(', ')}`);
  const selected = plan.routes.filter((r) => !settings.routes || settings.routes.test(routeName(r.operation)));
  const caseCount = selected.reduce((sum, r) => sum + r.cases.length, 0);
  say(`${plan.routes.length} documented operations, ${selected.length} to attack with ${caseCount} cases, ${settings.windowMs} ms each`);

  const probePaths = { resolver: `/${ctx.curie}`, registry: `/restApi/namespaces/search/findByPrefix?prefix=${ctx.prefix}` };
  const probe: ProbeProcess = await startProbe(settings.projectRoot, [
    { name: 'resolver', port: resolver.port, paths: [probePaths.resolver], perSecond: settings.probeResolverPerSecond, addresses: PROBE_RESOLVER_ADDRESSES },
    { name: 'registry', port: registry.port, paths: [probePaths.registry], perSecond: settings.probeRegistryPerSecond, addresses: PROBE_REGISTRY_ADDRESSES },
  ]);
  run.servers.push({ name: 'probe', pid: probe.pid, port: 0, startMs: 0, stop: probe.stop });

  const results: HostileResults = {
    ...begun,
    dataset: described,
    settings: {
      windowMs: settings.windowMs,
      connections: settings.connections,
      timeoutMs: settings.timeoutMs,
      routes: settings.routes?.source ?? null,
      strict: settings.strict,
      redisUrl: settings.redisUrl,
      queuePrefix: settings.queuePrefix,
      areaSettings: shown,
    },
    setup: { importMs, datasetBuildMs, resolverStartMs: resolver.startMs, registryStartMs: registry.startMs },
    probe: {
      resolver: { path: probePaths.resolver, perSecond: settings.probeResolverPerSecond, addresses: PROBE_RESOLVER_ADDRESSES },
      registry: { path: probePaths.registry, perSecond: settings.probeRegistryPerSecond, addresses: PROBE_REGISTRY_ADDRESSES },
    },
    operations: {
      resolver: plan.routes.filter((r) => r.operation.area === 'resolver').length,
      registry: plan.routes.filter((r) => r.operation.area === 'registry').length,
      attacked: selected.length,
      cases: caseCount,
    },
    routes: [],
  };

  // The probe's first second, and a window with no attack at all: the machine's noise floor.
  await sleep(1000);
  await readLoops(areas);
  const benchmarkPids = [resolver.pid, registry.pid, probe.pid, process.pid];
  const quietFrom = epochNow();
  const quietCpu = markCpu(benchmarkPids);
  await sleep(settings.windowMs);
  const quietLoop = await readLoops(areas);
  const quietOutsidePct = cpuShareSince(quietCpu, resolver.pid).outsidePct;
  await sleep(settings.settleMs);
  results.quiet = { loop: quietLoop, probe: await probeWindow(probe, quietFrom, quietFrom + settings.windowMs), outsideCpuPct: quietOutsidePct };
  say(`quiet: loop max resolver ${quietLoop.resolver.busyMaxMs} ms busy (${quietLoop.resolver.maxMs} wall), registry ${quietLoop.registry.busyMaxMs} ms busy (${quietLoop.registry.maxMs} wall)`);

  const started = performance.now();
  for (const [n, { operation, cases }] of selected.entries()) {
    const name = routeName(operation);
    const attacked = areas[operation.area];
    const otherArea: Area = operation.area === 'resolver' ? 'registry' : 'resolver';
    const attacker = attackerAddress(n);
    try {
      const before = readMemory(attacked.pid);
      const from = epochNow();
      const cpuFrom = markCpu(benchmarkPids);
      const solo = await sendEachAlone({ port: attacked.port, cases, localAddress: attacker, timeoutMs: settings.timeoutMs }, () => readLoopDelay(attacked));
      await readLoops(areas);
      const attack = await attackRoute({
        port: attacked.port,
        cases,
        connections: settings.connections,
        windowMs: settings.windowMs,
        localAddress: attacker,
        timeoutMs: settings.timeoutMs,
        maxMs: settings.windowMs + 90_000,
      });
      const to = epochNow();
      const cpu = cpuShareSince(cpuFrom, attacked.pid);
      const loops = await readLoops(areas);
      const after = readMemory(attacked.pid);
      await sleep(settings.settleMs);
      const route: RouteResult = {
        area: operation.area,
        route: `${operation.method} ${operation.path}`,
        cases: cases.length,
        attacker,
        documentedStatuses: operation.statuses,
        attack,
        solo: notableAlone(solo),
        loop: { attacked: worstLoop([loops[operation.area], ...solo.map((c) => ({ maxMs: c.loopMs, busyMaxMs: c.loopBusyMs }))]), other: loops[otherArea] },
        probe: await probeWindow(probe, from, to),
        memory: { before, after },
        cpu,
      };
      const reasons = judgeRoute(route);
      results.routes.push(route);
      say(
        `[${n + 1}/${selected.length}] ${name}: ${attack.requests} requests (${attackStatuses(attack)}), slowest ${attack.slowestMs} ms, ` +
          `loop ${route.loop.attacked.busyMaxMs} ms busy (${route.loop.attacked.maxMs} ms wall), probe p99 ${route.probe.resolver.p99Ms} / ${route.probe.registry.p99Ms} ms, CPU ${cpu.attackedPct} % attacked, ${cpu.outsidePct} % outside${reasons.length > 0 ? ` — FAIL: ${reasons.join('; ')}` : ''}`,
      );
    } catch (error) {
      throw new Error(`while attacking ${name}: ${(error as Error).message}`, { cause: error });
    }
  }
  say(`attacks took ${Math.round((performance.now() - started) / 1000)} s`);
  results.serviceErrorLines = { resolver: resolver.errorLines(), registry: registry.errorLines() };
  results.failed = results.routes.filter((r) => !r.pass).map((r) => `${r.area} ${r.route}`);
  return results;
}

runSuite('hostile', {
  measure: measureHostile,
  report: (results) => ({ markdown: markdownReport(results), text: textReport(results) }),
  failure: (results) => {
    const failed = results.failed ?? [];
    if (!results.settings.strict || failed.length === 0) return null;
    return `${failed.length} routes miss a target (HOSTILE_STRICT): ${failed.join(', ')}`;
  },
});
