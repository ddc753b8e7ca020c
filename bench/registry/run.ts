/**
 * `npm run bench:registry`: the registry area under load (browse, search, the dataset download) with the
 * real dataset and with 100,000 synthetic namespaces more, the dataset build's time and memory at both
 * sizes, and the nightly usage rollup of one day of 100,000 namespaces. Writes
 * bench/results/registry.json and bench/results/registry.md. See the README's Benchmarks section.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { databaseUrlFor, dropDatabase, migrateAndImport, recreateDatabase, readBenchDataset } from '../lib/database.js';
import { removeQueueKeys } from '../lib/redis.js';
import { beginResults } from '../lib/results.js';
import type { ServerProcess } from '../lib/server-processes.js';
import { loadOf, say } from '../lib/settings.js';
import { runSuite, type SuiteRun } from '../lib/suite.js';
import { judge, markdownReport, textReport, type RegistryBenchResults } from './report.js';
import { measureRollup, removeRollupCounters } from './rollup.js';
import { readRegistrySettings, type RegistryBenchSettings } from './settings.js';
import { runSize } from './size-phase.js';
import { insertSyntheticNamespaces, syntheticPrefixes } from './synthetic.js';
import { searchStarts } from './workload.js';

/** Drops both databases and removes the BullMQ keys of the areas under test (there should be none). */
async function removeBenchData(settings: RegistryBenchSettings): Promise<void> {
  await dropDatabase(settings.baseDatabaseUrl, settings.databaseName);
  await dropDatabase(settings.baseDatabaseUrl, settings.scaleDatabaseName);
  await removeQueueKeys(settings.redisUrl, settings.queuePrefix);
}

async function measureRegistry(run: SuiteRun): Promise<RegistryBenchResults> {
  const settings = readRegistrySettings();
  const load = loadOf(settings);
  const begun = beginResults(settings.projectRoot);
  const { namespaces, described } = await readBenchDataset(settings.datasetPath);
  const synthetic = syntheticPrefixes(settings.scaleNamespaces);
  const starts = searchStarts(
    namespaces.map((ns) => ns.prefix),
    synthetic,
  );

  const results: RegistryBenchResults = {
    ...begun,
    settings: {
      ...load,
      buildRuns: settings.buildRuns,
      scaleNamespaces: settings.scaleNamespaces,
      redisUrl: settings.redisUrl,
      rollupRedisUrl: settings.rollupRedisUrl,
    },
    dataset: described,
    searchStarts: { real: starts.real.length, synthetic: starts.synthetic.length, all: starts.all.length },
  };

  const tmp = mkdtempSync(path.join(os.tmpdir(), 'registry-bench-'));
  let rollupStarted = false;
  // The dataset files, and the rollup's Redis keys (by name) when interrupted in it: the rollup removes
  // them itself otherwise.
  run.cleanup = async (interrupted) => {
    rmSync(tmp, { recursive: true, force: true });
    if (interrupted && rollupStarted) await removeRollupCounters(settings.rollupRedisUrl, settings.rollupDay, synthetic);
    if (!settings.keepDb) await removeBenchData(settings);
  };
  const onServer = (server: ServerProcess) => run.servers.push(server);

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
    pagePrefixes: namespaces.map((ns) => ns.prefix),
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
      pagePrefixes: namespaces.map((ns) => ns.prefix),
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
  return results;
}

function report(results: RegistryBenchResults): { markdown: string; text: string } {
  const { verdicts, figures } = judge(results);
  results.verdicts = verdicts;
  results.figures = figures;
  return { markdown: markdownReport(results, verdicts, figures), text: textReport(results, verdicts, figures) };
}

runSuite('registry', { measure: measureRegistry, report });
