import type { Redis } from 'ioredis';
import { connectRedis } from '../bootstrap/connect.js';
import { StartupError } from '../bootstrap/process-runner.js';
import { ConfigError, configKeys, describeSettings, loadConfig, type Config } from '../config.js';
import { countLinkCheckOutcomes, findLinkCheckRun } from '../db/link-check-runs.js';
import { createDb, type Db } from '../db/knex.js';
import { postgresFailureMessage } from '../db/postgres-failure.js';
import { findNamespaceByPrefixIgnoringCase } from '../db/registry-reads.js';
import { runCommand } from '../lib/cli-help.js';
import { formatDuration, parseDuration } from '../lib/duration.js';
import { createQueue, queueNames } from '../queue/queues.js';
import { newManualRunId, planLinkCheckRun } from './plan-run.js';
import { formatRunSummary } from './run-summary.js';

/**
 * `npm run linkcheck -- [--prefix P] [--wait]`: plans a link-check run now, whatever LINKCHECK_ENABLED says
 * (it is asked for by hand), for worker processes to make. It contacts the providers the registry names.
 * Exit codes: 0 planned (with --wait: finished), 1 failed or not finished in time, 2 usage.
 */
const USAGE = [
  'Usage: npm run linkcheck -- [--prefix P] [--wait] [--spread D] [--timeout D]   (node dist/src/cli.js linkcheck ...)',
  'Plans a link check of every provider (sample URL and home page of every resource that is not deprecated) now;',
  'worker processes (npm run start:worker) make the checks. It sends requests to the real providers of the',
  'registry in DATABASE_URL, politely (LINKCHECK_HOST_CONCURRENCY, LINKCHECK_HOST_DELAY_MS), unless they point at fixtures.',
  '  --prefix P    only the resources of namespace P',
  '  --wait        wait for the run to finish: a progress line per batch of checks, then a summary table',
  '  --spread D    spread the checks over D (e.g. 30m, 2h); default LINKCHECK_INTERVAL, or 0s with --wait',
  '  --timeout D   with --wait, give up after D (default: the spread plus 1h)',
].join('\n');

interface Arguments {
  prefix: string | null;
  wait: boolean;
  spreadMs: number | null;
  timeoutMs: number | null;
}

/** A run this long without any worker taking link-check jobs is not waited for further. */
const NO_WORKER_GIVE_UP_MS = 30_000;
const POLL_MS = 500;

function parseArguments(args: readonly string[]): Arguments | null {
  const parsed: Arguments = { prefix: null, wait: false, spreadMs: null, timeoutMs: null };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const [name, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => inline ?? args[++i];
    if (name === '--wait' && inline === undefined) parsed.wait = true;
    else if (name === '--prefix') {
      const prefix = value();
      if (!prefix) return null;
      parsed.prefix = prefix;
    } else if (name === '--spread' || name === '--timeout') {
      const ms = parseDuration(value() ?? '');
      if (ms === null) return null;
      if (name === '--spread') parsed.spreadMs = ms;
      else parsed.timeoutMs = ms;
    } else return null;
  }
  return parsed;
}

const say = (line: string) => process.stdout.write(`${line}\n`);
const warn = (line: string) => process.stderr.write(`${line}\n`);

async function run(args: Arguments): Promise<number> {
  const config = loadConfig();
  const db = createDb(config.DATABASE_URL, { max: 2 });
  let redis: Redis | undefined;
  try {
    try {
      await db.raw('SELECT 1');
    } catch (error) {
      warn(postgresFailureMessage(config.DATABASE_URL, error));
      return 1;
    }
    redis = await connectRedis(config);
    return await planAndFollow(config, db, redis, args);
  } finally {
    redis?.disconnect();
    await db.destroy();
  }
}

async function planAndFollow(config: Readonly<Config>, db: Db, redis: Redis, args: Arguments): Promise<number> {
  let prefix: string | null = null;
  if (args.prefix !== null) {
    const namespace = await findNamespaceByPrefixIgnoringCase(db, args.prefix);
    if (!namespace) {
      warn(`No namespace has the prefix ${JSON.stringify(args.prefix)}.`);
      return 1;
    }
    prefix = namespace.prefix;
  }
  const spreadMs = args.spreadMs ?? (args.wait ? 0 : (parseDuration(config.LINKCHECK_INTERVAL) ?? 0));
  const queue = createQueue(queueNames.linkCheck, redis, config.QUEUE_PREFIX);
  try {
    const started = Date.now();
    const runId = newManualRunId();
    const { planned } = await planLinkCheckRun({ db, queue }, { runId, prefix, spreadMs });
    const what = prefix === null ? 'the whole registry' : `namespace ${prefix}`;
    say(`Planned link-check run ${runId}: ${planned} checks of ${what}, spread over ${formatDuration(spreadMs)}.`);
    if (!args.wait) {
      say('Worker processes make the checks; the run and its results are in link_check_runs and link_checks.');
      return 0;
    }
    const timeoutMs = args.timeoutMs ?? spreadMs + 3_600_000;
    return await follow({ db, queue, runId, started, timeoutMs });
  } finally {
    await queue.close();
  }
}

/** Polls the run until it finishes: a progress line whenever more checks are done, the summary at the end. */
async function follow(deps: {
  db: Db;
  queue: { getWorkersCount: () => Promise<number> };
  runId: string;
  started: number;
  timeoutMs: number;
}): Promise<number> {
  const { db, queue, runId, started, timeoutMs } = deps;
  let lastDone = -1;
  let workerSeenAt = Date.now();
  let warned = false;
  for (;;) {
    const run = await findLinkCheckRun(db, runId);
    if (!run) throw new Error(`the run ${runId} is gone from link_check_runs`);
    if (run.done !== lastDone) {
      lastDone = run.done;
      const share = run.planned > 0 ? Math.floor((100 * run.done) / run.planned) : 100;
      say(`checked ${run.done}/${run.planned} (${share} %)`);
    }
    if (run.finishedAt) {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      say(`\nRun ${runId} finished: ${run.done} checks in ${seconds} s`);
      for (const line of formatRunSummary(await countLinkCheckOutcomes(db, runId))) say(line);
      return 0;
    }
    const now = Date.now();
    if ((await queue.getWorkersCount()) > 0) workerSeenAt = now;
    else if (!warned) {
      warned = true;
      warn('No worker process is taking link-check jobs: start one (npm run start:worker) to make the checks.');
    }
    if (now - workerSeenAt > NO_WORKER_GIVE_UP_MS) {
      warn(`No worker took link-check jobs for ${NO_WORKER_GIVE_UP_MS / 1000} s; stopped waiting. The run's checks stay queued for when one starts.`);
      return 1;
    }
    if (now - started > timeoutMs) {
      warn(`Run ${runId} not finished after ${formatDuration(timeoutMs)} (${run.done} of ${run.planned} checks); stopped waiting. The workers go on with it.`);
      return 1;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

runCommand({
  usage: USAGE,
  settings: describeSettings(configKeys.filter((name) => /^(LINKCHECK_|DATABASE_URL|REDIS_URL|QUEUE_PREFIX)/.test(name))),
  parse: parseArguments,
  run,
  describeFailure: (error) =>
    error instanceof ConfigError || error instanceof StartupError ? error.message : `Link check failed: ${error.message}`,
});
