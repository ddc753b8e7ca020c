import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Db } from '../../src/db/knex.js';
import { checkUsageRollupJob, type RollupResult, type UsageRollupJob } from '../../src/queue/usage-rollup.queue.js';
import { rollUpUsage } from '../../src/statistics/usage-rollup.js';
import { refuseUnprocessable } from '../job-family.js';

/**
 * Rolls finished days of usage counters into Postgres; safe to run twice (the rows come out the same). A day
 * that is not a date fails at once (UnrecoverableError): Postgres would refuse it on every attempt.
 */
export async function processUsageRollup(deps: { db: Db; redis: Redis }, job: Pick<Job<UsageRollupJob>, 'data'>): Promise<RollupResult> {
  refuseUnprocessable(checkUsageRollupJob(job.data));
  return rollUpUsage(deps.db, deps.redis, { day: job.data.day });
}
