/**
 * `npm run bench:registry`: the registry area under load (browse, search, the dataset download) with the
 * real dataset and with 100,000 synthetic namespaces more, the dataset build's time and memory at both
 * sizes, and the nightly usage rollup of one day of 100,000 namespaces. Writes
 * bench/results/registry-<date>.json and bench/results/registry-latest.md. See bench/README-section.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { removeQueueKeys } from '../resolver/bench-redis.js';
import { readDataset, validateNamespaces } from '../../src/importer/read-dataset.js';
import { databaseUrlFor, dropDatabase, migrateAndImport, recreateDatabase } from '../resolver/bench-db.js';
import type { LoadSettings } from '../resolver/load.js';
import { machineInfo, writeResults } from '../resolver/report.js';
import type { ServerProcess } from '../resolver/server-processes.js';
import { say } from '../resolver/settings.js';
import { judge, markdownReport, textReport, type RegistryBenchResults } from './report.js';
import { measureRollup, removeRollupCounters } from './rollup.js';
import { readRegistrySettings, type RegistryBenchSettings } from './settings.js';
import { runSize } from './size-phase.js';
import { insertSyntheticNamespaces, syntheticPrefixes } from './synthetic.js';
import { searchStarts } from './workload.js';

// Set on Ctrl-C: the cleanup then ends the process, and the failures it causes (a database dropped under a
// query) are not reported as the benchmark's.
let interrupted = false;

/** Drops both databases and removes the BullMQ keys of the areas under test (there should be none). */
async function removeBenchData(settings: RegistryBenchSettings): Promise<void> {
  await dropDatabase(settings.baseDatabaseUrl, settings.databaseName);
  await dropDatabase(settings.baseDatabaseUrl, settings.scaleDatabaseName);
  await removeQueueKeys(settings.redisUrl, settings.queuePrefix);
}

async function main(): Promise<void> {
  const settings = readRegistrySettings();
  const load: LoadSettings = { connections: settings.connections, durationS: settings.durationS, warmupS: settings.warmupS, runs: settings.runs };
  const startedAt = new Date().toISOString();

  say(`reading ${settings.datasetPath}`);
  const namespaces = validateNamespaces(await readDataset(settings.datasetPath));
  const resourceCount = namespaces.reduce((sum, ns) => sum + ns.resources.length, 0);
  const synthetic = syntheticPrefixes(settings.scaleNamespaces);
  const starts = searchStarts(
    namespaces.map((ns) => ns.prefix),
    synthetic,
  );

  const results: RegistryBenchResults = {
    startedAt,
    machine: machineInfo(settings.projectRoot),
    settings: {
      connections: settings.connections,
      durationS: settings.durationS,
      warmupS: settings.warmupS,
      runs: settings.runs,
      buildRuns: settings.buildRuns,
      scaleNamespaces: settings.scaleNamespaces,
      redisUrl: settings.redisUrl,
      rollupRedisUrl: settings.rollupRedisUrl,
    },
    dataset: { path: settings.datasetPath, namespaces: namespaces.length, resources: resourceCount },
    searchStarts: { real: starts.real.length, synthetic: starts.synthetic.length, all: starts.all.length },
  };

  const servers: ServerProcess[] = [];
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'registry-bench-'));
  let rollupStarted = false;
  // Ctrl-C: the areas stop by themselves when this process goes (their IPC channel closes); the databases,
  // the dataset files and the rollup's Redis keys (by name) are removed here.
  process.once('SIGINT', () => {
    interrupted = true;
    say('interrupted; cleaning up');
    void Promise.allSettled(servers.map((s) => s.stop()))
      .then(() => rmSync(tmp, { recursive: true, force: true }))
      .then(() => (rollupStarted ? removeRollupCounters(settings.rollupRedisUrl, settings.rollupDay, synthetic) : undefined))
      .then(() => (settings.keepDb ? undefined : removeBenchData(settings)))
      .finally(() => process.exit(130));
  });
  const onServer = (server: ServerProcess) => servers.push(server);

  try {
    const realUrl = databaseUrlFor(settings.baseDatabaseUrl, settings.databaseName);
    say(`creating ${settings.databaseName} and importing ${namespaces.length} namespaces`);
    await recreateDatabase(settings.baseDatabaseUrl, settings.databaseName);
    const realImport = await migrateAndImport(realUrl, namespaces);
    results.real = await runSize({
      settings,
      load,
      label: 'real',
      databaseUrl: realUrl,
      datasetDir: path.join(tmp, 'dataset-real'),
      importMs: realImport.importMs,
      syntheticNamespaces: 0,
      searchStarts: starts.all,
      onServer,
    });

    let rollupUrl = realUrl;
    if (settings.skipScale) results.scale = { skipped: true };
    else {
      const scaleUrl = databaseUrlFor(settings.baseDatabaseUrl, settings.scaleDatabaseName);
      say(`scale: creating ${settings.scaleDatabaseName} with the real dataset and ${settings.scaleNamespaces.toLocaleString('en')} synthetic namespaces`);
      await recreateDatabase(settings.baseDatabaseUrl, settings.scaleDatabaseName);
      const scaleImport = await migrateAndImport(scaleUrl, namespaces);
      const client = new pg.Client({ connectionString: scaleUrl });
      await client.connect();
      let insertMs: number;
      try {
        insertMs = await insertSyntheticNamespaces(client, settings.scaleNamespaces);
      } finally {
        await client.end();
      }
      say(`scale: inserted in ${insertMs} ms`);
      results.scale = await runSize({
        settings,
        load,
        label: 'scale',
        databaseUrl: scaleUrl,
        datasetDir: path.join(tmp, 'dataset-scale'),
        importMs: scaleImport.importMs,
        insertMs,
        syntheticNamespaces: settings.scaleNamespaces,
        searchStarts: starts.all,
        onServer,
      });
      rollupUrl = scaleUrl;
    }

    if (settings.skipRollup) results.rollup = { skipped: true };
    else {
      const database = new URL(rollupUrl).pathname.slice(1);
      say(`rollup: one day of counters for ${synthetic.length.toLocaleString('en')} prefixes, rolled up into ${database}`);
      rollupStarted = true;
      const rollup = await measureRollup({ databaseUrl: rollupUrl, redisUrl: settings.rollupRedisUrl, day: settings.rollupDay, prefixes: synthetic });
      results.rollup = { ...rollup, database };
      say(`  fill ${rollup.fillMs} ms, rollup ${rollup.rollupMs} ms, again ${rollup.rerunMs} ms, ${rollup.rows} rows, verified: ${rollup.verified}`);
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    rmSync(tmp, { recursive: true, force: true });
    if (!settings.keepDb) await removeBenchData(settings);
  }

  results.finishedAt = new Date().toISOString();
  results.machine.loadAverageAtEnd = Math.round(os.loadavg()[0]! * 100) / 100;
  const { verdicts, figures } = judge(results);
  results.verdicts = verdicts;
  results.figures = figures;
  const written = writeResults(settings.projectRoot, results, markdownReport(results, verdicts, figures), 'registry');
  process.stdout.write(`\n${textReport(results, verdicts, figures)}\n`);
  say(`wrote ${path.relative(settings.projectRoot, written.json)} and ${path.relative(settings.projectRoot, written.markdown)}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    if (interrupted) return;
    process.stderr.write(`registry benchmark failed: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
