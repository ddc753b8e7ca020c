import { redisUrlFor } from '../resolver/bench-redis.js';
import { flag, positiveNumber, readSettings } from '../resolver/settings.js';

/** Everything the registry benchmark can be told through the environment, read once. */
export interface RegistryBenchSettings {
  projectRoot: string;
  datasetPath: string;
  /** Server URL the bench databases are derived from (only the database name is replaced). */
  baseDatabaseUrl: string;
  /** Redis of the registry areas under test (BENCH_REDIS_DB, default 15, as the resolver benchmark). */
  redisUrl: string;
  /** Redis database the rollup's day of counters is written to (BENCH_ROLLUP_REDIS_DB, default 14); must be empty. */
  rollupRedisUrl: string;
  databaseName: string;
  scaleDatabaseName: string;
  connections: number;
  durationS: number;
  warmupS: number;
  runs: number;
  /** Dataset builds timed at each size (the median is reported, the worst peak RSS). */
  buildRuns: number;
  scaleNamespaces: number;
  skipScale: boolean;
  skipRollup: boolean;
  keepDb: boolean;
  /** BullMQ key prefix of the areas under test, so that nothing lands in a real deployment's queues. */
  queuePrefix: string;
  /** The day the rollup's counters are written for: a fixed past day no real counter uses. */
  rollupDay: string;
}

export function readRegistrySettings(): RegistryBenchSettings {
  // The resolver benchmark's reading of the shared settings (dataset, servers, BENCH_CONNECTIONS, ...).
  const base = readSettings();
  const rollupDb = Math.round(positiveNumber('BENCH_ROLLUP_REDIS_DB', 14));
  const serverDb = Math.round(positiveNumber('BENCH_REDIS_DB', 15));
  if (rollupDb === serverDb) throw new Error(`BENCH_ROLLUP_REDIS_DB and BENCH_REDIS_DB must differ (both ${rollupDb})`);
  return {
    projectRoot: base.projectRoot,
    datasetPath: base.datasetPath,
    baseDatabaseUrl: base.baseDatabaseUrl,
    redisUrl: base.redisUrl,
    rollupRedisUrl: redisUrlFor(base.redisUrl, rollupDb),
    databaseName: 'curie_registry_bench',
    scaleDatabaseName: 'curie_registry_bench_scale',
    connections: base.connections,
    durationS: base.durationS,
    warmupS: base.warmupS,
    runs: base.runs,
    buildRuns: Math.round(positiveNumber('BENCH_BUILD_RUNS', 3)),
    scaleNamespaces: base.scaleNamespaces,
    skipScale: base.skipScale,
    skipRollup: flag('BENCH_SKIP_ROLLUP'),
    keepDb: base.keepDb,
    queuePrefix: `bench-registry-${process.pid}`,
    rollupDay: '2000-01-01',
  };
}
