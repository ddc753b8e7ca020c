import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { projectRoot } from '../../src/lib/project-root.js';
import type { LoadSettings } from './load.js';
import { redisUrlFor } from './redis.js';

/** What every benchmark is told through the environment; each suite's settings add their own. */
export interface CommonSettings extends LoadSettings {
  projectRoot: string;
  datasetPath: string;
  /** Server URL the bench databases are derived from (only the database name is replaced). */
  baseDatabaseUrl: string;
  /** REDIS_URL with the benchmark's own database index (BENCH_REDIS_DB, default 15). */
  redisUrl: string;
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

/** The shared settings; `connections` is the suite's default for BENCH_CONNECTIONS. */
export function readCommonSettings(defaults: { connections: number }): CommonSettings {
  const root = projectRoot();
  // DATABASE_URL / REDIS_URL (or their defaults) say where the servers are; the benchmark never touches the
  // database DATABASE_URL names, only its own ones on the same server.
  const config = loadConfig();
  return {
    projectRoot: root,
    datasetPath: path.resolve(root, process.env.REGISTRY_DATASET || '../shared/data/identifiers-org-registry.json'),
    baseDatabaseUrl: config.DATABASE_URL,
    redisUrl: redisUrlFor(config.REDIS_URL, Math.round(positiveNumber('BENCH_REDIS_DB', 15))),
    connections: Math.round(positiveNumber('BENCH_CONNECTIONS', defaults.connections)),
    durationS: positiveNumber('BENCH_DURATION', 10),
    warmupS: positiveNumber('BENCH_WARMUP', 2),
    runs: Math.round(positiveNumber('BENCH_RUNS', 3)),
    keepDb: flag('BENCH_KEEP_DB'),
  };
}

/** The load part of a suite's settings, as its results record it (this field order). */
export const loadOf = (settings: LoadSettings): LoadSettings => ({
  connections: settings.connections,
  durationS: settings.durationS,
  warmupS: settings.warmupS,
  runs: settings.runs,
});

/** Progress goes to stderr so that stdout carries only the result table. */
export function say(message: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}
