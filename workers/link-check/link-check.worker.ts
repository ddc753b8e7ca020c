import { DelayedError } from 'bullmq';
import { announceLinkChecks } from '../../src/db/link-check-changes.js';
import { fetchForLinkCheck } from '../../src/lib/http-client.js';
import { parseDuration } from '../../src/lib/duration.js';
import { createQueue, queueNames } from '../../src/queue/queues.js';
import { startWorker, type JobFamily, type WorkerDeps } from '../job-family.js';
import { HostLeases } from './host-lease.js';
import { processLinkCheckPlan } from './link-check-plan.processor.js';
import { processLinkCheck } from './link-check.processor.js';

/** Issue 12 limits: at most 5 redirects, the body read up to 64 KiB. */
export const LINK_CHECK_MAX_REDIRECTS = 5;
export const LINK_CHECK_MAX_BODY_BYTES = 64 * 1024;
/** Stored checks are announced at most this often per process: a burst of checks is one notification. */
const ANNOUNCE_AFTER_MS = 300;

/** The User-Agent of link checks: the service, and where its operator can be found. */
export function linkCheckUserAgent(contactUrl: string): string {
  return `Mozilla/5.0 (compatible; curie-resolver-linkcheck/1.0; +${contactUrl})`;
}

/** Calls announceLinkChecks once, shortly after the first of a burst of stored checks. */
function debouncedAnnouncer({ db, logger }: Pick<WorkerDeps, 'db' | 'logger'>) {
  let timer: NodeJS.Timeout | null = null;
  const announce = () => {
    timer = null;
    announceLinkChecks(db).catch((error: unknown) => logger.warn({ err: error }, 'cannot announce stored link checks'));
  };
  return {
    soon: () => {
      timer ??= setTimeout(announce, ANNOUNCE_AFTER_MS);
    },
    flush: () => {
      if (timer) {
        clearTimeout(timer);
        announce();
      }
    },
  };
}

/**
 * Link checking (issue 12): the plan Worker runs the schedule's job (schedules.ts, only while
 * LINKCHECK_ENABLED), which queues one check per (run, resource, URL kind); the check Worker runs them,
 * LINKCHECK_CONCURRENCY at once, each taking its turn at the host's politeness lease in Redis. A check that
 * must wait (its host is busy, or asked to come back later) goes back to the delayed set instead of holding
 * a place. A worker killed mid-check loses its job lock, and another worker checks the URL again.
 */
export const linkCheckFamily: JobFamily = {
  name: 'link-check',
  start: async (deps) => {
    const { config, connection, db, logger } = deps;
    const userAgent = linkCheckUserAgent(config.LINKCHECK_CONTACT_URL || config.PUBLIC_REGISTRY_URL);
    const fetch = (url: string, method: 'GET' | 'HEAD') =>
      fetchForLinkCheck(url, method, {
        allowPrivateNetworks: config.URL_CHECK_ALLOW_PRIVATE_NETWORKS,
        timeoutMs: config.LINKCHECK_TIMEOUT_MS,
        maxRedirects: LINK_CHECK_MAX_REDIRECTS,
        maxBodyBytes: LINK_CHECK_MAX_BODY_BYTES,
        userAgent,
      });
    const leases = new HostLeases(connection, config.QUEUE_PREFIX, {
      concurrency: config.LINKCHECK_HOST_CONCURRENCY,
      delayMs: config.LINKCHECK_HOST_DELAY_MS,
      ttlMs: config.LINKCHECK_TIMEOUT_MS + 5000,
    });
    const announcer = debouncedAnnouncer(deps);
    const processorDeps = { db, fetch, leases, onStored: announcer.soon, logger };
    const checks = startWorker(
      deps,
      queueNames.linkCheck,
      async (job, token) => {
        const step = await processLinkCheck(processorDeps, job);
        if ('done' in step) return step.done;
        await job.updateData({ ...job.data, ...step.later.data });
        await job.moveToDelayed(step.later.at, token);
        // Tells BullMQ the job was moved, not finished: no attempt is used up.
        throw new DelayedError();
      },
      {
        concurrency: config.LINKCHECK_CONCURRENCY,
        lockDuration: config.WORKER_LOCK_DURATION_MS,
        stalledInterval: config.WORKER_LOCK_DURATION_MS,
      },
    );
    checks.on('closed', announcer.flush);
    const checkQueue = createQueue(queueNames.linkCheck, connection, config.QUEUE_PREFIX);
    checkQueue.on('error', (error) => logger.debug({ err: error }, 'link-check queue error'));
    const spreadMs = parseDuration(config.LINKCHECK_INTERVAL) ?? 86_400_000;
    const plans = startWorker(deps, queueNames.linkCheckPlan, (job) => processLinkCheckPlan({ db, queue: checkQueue, spreadMs, logger }, job), {
      concurrency: 1,
      lockDuration: config.WORKER_LOCK_DURATION_MS,
      stalledInterval: config.WORKER_LOCK_DURATION_MS,
    });
    plans.on('closed', () => void checkQueue.close().catch(() => undefined));
    return [checks, plans];
  },
};
