/**
 * Everything measured at one registry size: timed dataset builds (the last one is what the area serves),
 * then the registry area (`node dist/src/registry/main.js`) in a child process, and under load from this
 * process: browse, search, and the dataset download (304, and full with gzip by autocannon and by a
 * node:http pool).
 */
import pg from 'pg';
import { checkOnce, type CheckSummary } from '../lib/check-once.js';
import { sendRequest } from '../lib/http-client.js';
import type { LoadSettings } from '../lib/load.js';
import { readMemory, startNodeService, type MemoryFigures, type NodeServiceProcess, type ServerProcess } from '../lib/server-processes.js';
import { say } from '../lib/settings.js';
import { measureBuilds, type BuildFigures } from './build.js';
import { checkDataset, type DatasetCheck } from './dataset-check.js';
import { measureScenario, runCold, type LoadRun, type RegistryScenario, type ScenarioTarget } from './measure.js';
import type { RegistryBenchSettings } from './settings.js';
import { browseRequests, datasetGzipRequest, datasetNotModifiedRequest, namespacePageRequests, PAGE_SIZE, searchRequests } from './workload.js';

/** The issue's figure for the namespace page: p99 at this many concurrent connections. */
export const NAMESPACE_PAGE_CONNECTIONS = 10;

export interface SizeFigures {
  label: string;
  namespaces: number;
  resources: number;
  syntheticNamespaces: number;
  /** Import of the real dataset, and the insert of the synthetic namespaces (scale only). */
  importMs: number;
  insertMs?: number;
  build: BuildFigures;
  server: { startMs: number; afterStart: MemoryFigures; afterScenarios?: MemoryFigures; errorLines?: number };
  dataset: DatasetCheck;
  browsePages: number;
  searchStarts: number;
  /** Namespace pages asked for (every real prefix). */
  namespacePages: number;
  checks: Record<string, CheckSummary>;
  scenarios: Record<ScenarioName, RegistryScenario>;
}

export type ScenarioName = 'browse' | 'search' | 'namespacePage' | 'dataset304' | 'datasetGzip' | 'datasetGzipPool';

export const logRun = (target: string, run: number | string, f: LoadRun) =>
  say(
    `  ${target} ${typeof run === 'number' ? `run ${run}` : run}: ${f.reqPerSec.toLocaleString('en')} req/s, p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms, ` +
      `${(f.bytes / f.durationS / 1e6).toFixed(1)} MB/s, CPU: server ${f.serverCpuPct} %, Postgres ${f.postgresCpuPct ?? '?'} %, ` +
      `load generator ${f.loadGeneratorCpuPct} %, other ${f.otherCpuPct} %; ` +
      `${f.unexpected} unexpected, ${f.errors} errors`,
  );

export async function runSize(options: {
  settings: RegistryBenchSettings;
  load: LoadSettings;
  label: string;
  databaseUrl: string;
  datasetDir: string;
  importMs: number;
  insertMs?: number;
  syntheticNamespaces: number;
  searchStarts: readonly string[];
  /** The prefixes whose namespace pages are asked for (the real registry's, at both sizes). */
  pagePrefixes: readonly string[];
  /** Told of the area once started, so that an interrupted run can stop it. */
  onServer: (server: ServerProcess) => void;
}): Promise<SizeFigures> {
  const { settings, load, label } = options;

  say(`${label}: ${settings.buildRuns} timed dataset builds (child process each)`);
  const build = await measureBuilds(settings.projectRoot, options.databaseUrl, options.datasetDir, settings.buildRuns, (run, b) =>
    say(
      `  build ${run}: ${b.buildMs} ms (process ${b.processMs} ms), ${b.namespaceCount} namespaces, ${(b.plainBytes / 1e6).toFixed(1)} MB ` +
        `(${(b.gzipBytes / 1e6).toFixed(2)} MB gzip), RSS before ${b.before.rssMb} MB, peak ${b.after.peakRssMb} MB`,
    ),
  );
  const last = build.runs[build.runs.length - 1]!;

  let server: NodeServiceProcess | null = null;
  // Lists the backends connected to the bench database (the area's pool), for their CPU time.
  const monitor = new pg.Client({ connectionString: options.databaseUrl });
  await monitor.connect();
  const postgresPids = async () =>
    (await monitor.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()')).rows.map(
      (r) => r.pid,
    );
  try {
    server = await startNodeService({
      projectRoot: settings.projectRoot,
      entry: 'dist/src/registry/main.js',
      portSetting: 'REGISTRY_PORT',
      databaseUrl: options.databaseUrl,
      redisUrl: settings.redisUrl,
      name: `registry (${label})`,
      // Every request comes from this one address, which the per-client limits (on by default) would refuse
      // within a second: this measures capacity; bench:hostile measures the limits.
      extraEnv: { DATASET_DIR: options.datasetDir, QUEUE_PREFIX: settings.queuePrefix, RATE_LIMITS: 'false' },
    });
    options.onServer(server);
    const afterStart = readMemory(server.pid);
    say(`${label}: registry area ready on port ${server.port} after ${server.startMs} ms, RSS ${afterStart.rssMb} MB`);
    const port = server.port;

    // The page count from the API itself (page.totalElements), so the browse covers exactly every page.
    const first = await sendRequest(port, { method: 'GET', path: `/restApi/namespaces?page=0&size=${PAGE_SIZE}&sort=name,asc` });
    if (first.status !== 200) throw new Error(`browse answered ${first.status}: ${first.body.slice(0, 300)}`);
    const totalElements = (JSON.parse(first.body) as { page: { totalElements: number } }).page.totalElements;
    if (totalElements !== last.namespaceCount) throw new Error(`browse counts ${totalElements} namespaces, the dataset build ${last.namespaceCount}`);
    const browse = browseRequests(totalElements);
    const search = searchRequests(options.searchStarts);
    const pages = namespacePageRequests(options.pagePrefixes);
    const pageLoad = { ...load, connections: NAMESPACE_PAGE_CONNECTIONS };

    const target = (name: string, requests: ScenarioTarget['requests'], generator: ScenarioTarget['generator'] = 'autocannon'): ScenarioTarget => ({
      name: `${label} ${name}`,
      port,
      serverPid: server!.pid,
      postgresPids,
      requests,
      generator,
    });

    say(`${label}: cold runs (first load on the fresh area, no warm-up): browse, then search`);
    const browseCold = await runCold(target('browse', browse), load);
    logRun(`${label} browse`, 'cold', browseCold);
    const searchCold = await runCold(target('search', search), load);
    logRun(`${label} search`, 'cold', searchCold);
    const pagesCold = await runCold(target('namespace page', pages), pageLoad);
    logRun(`${label} namespace page`, 'cold', pagesCold);

    // Each request once, after the cold runs (checking first would warm the area's answer cache): every
    // one must answer 200, and under load any other answer counts as unexpected.
    say(`${label}: sending every request once to check its status (${browse.length} pages, ${search.length} searches, ${pages.length} namespace pages)`);
    const checks = {
      browse: (await checkOnce(port, browse)).summary,
      search: (await checkOnce(port, search)).summary,
      namespacePage: (await checkOnce(port, pages)).summary,
    };
    for (const [name, summary] of Object.entries(checks)) {
      if (summary.offIntent > 0) throw new Error(`${label} ${name}: ${summary.offIntent} of ${summary.total} requests did not answer 200`);
    }
    const coldUnexpected = browseCold.unexpected + searchCold.unexpected + pagesCold.unexpected;
    if (coldUnexpected > 0) say(`${label}: ${coldUnexpected} answers of the cold runs were not 200`);

    say(`${label}: browse, page of ${PAGE_SIZE} by name over all ${browse.length} pages`);
    const browseScenario = await measureScenario(target('browse', browse), load, logRun, browseCold);
    say(`${label}: search by prefix start over ${search.length} starts`);
    const searchScenario = await measureScenario(target('search', search), load, logRun, searchCold);
    say(`${label}: namespace pages (HTML, as a browser asks) of ${pages.length} prefixes, ${NAMESPACE_PAGE_CONNECTIONS} connections`);
    const namespacePage = await measureScenario(target('namespace page', pages), pageLoad, logRun, pagesCold);

    const dataset = await checkDataset(port, { namespaces: last.namespaceCount, gzipBytes: last.gzipBytes, etag: last.gzipEtag });
    say(`${label}: dataset ${dataset.namespaces} namespaces, ${(dataset.gzipBytes / 1e6).toFixed(2)} MB gzip, ETag ${dataset.etag}`);
    say(`${label}: dataset revalidation (If-None-Match → 304)`);
    const dataset304 = await measureScenario(target('dataset 304', [datasetNotModifiedRequest(dataset.etag)]), load, logRun);
    // The pool first: autocannon leaves hundreds of MB of body strings behind in this process at this size.
    say(`${label}: dataset full download with gzip, node:http pool of ${load.connections} keep-alive requests (body discarded)`);
    const datasetGzipPool = await measureScenario(target('dataset gzip pool', [datasetGzipRequest()], 'node:http pool'), load, logRun);
    say(`${label}: dataset full download with gzip, autocannon`);
    const datasetGzip = await measureScenario(target('dataset gzip', [datasetGzipRequest()]), load, logRun);

    const afterScenarios = readMemory(server.pid);
    return {
      label,
      namespaces: last.namespaceCount,
      resources: last.resourceCount,
      syntheticNamespaces: options.syntheticNamespaces,
      importMs: options.importMs,
      insertMs: options.insertMs,
      build,
      server: { startMs: server.startMs, afterStart, afterScenarios, errorLines: server.errorLines() },
      dataset,
      browsePages: browse.length,
      searchStarts: search.length,
      namespacePages: pages.length,
      checks,
      scenarios: { browse: browseScenario, search: searchScenario, namespacePage, dataset304, datasetGzip, datasetGzipPool },
    };
  } finally {
    await server?.stop();
    await monitor.end().catch(() => undefined);
  }
}
