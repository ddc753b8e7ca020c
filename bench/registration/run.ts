/**
 * `npm run bench:registration`: the registration field validator endpoints that need no network check,
 * under load at 10 connections (the acceptance line), next to a minimal Koa baseline measured in the same
 * turns. Writes bench/results/registration.json and bench/results/registration.md. See the README's
 * Benchmarks section.
 */
import { databaseUrlFor, dropDatabase, migrateAndImport, recreateDatabase, readBenchDataset } from '../lib/database.js';
import { removeQueueKeys } from '../lib/redis.js';
import { checkOnce, describeCheck } from '../lib/check-once.js';
import { measureTogether, medianRun, type LoadTarget } from '../lib/load.js';
import { beginResults } from '../lib/results.js';
import { readMemory, startNodeService } from '../lib/server-processes.js';
import { loadOf, say } from '../lib/settings.js';
import { runSuite, type SuiteRun } from '../lib/suite.js';
import type { BenchRequest } from '../lib/workload.js';
import { CpuSampler, type RunCpu } from '../lib/cpu-sampler.js';
import { classifyEndpoints } from './endpoint-classes.js';
import { judge, markdownReport, textReport, type LoadRun, type RegistrationBenchResults, type ScenarioName } from './report.js';
import { buildSamples } from './samples.js';
import { readRegistrationSettings, type RegistrationBenchSettings } from './settings.js';
import { distinctRegexPairs, mixRequests, regexRequests } from './workload.js';

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

async function measureRegistration(run: SuiteRun): Promise<RegistrationBenchResults> {
  const settings = readRegistrationSettings();
  const load = loadOf(settings);
  const begun = beginResults(settings.projectRoot);
  const { namespaces, described } = await readBenchDataset(settings.datasetPath);
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
  const servers = run.servers;
  run.cleanup = () => removeBenchData(settings);

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
    // The benchmark measures the thread pool's throughput, so the cap is the number of connections; for the
    // same reason the per-client rate limits are off (bench:hostile measures them).
    extraEnv: { QUEUE_PREFIX: settings.queuePrefix, REGEX_CHECKS_PER_CLIENT: String(settings.connections), RATE_LIMITS: 'false' },
  });
  servers.push(service);
  const afterStart = readMemory(service.pid);
  say(`registry area ready on port ${service.port} after ${service.startMs} ms, RSS ${afterStart.rssMb} MB`);

  const results: RegistrationBenchResults = {
    ...begun,
    settings: {
      ...load,
      redisUrl: settings.redisUrl,
      queuePrefix: settings.queuePrefix,
    },
    dataset: described,
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
  return results;
}

function report(results: RegistrationBenchResults): { markdown: string; text: string } {
  const verdicts = judge(results);
  results.verdicts = verdicts;
  return { markdown: markdownReport(results, verdicts), text: textReport(results, verdicts) };
}

runSuite('registration', { measure: measureRegistration, report });
