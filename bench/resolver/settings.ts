import { flag, positiveNumber, readCommonSettings, type CommonSettings } from '../lib/settings.js';

/** Everything the resolver benchmark can be told through the environment, read once. */
export interface BenchSettings extends CommonSettings {
  databaseName: string;
  scaleDatabaseName: string;
  batchRequests: number;
  batchSize: number;
  scaleNamespaces: number;
  /** Seconds of the noisy-neighbour flood (BENCH_NOISY_DURATION, default BENCH_DURATION). */
  noisyDurationS: number;
  skipScale: boolean;
}

export function readSettings(): BenchSettings {
  const common = readCommonSettings({ connections: 50 });
  return {
    ...common,
    databaseName: 'curie_resolver_bench',
    scaleDatabaseName: 'curie_resolver_bench_scale',
    batchRequests: Math.round(positiveNumber('BENCH_BATCH_REQUESTS', 30)),
    batchSize: 1000,
    scaleNamespaces: Math.round(positiveNumber('BENCH_SCALE_NAMESPACES', 100_000)),
    noisyDurationS: positiveNumber('BENCH_NOISY_DURATION', common.durationS),
    skipScale: flag('BENCH_SKIP_SCALE'),
  };
}

/**
 * Settings every resolver under test runs with: the rate limits stay on, so that their cost per request is
 * in the figures, but at a quota no load generator of this benchmark reaches in a minute (one client sends
 * everything, and a limit would turn the measured answers into 429s).
 */
export const RESOLVER_BENCH_ENV: Readonly<Record<string, string>> = {
  RATE_LIMIT_RESOLUTION: '100000000',
  RATE_LIMIT_REVERSE: '100000000',
  RATE_LIMIT_BATCH: '100000000',
  RATE_LIMIT_DATASET: '100000000',
};
