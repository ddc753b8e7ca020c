/**
 * `npm run bench:registration`: the registration field validator endpoints that need no network check,
 * under load at 10 connections (the acceptance line), next to a minimal Koa baseline measured in the same
 * turns. Writes bench/results/registration-<date>.json and bench/results/registration-latest.md. See
 * bench/README-section.md.
 */
import os from 'node:os';
import path from 'node:path';
import { readDataset, validateNamespaces } from '../../src/importer/read-dataset.js';
import { databaseUrlFor, dropDatabase, migrateAndImport, recreateDatabase } from '../resolver/bench-db.js';
import { removeQueueKeys } from '../resolver/bench-redis.js';
import { checkOnce, describeCheck } from '../resolver/check-once.js';
import { measureTogether, medianRun, type LoadSettings, type LoadTarget } from '../resolver/load.js';
import { machineInfo, writeResults } from '../resolver/report.js';
import { readMemory, startNodeService, type ServerProcess } from '../resolver/server-processes.js';
import type { BenchRequest } from '../resolver/workload.js';
import { say } from '../resolver/settings.js';
import { CpuSampler, type RunCpu } from './cpu-sampler.js';
import { classifyEndpoints } from './endpoint-classes.js';
import { judge, markdownReport, textReport, type LoadRun, type RegistrationBenchResults, type ScenarioName } from './report.js';
import { buildSamples } from './samples.js';
import { readRegistrationSettings, type RegistrationBenchSettings } from './settings.js';
import { distinctRegexPairs, mixRequests, regexRequests } from './workload.js';

// Set on Ctrl-C: the cleanup then ends the process, and the failures it causes (a database dropped under a
// query) are not reported as the benchmark's.
let interrupted = false;

const logRun = (target: string, run: number, f: LoadRun) =>
  say(
    `  ${target} run ${run}: ${f.reqPerSec.toLocaleString('en')} req/s, p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms, ` +
      `CPU: server ${f.serverCpuPct ?? '?'} %, load generator ${f.loadGeneratorCpuPct ?? '?'} %, other ${f.otherCpuPct ?? '?'} %; ` +
      `${f.unexpected} unexpected, ${f.errors} errors`,
  );

/** Drops the database (unless kept) and removes the area's queue keys. */
async function removeBenchData(settings: RegistrationBenchSettings): Promise<void> {
  if (!settings.keepDb) await dropDatabase(settings.baseDatabaseUrl, settings.databaseName);
  const removed = await removeQueueKeys(settings.redisUrl, settings.queuePrefix);
  if (removed > 0) say(`removed ${removed} Redis keys under ${settings.queuePrefix}:`);
}

/** The baseline answers every request 200: a copy of the list, with that intent and no learned status. */
const forBaseline = (requests: readonly BenchRequest[]): BenchRequest[] =>
  requests.map(({ expectedStatus: _learned, ...request }) => ({ ...request, intendedStatus: 200 }));

async function main(): Promise<void> {
  const settings = readRegistrationSettings();
  const load: LoadSettings = { connections: settings.connections, durationS: settings.durationS, warmupS: settings.warmupS, runs: settings.runs };
  const startedAt = new Date().toISOString();
  const machine = machineInfo(settings.projectRoot);

  say(`reading ${settings.datasetPath}`);
  const namespaces = validateNamespaces(await readDataset(settings.datasetPath));
  const resourceCount = namespaces.reduce((sum, ns) => sum + ns.resources.length, 0);
  const endpoints = classifyEndpoints();
  const samples = buildSamples(namespaces);
  const mixEndpoints = endpoints.filter((e) => e.class === 'mix');
  const regexEndpoints = endpoints.filter((e) => e.class === 'regex');
  const mix = mixRequests(mixEndpoints, samples);
  const regex = regexEndpoints.flatMap((e) => regexRequests(e, samples));
  const baseline = forBaseline(mix);
  say(
    `${mixEndpoints.length} endpoints in the mix (${mix.length} requests), ${regexEndpoints.length} regex (${regex.length} requests), ` +
      `${endpoints.length - mixEndpoints.length - regexEndpoints.length} left out (URL checks)`,
  );

  const databaseUrl = databaseUrlFor(settings.baseDatabaseUrl, settings.databaseName);
  const servers: ServerProcess[] = [];
  // Ctrl-C: the servers stop by themselves when this process goes (their IPC channel closes); the database
  // and the area's queue keys are removed here.
  process.once('SIGINT', () => {
    interrupted = true;
    say('interrupted; cleaning up');
    void Promise.allSettled(servers.map((s) => s.stop()))
      .then(() => removeBenchData(settings))
      .finally(() => process.exit(130));
  });

  let results: RegistrationBenchResults;
  try {
    say(`creating ${settings.databaseName} and importing ${namespaces.length} namespaces`);
    await recreateDatabase(settings.baseDatabaseUrl, settings.databaseName);
    const { importMs } = await migrateAndImport(databaseUrl, namespaces);

    const service = await startNodeService({
      projectRoot: settings.projectRoot,
      entry: 'dist/src/registry/main.js',
      portSetting: 'REGISTRY_PORT',
      databaseUrl,
      redisUrl: settings.redisUrl,
      name: 'registry',
      // Every connection comes from 127.0.0.1, one client to the registry: its per-client cap of regex checks
      // in flight (fairness between clients, tested in regex-tester.test.ts) would answer most of them 429.
      // The benchmark measures the thread pool's throughput, so the cap is the number of connections.
      extraEnv: { QUEUE_PREFIX: settings.queuePrefix, REGEX_CHECKS_PER_CLIENT: String(settings.connections) },
    });
    servers.push(service);
    const afterStart = readMemory(service.pid);
    say(`registry area ready on port ${service.port} after ${service.startMs} ms, RSS ${afterStart.rssMb} MB`);

    results = {
      startedAt,
      machine,
      settings: {
        connections: settings.connections,
        durationS: settings.durationS,
        warmupS: settings.warmupS,
        runs: settings.runs,
        redisUrl: settings.redisUrl,
        queuePrefix: settings.queuePrefix,
      },
      dataset: { path: settings.datasetPath, namespaces: namespaces.length, resources: resourceCount },
      endpoints: {
        mix: mixEndpoints.map((e) => e.path),
        regex: regexEndpoints.map((e) => ({ path: e.path, reason: e.reason })),
        excluded: endpoints.filter((e) => e.class === 'network').map((e) => ({ path: e.path, reason: e.reason })),
      },
      setup: { importMs, serviceStartMs: service.startMs },
      serviceMemory: { afterStart },
      requestCounts: { baseline: baseline.length, mix: mix.length, regex: regex.length },
      regexDistinctPairs: distinctRegexPairs(regex),
      checks: {},
      scenarios: {},
    };

    say('sending every request once to learn its expected status');
    results.checks.mix = (await checkOnce(service.port, mix)).summary;
    results.checks.regex = (await checkOnce(service.port, regex)).summary;
    for (const name of ['mix', 'regex'] as const) {
      const summary = results.checks[name]!;
      say(`  ${name}: ${summary.offIntent} of ${summary.total} answered other than intended; ${describeCheck(summary)}`);
    }

    const baselineServer = await startNodeService({
      projectRoot: settings.projectRoot,
      entry: 'dist/bench/registration/baseline-server.js',
      portSetting: 'BASELINE_PORT',
      databaseUrl,
      redisUrl: settings.redisUrl,
      name: 'baseline',
    });
    servers.push(baselineServer);
    results.setup.baselineStartMs = baselineServer.startMs;
    results.checks.baseline = (await checkOnce(baselineServer.port, baseline)).summary;
    if (results.checks.baseline.offIntent > 0) throw new Error(`baseline: ${results.checks.baseline.offIntent} requests did not answer 200`);

    const targets: (LoadTarget & { name: ScenarioName; pid: number })[] = [
      { name: 'baseline', port: baselineServer.port, pid: baselineServer.pid, requests: baseline },
      { name: 'mix', port: service.port, pid: service.pid, requests: mix },
      { name: 'regex', port: service.port, pid: service.pid, requests: regex },
    ];
    const sampler = new CpuSampler([service.pid, baselineServer.pid, process.pid]).start();
    const cpu: Record<string, RunCpu[]> = {};
    say(`baseline, mix and regex taken in turn: ${settings.warmupS} s warm-up each, then ${settings.runs} runs of ${settings.durationS} s`);
    let measured: Awaited<ReturnType<typeof measureTogether>>;
    try {
      measured = await measureTogether(targets, load, (name, run, figures) => {
        const target = targets.find((t) => t.name === name)!;
        const share = sampler.runJustEnded(target.pid, figures.durationS);
        (cpu[name] ??= []).push(share);
        logRun(name, run, { ...figures, ...share });
      });
    } finally {
      sampler.stop();
    }
    for (const target of targets) {
      const runs: LoadRun[] = measured[target.name]!.runs.map((figures, i) => ({ ...figures, ...cpu[target.name]![i]! }));
      results.scenarios[target.name] = { requestCount: target.requests.length, median: medianRun(runs) as LoadRun, runs };
    }

    results.serviceMemory.afterScenarios = readMemory(service.pid);
    results.serviceErrorLines = service.errorLines();
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await removeBenchData(settings);
  }

  results.finishedAt = new Date().toISOString();
  results.machine.loadAverageAtEnd = Math.round(os.loadavg()[0]! * 100) / 100;
  const verdicts = judge(results);
  results.verdicts = verdicts;
  const written = writeResults(settings.projectRoot, results, markdownReport(results, verdicts), 'registration');
  process.stdout.write(`\n${textReport(results, verdicts)}\n`);
  say(`wrote ${path.relative(settings.projectRoot, written.json)} and ${path.relative(settings.projectRoot, written.markdown)}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    if (interrupted) return;
    process.stderr.write(`registration benchmark failed: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
