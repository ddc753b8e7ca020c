import path from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import { projectRoot } from './lib/project-root.js';

/**
 * Every setting of the service, read from the environment once at start.
 * Nothing else in the code reads process.env: it receives a Config.
 */
const configSchema = {
  type: 'object',
  properties: {
    DATABASE_URL: {
      type: 'string',
      pattern: '^postgres(ql)?://',
      maxLength: 2000,
      default: 'postgres://postgres@127.0.0.1:5432/curie_resolver',
      description: 'PostgreSQL connection URL; the database is created on start if it is missing.',
    },
    REDIS_URL: {
      type: 'string',
      pattern: '^rediss?://',
      maxLength: 2000,
      default: 'redis://127.0.0.1:6379',
      description: 'Redis connection URL (queues and usage counters only; no registry data).',
    },
    HOST: {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      default: '0.0.0.0',
      description: 'Address both HTTP areas listen on.',
    },
    RESOLVER_PORT: {
      type: 'integer',
      minimum: 0,
      maximum: 65535,
      default: 8080,
      description: 'Port of the resolver area (resolution, redirects, reverse lookup).',
    },
    REGISTRY_PORT: {
      type: 'integer',
      minimum: 0,
      maximum: 65535,
      default: 8081,
      description: 'Port of the registry area (browse, dataset, registration, statistics).',
    },
    PUBLIC_RESOLVER_URL: {
      type: 'string',
      pattern: '^https?://[^/?#]+(/[^?#]*)?$',
      maxLength: 2000,
      default: 'http://localhost:8080',
      description: 'Public base URL of the resolver area, used for every absolute resolver link printed.',
    },
    PUBLIC_REGISTRY_URL: {
      type: 'string',
      pattern: '^https?://[^/?#]+(/[^?#]*)?$',
      maxLength: 2000,
      default: 'http://localhost:8081',
      description: 'Public base URL of the registry area, used for every absolute registry link printed.',
    },
    LOG_LEVEL: {
      type: 'string',
      enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
      default: 'info',
      description: 'Log level. One line per request is written at debug; at info only a sample of requests (see LOG_REQUEST_SAMPLE_RATE) and every error.',
    },
    LOG_REQUEST_SAMPLE_RATE: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      default: 0.001,
      description: 'Share of requests logged at info level; an access line per request costs about 13 % of resolution throughput.',
    },
    HTTP_REQUEST_TIMEOUT_MS: {
      type: 'integer',
      minimum: 1000,
      maximum: 600000,
      default: 30000,
      description: 'Longest time a client may take to send a whole request (Node requestTimeout).',
    },
    HTTP_KEEP_ALIVE_TIMEOUT_MS: {
      type: 'integer',
      minimum: 1000,
      maximum: 600000,
      default: 65000,
      description: 'Idle keep-alive timeout; above the usual 60 s of load balancers so they close first.',
    },
    SHUTDOWN_TIMEOUT_MS: {
      type: 'integer',
      minimum: 100,
      maximum: 120000,
      default: 10000,
      description: 'After a stop signal, force the exit after this long if connections or jobs do not drain.',
    },
    SNAPSHOT_CHECK_INTERVAL_MS: {
      type: 'integer',
      minimum: 100,
      maximum: 3600000,
      default: 30000,
      description: 'How often the resolver checks the registry version in case a change notification was missed (changes normally arrive at once through LISTEN/NOTIFY).',
    },
    USAGE_COUNTING: {
      type: 'boolean',
      default: true,
      description: 'Count resolutions per namespace for the usage statistics (requests with DNT: 1 are never counted).',
    },
    USAGE_FLUSH_INTERVAL_MS: {
      type: 'integer',
      minimum: 100,
      maximum: 60000,
      default: 1000,
      description: 'How often the in-process usage counters are flushed to Redis; a crash loses at most this much.',
    },
    TRUST_PROXY: {
      type: 'boolean',
      default: false,
      description: 'Take the client address from X-Forwarded-For (set when behind a reverse proxy).',
    },
    QUEUE_PREFIX: {
      type: 'string',
      pattern: '^[A-Za-z0-9_.-]+$',
      maxLength: 100,
      default: 'bull',
      description: 'Redis key prefix of every BullMQ queue; deployments sharing one Redis use different ones.',
    },
    DATASET_DIR: {
      type: 'string',
      minLength: 1,
      maxLength: 4000,
      default: 'var/dataset',
      description: 'Directory of the prebuilt resolver dataset files (written by the worker, served by the registry area; both must see the same directory). A relative path is taken from the project root.',
    },
    DATASET_FIRST_BUILD_WAIT_MS: {
      type: 'integer',
      minimum: 0,
      maximum: 600000,
      default: 60000,
      description: 'When no dataset has been built yet, how long a request for it waits for the first build before answering 503 with Retry-After.',
    },
    WORKER_LOCK_DURATION_MS: {
      type: 'integer',
      minimum: 1000,
      maximum: 3600000,
      default: 30000,
      description: 'How long a worker holds a job without renewing its lock, and how often workers look for stalled jobs: a job whose worker died is retried by another worker after about twice this long.',
    },
    SEED_SAMPLE_REGISTRY: {
      type: 'boolean',
      default: true,
      description: 'Load the small sample registry on start when the registry is empty.',
    },
  },
  additionalProperties: true,
} as const;

export interface Config {
  DATABASE_URL: string;
  REDIS_URL: string;
  HOST: string;
  RESOLVER_PORT: number;
  REGISTRY_PORT: number;
  PUBLIC_RESOLVER_URL: string;
  PUBLIC_REGISTRY_URL: string;
  LOG_LEVEL: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  LOG_REQUEST_SAMPLE_RATE: number;
  HTTP_REQUEST_TIMEOUT_MS: number;
  HTTP_KEEP_ALIVE_TIMEOUT_MS: number;
  SHUTDOWN_TIMEOUT_MS: number;
  SNAPSHOT_CHECK_INTERVAL_MS: number;
  USAGE_COUNTING: boolean;
  USAGE_FLUSH_INTERVAL_MS: number;
  TRUST_PROXY: boolean;
  QUEUE_PREFIX: string;
  DATASET_DIR: string;
  DATASET_FIRST_BUILD_WAIT_MS: number;
  WORKER_LOCK_DURATION_MS: number;
  SEED_SAMPLE_REGISTRY: boolean;
}

export type ConfigKey = keyof Config;
export const configKeys = Object.keys(configSchema.properties) as ConfigKey[];

/** Descriptions for the README and `--help` output, straight from the schema. */
export function describeConfig(): { name: string; default: unknown; description: string }[] {
  return Object.entries(configSchema.properties).map(([name, p]) => ({
    name,
    default: p.default,
    description: p.description,
  }));
}

// coerceTypes turns "8080" into 8080 and "false" into false; useDefaults fills what is unset.
const ajv = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: true });
const validateConfig = ajv.compile(configSchema);

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

function describeProblem(error: ErrorObject, env: Record<string, unknown>): string {
  const name = error.instancePath.replace(/^\//, '');
  const shown = JSON.stringify(env[name]);
  if (error.keyword === 'enum') {
    return `${name}=${shown} must be one of ${(error.params as { allowedValues: string[] }).allowedValues.join(', ')}`;
  }
  if (error.keyword === 'pattern') return `${name}=${shown} is not a valid URL of the expected kind`;
  return `${name}=${shown} ${error.message ?? 'is invalid'}`;
}

/** Parses the environment (allErrors is safe here: the operator, not a client, writes it). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<Config> {
  const candidate: Record<string, unknown> = {};
  for (const key of configKeys) {
    const value = env[key];
    if (value !== undefined && value !== '') candidate[key] = value;
  }
  const original = { ...candidate };
  if (!validateConfig(candidate)) {
    const seen = new Set<string>();
    const problems = (validateConfig.errors ?? [])
      .filter((e) => {
        const name = e.instancePath;
        if (seen.has(name)) return false;
        seen.add(name);
        return true;
      })
      .map((e) => describeProblem(e, original));
    throw new ConfigError(problems);
  }
  const config = candidate as unknown as Config;
  config.PUBLIC_RESOLVER_URL = config.PUBLIC_RESOLVER_URL.replace(/\/+$/, '');
  config.PUBLIC_REGISTRY_URL = config.PUBLIC_REGISTRY_URL.replace(/\/+$/, '');
  config.DATASET_DIR = path.resolve(projectRoot(), config.DATASET_DIR);
  return Object.freeze(config);
}

/** Database name from DATABASE_URL, for messages and for creating it when missing. */
export function databaseName(databaseUrl: string): string {
  return decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, '')) || 'postgres';
}
