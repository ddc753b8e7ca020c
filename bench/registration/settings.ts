import { flag, positiveNumber, readSettings } from '../resolver/settings.js';

/** Everything the registration benchmark can be told through the environment, read once. */
export interface RegistrationBenchSettings {
  projectRoot: string;
  datasetPath: string;
  /** Server URL the bench database is derived from (only the database name is replaced). */
  baseDatabaseUrl: string;
  /** Redis of the registry area under test (BENCH_REDIS_DB, default 15, as the other benchmarks). */
  redisUrl: string;
  databaseName: string;
  connections: number;
  durationS: number;
  warmupS: number;
  runs: number;
  keepDb: boolean;
  /** BullMQ key prefix of the area under test, so that nothing lands in a real deployment's queues. */
  queuePrefix: string;
}

export function readRegistrationSettings(): RegistrationBenchSettings {
  // The resolver benchmark's reading of the shared settings (dataset, servers, durations, ...).
  const base = readSettings();
  return {
    projectRoot: base.projectRoot,
    datasetPath: base.datasetPath,
    baseDatabaseUrl: base.baseDatabaseUrl,
    redisUrl: base.redisUrl,
    databaseName: 'curie_registration_bench',
    // The acceptance line is stated at 10 concurrent connections (a form's traffic, not a crawler's).
    connections: Math.round(positiveNumber('BENCH_CONNECTIONS', 10)),
    durationS: base.durationS,
    warmupS: base.warmupS,
    runs: base.runs,
    keepDb: flag('BENCH_KEEP_DB'),
    queuePrefix: `bench-registration-${process.pid}`,
  };
}
