import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { projectRoot } from '../../src/lib/project-root.js';
import { redisUrlFor } from './bench-redis.js';

/** Everything the benchmark can be told through the environment, read once. */
export interface BenchSettings {
  projectRoot: string;
  datasetPath: string;
  /** Server URLs the bench databases are derived from (only the database name is replaced). */
  baseDatabaseUrl: string;
  /** REDIS_URL with the benchmark's own database index (BENCH_REDIS_DB, default 15). */
  redisUrl: string;
  databaseName: string;
  scaleDatabaseName: string;
  connections: number;
  durationS: number;
  warmupS: number;
  runs: number;
  batchRequests: number;
  batchSize: number;
  scaleNamespaces: number;
  /** Seconds of the noisy-neighbour flood (BENCH_NOISY_DURATION, default BENCH_DURATION). */
  noisyDurationS: number;
  skipScale: boolean;
  keepDb: boolean;
}

export function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name}=${JSON.stringify(raw)} must be a positive number`);
  return value;
}

export function flag(name: string): boolean {
  const raw = process.env[name];
  return raw !== undefined && raw !== '' && raw !== '0' && raw.toLowerCase() !== 'false';
}

export function readSettings(): BenchSettings {
  const root = projectRoot();
  // DATABASE_URL / REDIS_URL (or their defaults) say where the servers are; the benchmark never touches the
  // database DATABASE_URL names, only its own ones on the same server.
  const config = loadConfig();
  return {
    projectRoot: root,
    datasetPath: path.resolve(root, process.env.REGISTRY_DATASET || '../shared/data/identifiers-org-registry.json'),
    baseDatabaseUrl: config.DATABASE_URL,
    redisUrl: redisUrlFor(config.REDIS_URL, Math.round(positiveNumber('BENCH_REDIS_DB', 15))),
    databaseName: 'curie_resolver_bench',
    scaleDatabaseName: 'curie_resolver_bench_scale',
    connections: Math.round(positiveNumber('BENCH_CONNECTIONS', 50)),
    durationS: positiveNumber('BENCH_DURATION', 10),
    warmupS: positiveNumber('BENCH_WARMUP', 2),
    runs: Math.round(positiveNumber('BENCH_RUNS', 3)),
    batchRequests: Math.round(positiveNumber('BENCH_BATCH_REQUESTS', 30)),
    batchSize: 1000,
    scaleNamespaces: Math.round(positiveNumber('BENCH_SCALE_NAMESPACES', 100_000)),
    noisyDurationS: positiveNumber('BENCH_NOISY_DURATION', positiveNumber('BENCH_DURATION', 10)),
    skipScale: flag('BENCH_SKIP_SCALE'),
    keepDb: flag('BENCH_KEEP_DB'),
  };
}

/** Progress goes to stderr so that stdout carries only the result table. */
export function say(message: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}
