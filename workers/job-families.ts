import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Config } from '../src/config.js';
import type { Db } from '../src/db/knex.js';
import type { Logger } from '../src/lib/logger.js';
import { datasetBuildFamily } from './dataset/dataset.worker.js';
import { usageRollupFamily } from './usage/usage-rollup.worker.js';
import { urlCheckFamily } from './url-check/url-check.worker.js';
import { notificationsFamily } from './notifications/notifications.worker.js';
import { housekeepingFamily } from './housekeeping/housekeeping.worker.js';

export interface WorkerDeps {
  config: Readonly<Config>;
  db: Db;
  /** Shared blocking-safe connection (maxRetriesPerRequest: null) for every Worker of this process. */
  connection: Redis;
  logger: Logger;
}

/** One job family: wires its Worker(s). Their schedules are one list, in schedules.ts. */
export interface JobFamily {
  name: string;
  start: (deps: WorkerDeps) => Promise<Worker[]>;
}

/**
 * Every job family this process runs. Later features (dataset build, statistics rollup, URL checks)
 * append theirs; an operator scales them all by starting more worker processes.
 */
export const jobFamilies: JobFamily[] = [usageRollupFamily, datasetBuildFamily, urlCheckFamily, notificationsFamily, housekeepingFamily];
