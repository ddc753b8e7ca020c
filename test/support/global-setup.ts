/**
 * jest's globalSetup (jest.config.js): what a test run sets up once for all its files.
 *
 * 1. The Redis databases a test run has to itself, one per jest worker: keys a test writes outside its own
 * queue prefix (the usage counters are keyed by day) cannot then meet another file's running at the same
 * time. It claims them and lists them in TEST_REDIS_URLS; test-database.ts gives each worker its own
 * (TEST_REDIS_URL), and every test and every process a test spawns uses that, so whatever is in those
 * databases at the end was left by this run, even while other runs share the Redis server. At globalTeardown
 * (global-teardown.ts) the run fails when keys are left, names them and removes them.
 *
 * A database is claimed with SET NX (with an expiry, in case the run is killed) and only when it is empty or
 * carries the marker of an earlier test run, whose leftovers are then removed; a database with other data is
 * never touched. Without TEST_REDIS_URL the run looks for one among databases 1 to 15 of 127.0.0.1:6379,
 * leaving database 0 to applications; with TEST_REDIS_URL it claims the database that names, or stops.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '@jest/types';
import { Redis } from 'ioredis';
import { chromium } from 'playwright-core';

// jest loads this file by itself, resolving imports natively, where `../x.js` finds no x.ts: packages only.

const CLAIM_KEY = 'curie-resolver-tests:claim';
const MARKER_KEY = 'curie-resolver-tests:marker';
const OWN_KEYS = new Set([CLAIM_KEY, MARKER_KEY]);
const CLAIM_SECONDS = 6 * 3600;
const DEFAULT_SERVER = 'redis://127.0.0.1:6379';
const CANDIDATE_DBS = Array.from({ length: 15 }, (_, i) => i + 1);

/** Where globalSetup leaves work for globalTeardown (global-teardown.ts); both run in jest's main process. */
const TEARDOWN = Symbol.for('curie-resolver.tests.teardown');
type Teardown = () => Promise<void>;

function atTeardown(step: Teardown): void {
  const registry = globalThis as unknown as Record<symbol, Teardown[] | undefined>;
  (registry[TEARDOWN] ??= []).push(step);
}

function withDb(url: string, db: number): string {
  const parsed = new URL(url);
  parsed.pathname = `/${db}`;
  return parsed.toString();
}

function dbOf(url: string): number {
  const path = new URL(url).pathname.replace(/^\//, '');
  return path === '' ? 0 : Number(path);
}

class Unreachable extends Error {}

/** One connection, no retries: this runs once per test run, and a Redis that is down should say so at once. */
async function open(url: string): Promise<Redis> {
  let lastError: unknown;
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 1, retryStrategy: () => null });
  redis.on('error', (error) => (lastError = error));
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new Unreachable(String(lastError ?? error));
  }
  return redis;
}

async function scanAll(redis: Redis): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'COUNT', 1000);
    keys.push(...batch);
    cursor = next;
  } while (cursor !== '0');
  return keys.filter((key) => !OWN_KEYS.has(key));
}

async function deleteAll(redis: Redis, keys: string[]): Promise<number> {
  let deleted = 0;
  for (let i = 0; i < keys.length; i += 1000) deleted += await redis.del(...keys.slice(i, i + 1000));
  return deleted;
}

/** Deletes the claim only if it is still this run's (a claim that expired may have been taken since). */
const RELEASE_SCRIPT = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

async function release(redis: Redis, runId: string): Promise<void> {
  await redis.eval(RELEASE_SCRIPT, 1, CLAIM_KEY, runId);
}

/** Claims `url`'s database; says why not when it cannot. */
async function tryClaim(url: string, runId: string): Promise<{ claimed: true; removed: number } | { claimed: false; why: string }> {
  const redis = await open(withDb(url, dbOf(url)));
  try {
    if ((await redis.set(CLAIM_KEY, runId, 'EX', CLAIM_SECONDS, 'NX')) !== 'OK') return { claimed: false, why: 'another test run is using it' };
    const marked = (await redis.exists(MARKER_KEY)) === 1;
    if (!marked && (await redis.dbsize()) > 1) {
      await release(redis, runId);
      return { claimed: false, why: "it holds keys that are not a test run's" };
    }
    const removed = marked ? await deleteAll(redis, await scanAll(redis)) : 0;
    await redis.set(MARKER_KEY, 'a database for test runs: emptied by the next run that claims it');
    return { claimed: true, removed };
  } finally {
    redis.disconnect();
  }
}

/** Claims `count` databases (one when TEST_REDIS_URL names one), lists them in TEST_REDIS_URLS. */
async function claimRedisTestDbs(count: number): Promise<void> {
  const runId = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const explicit = process.env.TEST_REDIS_URL;
  const candidates = explicit ? [explicit] : CANDIDATE_DBS.map((db) => withDb(DEFAULT_SERVER, db));
  const refusals: string[] = [];
  const claimed: string[] = [];
  for (const url of candidates) {
    if (claimed.length === count) break;
    let outcome: Awaited<ReturnType<typeof tryClaim>>;
    try {
      outcome = await tryClaim(url, runId);
    } catch (error) {
      if (error instanceof Unreachable) {
        // No Redis at all: the tests that need it fail saying so; the others still run.
        console.warn(`\nNo Redis at ${url} (${error.message}): the tests that use Redis will fail.`);
        return;
      }
      refusals.push(`db ${dbOf(url)}: ${String(error)}`);
      continue;
    }
    if (outcome.claimed) {
      const database = withDb(url, dbOf(url));
      claimed.push(database);
      atTeardown(() => releaseRedisTestDb(database, runId));
      if (outcome.removed > 0) console.warn(`\nRemoved ${outcome.removed} keys an earlier test run left in ${database}.`);
      continue;
    }
    refusals.push(`db ${dbOf(url)}: ${outcome.why}`);
  }
  if (claimed.length === 0) {
    throw new Error(
      `No Redis database for this test run: ${refusals.join('; ')}. ` +
        'Set TEST_REDIS_URL to a database the tests may have to themselves, e.g. redis://127.0.0.1:6379/1.',
    );
  }
  // Fewer than asked for (other runs hold the rest): workers share them, as every file did before workers.
  process.env.TEST_REDIS_URLS = claimed.join(',');
  process.env.TEST_REDIS_URL = claimed[0];
}

/**
 * 2. One Chromium for the run's browser test files (browser.ts connects to it), started only when the run
 * includes one: launching it costs about a second of CPU and ~150 MB. Stopped at globalTeardown.
 */
async function startSharedChromium(globalConfig: Config.GlobalConfig): Promise<void> {
  const executablePath = '/usr/bin/chromium';
  if (!existsSync(executablePath)) return;
  const root = globalConfig.rootDir;
  const browserFiles = (readdirSync(path.join(root, 'test'), { recursive: true }) as string[])
    .filter((file) => /\.browser\.test\.tsx?$/.test(file))
    .map((file) => path.join(root, 'test', file));
  const pattern = globalConfig.testPathPattern ? new RegExp(globalConfig.testPathPattern, 'i') : undefined;
  if (!browserFiles.some((file) => pattern === undefined || pattern.test(file))) return;
  const server = await chromium.launchServer({
    executablePath,
    headless: true,
    // The same flags as browser.ts's own launch.
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  process.env.TEST_CHROMIUM_WS = server.wsEndpoint();
  // Outlives every file: the environment (process-cleanup-environment.js) leaves it be.
  process.env.TEST_CHROMIUM_PID = String(server.process().pid);
  atTeardown(() => server.close());
}

export default async function globalSetup(globalConfig: Config.GlobalConfig): Promise<void> {
  await claimRedisTestDbs(Math.max(1, globalConfig.maxWorkers));
  await startSharedChromium(globalConfig);
}

/** Fails the run when it left keys in its database; removes them, and the claim. */
async function releaseRedisTestDb(url: string, runId: string): Promise<void> {
  const redis = await open(url);
  try {
    const left = (await scanAll(redis)).sort();
    await deleteAll(redis, left);
    await redis.del(MARKER_KEY);
    if (left.length > 0) {
      // Queue keys are `<prefix>:<queue>:…`: counted by prefix, they name the test that left them.
      const byPrefix = new Map<string, number>();
      for (const key of left) {
        const prefix = key.split(':')[0]!;
        byPrefix.set(prefix, (byPrefix.get(prefix) ?? 0) + 1);
      }
      const summary = [...byPrefix].map(([prefix, count]) => `${prefix}:* (${count})`).join(', ');
      throw new Error(
        `The test run left ${left.length} keys in Redis (${url}): ${summary}. First ones: ${left.slice(0, 10).join(' ')}. ` +
          'A test that writes to Redis deletes its keys in afterAll (deleteQueueKeys for a queue prefix, once the ' +
          'worker processes using it have exited). They have been removed now.',
      );
    }
  } finally {
    try {
      await release(redis, runId);
    } finally {
      redis.disconnect();
    }
  }
}
