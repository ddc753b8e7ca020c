/**
 * `npm run bench:resolver`: the resolver under load (autocannon, 50 connections, the real dataset) next to a
 * bare node:http + Map ceiling, then the same at 100,000 synthetic namespaces. Writes
 * bench/results/resolver.json and bench/results/resolver.md. See the README's Benchmarks section.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { utcDay } from '../../src/statistics/usage-keys.js';
import { measureBatchLatency } from './batch-latency.js';
import { dropDatabase, databaseUrlFor, migrateAndImport, recreateDatabase, readBenchDataset } from '../lib/database.js';
import { clearUsageCounters } from '../lib/redis.js';
import { checkOnce, describeCheck } from '../lib/check-once.js';
import { measure, measureTogether, type RunFigures } from '../lib/load.js';
import { beginResults } from '../lib/results.js';
import { readMemory, startCeiling, startResolver } from '../lib/server-processes.js';
import { loadOf, say } from '../lib/settings.js';
import { runSuite, type SuiteRun } from '../lib/suite.js';
import { FLOODING_ADDRESS, longSimilarityBody, measureNoisyNeighbour, PROBING_ADDRESS } from './noisy-neighbour.js';
import { judge, markdownReport, textReport, type BenchResults } from './report.js';
import { runScale } from './scale.js';
import { readSettings, RESOLVER_BENCH_ENV, type BenchSettings } from './settings.js';
import { batchBodies, buildResolveMix, byPrefixRequests, bySimilarityRequests, notModifiedRequests, redirectRequests, resolveJsonRequests } from './workload.js';

const logRun = (target: string, run: number, f: RunFigures) =>
  say(`  ${target} run ${run}: ${f.reqPerSec.toLocaleString('en')} req/s, p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms, ${f.unexpected} unexpected, ${f.errors} errors`);

/** Drops both benchmark databases and deletes the usage counters the resolvers under test wrote. */
async function removeBenchData(settings: BenchSettings, startedAt: string): Promise<void> {
  await dropDatabase(settings.baseDatabaseUrl, settings.databaseName);
  await dropDatabase(settings.baseDatabaseUrl, settings.scaleDatabaseName);
  await clearUsageCounters(settings.redisUrl, [utcDay(new Date(startedAt)), utcDay(new Date())]);
}

async function measureResolver(run: SuiteRun): Promise<BenchResults> {
  const settings = readSettings();
  const load = loadOf(settings);
  const begun = beginResults(settings.projectRoot);
  const { namespaces, described } = await readBenchDataset(settings.datasetPath);

  const databaseUrl = databaseUrlFor(settings.baseDatabaseUrl, settings.databaseName);
  const servers = run.servers;
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'resolver-bench-'));
  run.cleanup = async () => {
    rmSync(tmp, { recursive: true, force: true });
    if (!settings.keepDb) await removeBenchData(settings, begun.startedAt);
  };

  say(`creating ${settings.databaseName} and importing ${namespaces.length} namespaces`);
  await recreateDatabase(settings.baseDatabaseUrl, settings.databaseName);
  const { importMs } = await migrateAndImport(databaseUrl, namespaces);

  const resolver = await startResolver({ projectRoot: settings.projectRoot, databaseUrl, redisUrl: settings.redisUrl, extraEnv: RESOLVER_BENCH_ENV });
  servers.push(resolver);
  const afterLoad = readMemory(resolver.pid);
  say(`resolver ready on port ${resolver.port} after ${resolver.startMs} ms (snapshot ${resolver.snapshotLoadMs} ms, RSS ${afterLoad.rssMb} MB)`);

  const mix = buildResolveMix(namespaces);
  const resolveJson = resolveJsonRequests(mix);
  const redirect = redirectRequests(mix);
  const byPrefix = byPrefixRequests(namespaces);
  const bySimilarity = bySimilarityRequests(namespaces);

  say('sending every request once to learn its expected status');
  const checkedJson = await checkOnce(resolver.port, resolveJson, { keepBodies: true });
  // Revalidations of the JSON answers just seen (their ETags), which a CDN in front sends (issue 14 item 5).
  const notModified = notModifiedRequests(resolveJson);
  const checks = {
    resolveJson: checkedJson.summary,
    notModified: (await checkOnce(resolver.port, notModified)).summary,
    redirect: (await checkOnce(resolver.port, redirect)).summary,
    byPrefix: (await checkOnce(resolver.port, byPrefix)).summary,
    bySimilarity: (await checkOnce(resolver.port, bySimilarity)).summary,
  };
  for (const [name, summary] of Object.entries(checks)) say(`  ${name}: ${describeCheck(summary)}`);

  const answersFile = path.join(tmp, 'ceiling-answers.json');
  writeFileSync(answersFile, JSON.stringify(checkedJson.answers));
  const ceiling = await startCeiling({ projectRoot: settings.projectRoot, answersFile });
  servers.push(ceiling);

  const results: BenchResults = {
    ...begun,
    settings: {
      ...load,
      batchRequests: settings.batchRequests,
      batchSize: settings.batchSize,
      scaleNamespaces: settings.scaleNamespaces,
      noisyDurationS: settings.noisyDurationS,
      redisUrl: settings.redisUrl,
    },
    dataset: described,
    setup: { importMs, resolverStartMs: resolver.startMs, snapshotLoadMs: resolver.snapshotLoadMs },
    resolverMemory: { afterLoad },
    requestCounts: { resolveJson: resolveJson.length, notModified: notModified.length, redirect: redirect.length, byPrefix: byPrefix.length, bySimilarity: bySimilarity.length },
    checks,
    scenarios: {},
  };

  // The ceiling and every scenario judged against it are measured in turns (ceiling, resolve JSON, 304,
  // redirect, byPrefix, then again), so that the machine's background load shifting during the benchmark
  // falls on all of them alike and the ratios stay comparable.
  say(
    `the ceiling, resolve JSON, 304 to If-None-Match, redirect and byPrefix, taken in turn (${resolveJson.length} identifiers, ${notModified.length} revalidations, ${byPrefix.length} URLs)`,
  );
  const turns = await measureTogether(
    [
      { name: 'ceiling', port: ceiling.port, requests: resolveJson },
      { name: 'resolveJson', port: resolver.port, requests: resolveJson },
      { name: 'notModified', port: resolver.port, requests: notModified },
      { name: 'redirect', port: resolver.port, requests: redirect },
      { name: 'byPrefix', port: resolver.port, requests: byPrefix },
    ],
    load,
    logRun,
  );
  results.scenarios.ceiling = turns.ceiling!;
  results.scenarios.resolveJson = turns.resolveJson!;
  results.scenarios.notModified = turns.notModified!;
  results.scenarios.redirect = turns.redirect!;
  results.scenarios.byPrefix = turns.byPrefix!;
  await ceiling.stop();

  say(`reverse bySimilarity (${bySimilarity.length} URLs)`);
  results.scenarios.bySimilarity = await measure({ name: 'bySimilarity', port: resolver.port, requests: bySimilarity }, load, logRun);

  say(`batch of ${settings.batchSize} identifiers, ${settings.batchRequests} requests one at a time`);
  results.batch = await measureBatchLatency(resolver.port, batchBodies(mix, settings.batchSize, settings.batchRequests), settings.batchSize);
  say(`  median ${results.batch.medianMs} ms, p99 ${results.batch.p99Ms} ms`);

  say(`noisy neighbour: single resolutions from ${PROBING_ADDRESS} while ${FLOODING_ADDRESS} floods batches and long similarity lookups (${settings.noisyDurationS} s)`);
  results.noisyNeighbour = await measureNoisyNeighbour({
    projectRoot: settings.projectRoot,
    port: resolver.port,
    probePaths: resolveJson.map((r) => r.path),
    batchBody: batchBodies(mix, settings.batchSize, 1)[0]!,
    similarityBody: longSimilarityBody(),
    durationMs: settings.noisyDurationS * 1000,
  });
  const noisy = results.noisyNeighbour;
  say(`  ${noisy.probe.requests} resolutions: p50 ${noisy.probe.p50Ms} ms, p99 ${noisy.probe.p99Ms} ms, max ${noisy.probe.maxMs} ms; flood ${JSON.stringify(noisy.flood.statuses)}`);

  results.resolverMemory.afterScenarios = readMemory(resolver.pid);
  results.resolverErrorLines = resolver.errorLines();
  await resolver.stop();

  if (settings.skipScale) results.scale = { skipped: true };
  else {
    const realExpected = new Map(resolveJson.map((r) => [r.path, r.expectedStatus ?? r.intendedStatus]));
    results.scale = await runScale({
      settings,
      load,
      namespaces,
      realExpected,
      real: { databaseUrl, requests: resolveJson },
      onRun: logRun,
      onServer: (s) => servers.push(s),
    });
  }
  return results;
}

function report(results: BenchResults): { markdown: string; text: string } {
  const { verdicts, figures } = judge(results);
  results.verdicts = verdicts;
  return { markdown: markdownReport(results, verdicts, figures), text: textReport(verdicts, figures, results) };
}

runSuite('resolver', { measure: measureResolver, report });
