import { redisUrlFor } from '../lib/redis.js';
import { flag, positiveNumber, readCommonSettings, type CommonSettings } from '../lib/settings.js';

/** Everything the registry benchmark can be told through the environment, read once. */
export interface RegistryBenchSettings extends CommonSettings {
  /** Redis database the rollup's day of counters is written to (BENCH_ROLLUP_REDIS_DB, default 14); must be empty. */
  rollupRedisUrl: string;
  databaseName: string;
  scaleDatabaseName: string;
  /** Dataset builds timed at each size (the median is reported, the worst peak RSS). */
  buildRuns: number;
  scaleNamespaces: number;
  skipScale: boolean;
  skipRollup: boolean;
  /** BullMQ key prefix of the areas under test, so that nothing lands in a real deployment's queues. */
  queuePrefix: string;
  /** The day the rollup's counters are written for: a fixed past day no real counter uses. */
  rollupDay: string;
}

export function readRegistrySettings(): RegistryBenchSettings {
  const common = readCommonSettings({ connections: 50 });
  const rollupDb = Math.round(positiveNumber('BENCH_ROLLUP_REDIS_DB', 14));
  const serverDb = Math.round(positiveNumber('BENCH_REDIS_DB', 15));
  if (rollupDb === serverDb) throw new Error(`BENCH_ROLLUP_REDIS_DB and BENCH_REDIS_DB must differ (both ${rollupDb})`);
  return {
    ...common,
    rollupRedisUrl: redisUrlFor(common.redisUrl, rollupDb),
    databaseName: 'curie_registry_bench',
    scaleDatabaseName: 'curie_registry_bench_scale',
    buildRuns: Math.round(positiveNumber('BENCH_BUILD_RUNS', 3)),
    scaleNamespaces: Math.round(positiveNumber('BENCH_SCALE_NAMESPACES', 100_000)),
    skipScale: flag('BENCH_SKIP_SCALE'),
    skipRollup: flag('BENCH_SKIP_ROLLUP'),
    queuePrefix: `bench-registry-${process.pid}`,
    rollupDay: '2000-01-01',
  };
}
