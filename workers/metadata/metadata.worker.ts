import { DelayedError } from 'bullmq';
import { fetchPage } from '../../src/lib/http-client.js';
import { queueNames } from '../../src/queue/queues.js';
import { startWorker, type JobFamily } from '../job-family.js';
import { HostLeases } from '../link-check/host-lease.js';
import { extractMetadata } from './extract-metadata.js';
import { processMetadata } from './metadata.processor.js';

/** At most 5 redirects, as the other fetchers. */
export const METADATA_MAX_REDIRECTS = 5;

/**
 * Provider page metadata (issue 25, item 3): the resolver enqueues a page (one job per URL, by a
 * deterministic job id) and polls for the answer this worker stores. Each fetch takes its turn at the host's
 * politeness lease in Redis (a family of its own, beside the link checker's); a job whose host is busy goes
 * back to the delayed set instead of holding a place. A worker killed mid-fetch loses its job lock, and
 * another worker fetches the page again.
 */
export const metadataFamily: JobFamily = {
  name: 'metadata',
  start: async (deps) => {
    const { config, connection, logger } = deps;
    const userAgent = `Mozilla/5.0 (compatible; curie-resolver-metadata/1.0; +${config.LINKCHECK_CONTACT_URL || config.PUBLIC_REGISTRY_URL})`;
    const fetch = (url: string) =>
      fetchPage(url, {
        allowPrivateNetworks: config.URL_CHECK_ALLOW_PRIVATE_NETWORKS,
        timeoutMs: config.METADATA_TIMEOUT_MS,
        maxRedirects: METADATA_MAX_REDIRECTS,
        maxBodyBytes: config.METADATA_MAX_BODY_BYTES,
        userAgent,
      });
    const leases = new HostLeases(
      connection,
      config.QUEUE_PREFIX,
      { concurrency: config.METADATA_HOST_CONCURRENCY, delayMs: config.METADATA_HOST_DELAY_MS, ttlMs: config.METADATA_TIMEOUT_MS + 5000 },
      'metadata',
    );
    const processorDeps = {
      fetch,
      extract: extractMetadata,
      leases,
      redis: connection,
      prefix: config.QUEUE_PREFIX,
      cacheSeconds: config.METADATA_CACHE_SECONDS,
      errorCacheSeconds: config.METADATA_ERROR_CACHE_SECONDS,
      timeoutMs: config.METADATA_TIMEOUT_MS,
      logger,
    };
    const worker = startWorker(
      deps,
      queueNames.metadata,
      async (job, token) => {
        const step = await processMetadata(processorDeps, job);
        if ('done' in step) return step.done;
        await job.moveToDelayed(step.later.at, token);
        // Tells BullMQ the job was moved, not finished: no attempt is used up.
        throw new DelayedError();
      },
      {
        concurrency: config.METADATA_CONCURRENCY,
        lockDuration: config.WORKER_LOCK_DURATION_MS,
        stalledInterval: config.WORKER_LOCK_DURATION_MS,
      },
    );
    return [worker];
  },
};
