import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '../src/lib/logger.js';
import { createQueue, type QueueName } from '../src/queue/queues.js';
import type { JobSchedule } from './schedules.js';

export interface ScheduleKeeperDeps {
  schedules: JobSchedule[];
  /** The worker process's connection: it waits for Redis to come back instead of failing the check. */
  connection: Redis;
  prefix: string;
  /** WORKER_SCHEDULE_CHECK_INTERVAL_MS. */
  intervalMs: number;
  logger: Logger;
}

/**
 * Keeps every job schedule in Redis. Schedulers live only there: a Redis that comes back empty (a failover
 * to a replica without the data, a restart without persistence, a FLUSHALL) loses them, and nothing would
 * run again until a worker restarted. So each worker upserts them all at start, and afterwards checks on
 * every reconnection ('ready') and every `intervalMs` (a FLUSHALL keeps the connection) and puts back any
 * that is missing. Upserting a stable id is idempotent, so any number of workers doing it leave one schedule.
 */
export class ScheduleKeeper {
  private readonly queues = new Map<string, Queue>();
  private timer: NodeJS.Timeout | null = null;
  private checking = false;
  private again = false;

  constructor(private readonly deps: ScheduleKeeperDeps) {}

  /** Upserts every schedule (its options may have changed since the last start), then keeps watch. */
  async start(): Promise<void> {
    await this.assertSchedules(true);
    this.deps.connection.on('ready', this.checkSoon);
    this.timer = setInterval(this.checkSoon, this.deps.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.deps.connection.off('ready', this.checkSoon);
    // A check waiting for an absent Redis is not awaited: its commands fail when the connection closes.
    await Promise.all([...this.queues.values()].map((queue) => queue.close().catch(() => undefined)));
  }

  /** One check at a time; a reason to check during one runs one more after it. */
  private readonly checkSoon = (): void => {
    if (this.checking) {
      this.again = true;
      return;
    }
    this.checking = true;
    this.assertSchedules(false)
      .catch((error: unknown) => this.deps.logger.warn({ err: error }, 'cannot check the job schedules; trying again later'))
      .finally(() => {
        this.checking = false;
        if (this.again) {
          this.again = false;
          this.checkSoon();
        }
      });
  };

  /**
   * `always`: upsert every schedule (at start) and remove those a setting turned off; otherwise put back only
   * those Redis no longer has.
   */
  private async assertSchedules(always: boolean): Promise<void> {
    for (const schedule of this.deps.schedules) {
      const queue = this.queueFor(schedule.queue);
      if (schedule.off) {
        if (always) await queue.removeJobScheduler(schedule.id);
        continue;
      }
      const existed = (await queue.getJobScheduler(schedule.id)) !== undefined;
      if (existed && !always) continue;
      await queue.upsertJobScheduler(schedule.id, schedule.repeat, schedule.template);
      if (existed) continue;
      if (!always) this.deps.logger.warn({ scheduler: schedule.id }, 'job schedule missing from Redis (emptied or replaced); put back');
      if (schedule.catchUp) await queue.add(schedule.template.name, schedule.template.data, schedule.catchUp);
    }
  }

  private queueFor(name: QueueName): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = createQueue(name, this.deps.connection, this.deps.prefix);
      // An unhandled 'error' event would crash the process; the connection reconnects by itself.
      queue.on('error', (error) => this.deps.logger.debug({ err: error, queue: name }, 'schedule queue error'));
      this.queues.set(name, queue);
    }
    return queue;
  }
}
