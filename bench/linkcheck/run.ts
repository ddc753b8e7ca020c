/**
 * `npm run bench:linkcheck`: plans link-check runs over the real registry (REGISTRY_DATASET) as the
 * schedule's job does, with every provider host replaced by a local stand-in, and measures the planning time
 * and the heap around it. Nothing is checked: no worker runs, the jobs go to a queue prefix of the
 * benchmark's own in its Redis database and are removed after each run. Writes bench/results/linkcheck.json
 * and .md. See the README's Benchmarks section.
 */
import { createDb } from '../../src/db/knex.js';
import { newManualRunId, planLinkCheckRun } from '../../src/link-check/plan-run.js';
import { createWorkerRedis } from '../../src/queue/connections.js';
import { deleteQueueKeys } from '../../src/queue/queue-keys.js';
import { createQueue, queueNames } from '../../src/queue/queues.js';
import { databaseUrlFor, dropDatabase, migrateAndImport, readBenchDataset, recreateDatabase } from '../lib/database.js';
import { removeQueueKeys } from '../lib/redis.js';
import { beginResults, describeMachine, markdownTable, passText, textTable, type Figure, type ResultsHeader } from '../lib/results.js';
import { positiveNumber, readCommonSettings, say } from '../lib/settings.js';
import { runSuite, type SuiteRun } from '../lib/suite.js';
import { startFixtureHosts, withStandInHosts } from './fixture-hosts.js';

/** The acceptance line: "planned in well under a second", taken as half of one. */
const PLAN_TARGET_MS = 500;
/** Heap left after a run and a full GC, and at most the heap grows while planning: flat, whatever the registry. */
const RETAINED_TARGET_MB = 2;
const PEAK_TARGET_MB = 32;
const SPREAD_MS = 86_400_000;

interface PlanRunFigures {
  runId: string;
  planned: number;
  planMs: number;
  heapBeforeMb: number;
  heapPeakMb: number;
  heapAfterMb: number;
  queuedWaiting: number;
  queuedDelayed: number;
  latestDelayH: number;
}

interface LinkcheckBenchResults extends ResultsHeader {
  settings: { runs: number; spreadMs: number; chunkJobs: number; gcExposed: boolean; standInHost: string };
  expectedChecks: number;
  importMs: number;
  standInRequests: number;
  runs: PlanRunFigures[];
  figures: Figure[];
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 100) / 100;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

async function measure(run: SuiteRun): Promise<LinkcheckBenchResults> {
  const common = readCommonSettings({ connections: 1 });
  const runs = Math.round(positiveNumber('BENCH_RUNS', 5));
  const databaseName = 'curie_linkcheck_bench';
  const queuePrefix = `bench-linkcheck-${process.pid}`;
  const begun = beginResults(common.projectRoot);
  const { namespaces, described } = await readBenchDataset(common.datasetPath);
  const hosts = await startFixtureHosts();
  run.cleanup = async () => {
    await hosts.close();
    if (!common.keepDb) await dropDatabase(common.baseDatabaseUrl, databaseName);
    await removeQueueKeys(common.redisUrl, queuePrefix);
  };
  const expectedChecks =
    2 * namespaces.filter((n) => !n.deprecated).reduce((sum, n) => sum + n.resources.filter((r) => !r.deprecated).length, 0);

  say(`creating ${databaseName} with ${namespaces.length} namespaces, every provider host standing in at ${hosts.base}`);
  await recreateDatabase(common.baseDatabaseUrl, databaseName);
  const { importMs } = await migrateAndImport(databaseUrlFor(common.baseDatabaseUrl, databaseName), withStandInHosts(namespaces, hosts.base));

  const db = createDb(databaseUrlFor(common.baseDatabaseUrl, databaseName), { max: 2 });
  const connection = createWorkerRedis(common.redisUrl);
  const queue = createQueue(queueNames.linkCheck, connection, queuePrefix);
  const figures: PlanRunFigures[] = [];
  try {
    // One run first, not counted: connections opened, code compiled.
    await planLinkCheckRun({ db, queue }, { runId: newManualRunId(), prefix: null, spreadMs: SPREAD_MS });
    await deleteQueueKeys(connection, queuePrefix);
    for (let i = 1; i <= runs; i++) {
      collectGarbage();
      const before = process.memoryUsage().heapUsed;
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 2);
      const started = performance.now();
      const { runId, planned } = await planLinkCheckRun({ db, queue }, { runId: newManualRunId(), prefix: null, spreadMs: SPREAD_MS });
      const planMs = Math.round((performance.now() - started) * 10) / 10;
      clearInterval(sampler);
      peak = Math.max(peak, process.memoryUsage().heapUsed);
      collectGarbage();
      const after = process.memoryUsage().heapUsed;
      const counts = await queue.getJobCounts('waiting', 'delayed');
      // The delayed set is ordered by start time: its last job starts last.
      const [latest] = await queue.getJobs(['delayed'], -1, -1, true);
      const latestDelayH = latest ? Math.round(((latest.timestamp + latest.delay - Date.now()) / 3_600_000) * 100) / 100 : 0;
      figures.push({
        runId,
        planned,
        planMs,
        heapBeforeMb: mb(before),
        heapPeakMb: mb(peak),
        heapAfterMb: mb(after),
        queuedWaiting: counts.waiting ?? 0,
        queuedDelayed: counts.delayed ?? 0,
        latestDelayH,
      });
      say(`run ${i}: ${planned} checks planned in ${planMs} ms; heap ${mb(before)} → peak ${mb(peak)} → ${mb(after)} MB after GC`);
      // The jobs go: nothing is to be checked, and the next run starts from an empty queue.
      await deleteQueueKeys(connection, queuePrefix);
    }
  } finally {
    await queue.close();
    connection.disconnect();
    await db.destroy();
  }

  const gcExposed = typeof (globalThis as { gc?: unknown }).gc === 'function';
  const planMs = median(figures.map((f) => f.planMs));
  const retained = Math.max(...figures.map((f) => f.heapAfterMb - f.heapBeforeMb));
  const peakGrowth = Math.max(...figures.map((f) => f.heapPeakMb - f.heapBeforeMb));
  const allPlanned = figures.every((f) => f.planned === expectedChecks && f.queuedWaiting + f.queuedDelayed === expectedChecks);
  return {
    ...begun,
    dataset: described,
    settings: { runs, spreadMs: SPREAD_MS, chunkJobs: 500, gcExposed, standInHost: hosts.base },
    expectedChecks,
    importMs,
    standInRequests: hosts.requests(),
    runs: figures,
    figures: [
      { figure: 'checks planned per run (and queued)', value: String(figures[0]?.planned ?? 0), target: `${expectedChecks} (2 per active resource)`, pass: allPlanned },
      {
        figure: 'last check starts in (the spread)',
        value: `${Math.min(...figures.map((f) => f.latestDelayH))} h`,
        target: `within ${SPREAD_MS / 3_600_000} h, near its end`,
        pass: figures.every((f) => f.latestDelayH <= SPREAD_MS / 3_600_000 && f.latestDelayH >= (0.99 * SPREAD_MS) / 3_600_000),
      },
      { figure: 'planning time, median of runs', value: `${planMs} ms`, target: `≤ ${PLAN_TARGET_MS} ms`, pass: planMs <= PLAN_TARGET_MS },
      { figure: 'heap growth while planning, worst run', value: `${Math.round(peakGrowth * 100) / 100} MB`, target: `≤ ${PEAK_TARGET_MB} MB`, pass: peakGrowth <= PEAK_TARGET_MB },
      { figure: 'heap retained after a run (after GC), worst run', value: `${Math.round(retained * 100) / 100} MB`, target: `≤ ${RETAINED_TARGET_MB} MB`, pass: gcExposed ? retained <= RETAINED_TARGET_MB : null },
      { figure: 'requests reaching any provider host', value: String(hosts.requests()), target: '0', pass: hosts.requests() === 0 },
    ],
  };
}

function report(results: LinkcheckBenchResults): { markdown: string; text: string } {
  const figureRows = results.figures.map((f) => [f.figure, f.value, f.target, passText(f.pass)]);
  const runRows = results.runs.map((r, i) => [
    String(i + 1),
    String(r.planned),
    `${r.planMs} ms`,
    `${r.heapBeforeMb} MB`,
    `${r.heapPeakMb} MB`,
    `${r.heapAfterMb} MB`,
    `${r.queuedWaiting} / ${r.queuedDelayed}`,
    `${r.latestDelayH} h`,
  ]);
  const runHeader = ['run', 'checks', 'planning', 'heap before', 'heap peak', 'heap after GC', 'waiting / delayed', 'last start in'];
  const about = [
    describeMachine(results.machine),
    `Dataset: ${results.dataset.path} (${results.dataset.namespaces} namespaces, ${results.dataset.resources} resources); ` +
      `provider hosts standing in at ${results.settings.standInHost}; runs spread over ${results.settings.spreadMs / 3_600_000} h; ` +
      `${results.settings.runs} runs after one not counted${results.settings.gcExposed ? '' : ' (no --expose-gc: heap after GC not judged)'}.`,
  ];
  const failed = results.figures.some((f) => f.pass === false);
  const markdown = [
    '# Link-check planning benchmark',
    '',
    ...about.map((l) => `${l}\n`),
    markdownTable(['figure', 'value', 'target', 'result'], figureRows),
    '',
    markdownTable(runHeader, runRows),
    '',
  ].join('\n');
  const text = [...about, '', textTable(['figure', 'value', 'target', 'result'], figureRows), '', textTable(runHeader, runRows), failed ? '\nFAILED' : ''].join('\n');
  return { markdown, text };
}

runSuite('linkcheck', { measure, report });
