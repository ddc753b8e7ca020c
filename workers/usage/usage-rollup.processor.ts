import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Db } from '../../src/db/knex.js';
import type { UsageRollupJob } from '../../src/queue/queues.js';
import { rollUpUsage, type RollupResult } from '../../src/statistics/usage-rollup.js';

/** Rolls finished days of usage counters into Postgres; safe to run twice (the rows come out the same). */
export async function processUsageRollup(deps: { db: Db; redis: Redis }, job: Pick<Job<UsageRollupJob>, 'data'>): Promise<RollupResult> {
  return rollUpUsage(deps.db, deps.redis, { day: job.data.day });
}
