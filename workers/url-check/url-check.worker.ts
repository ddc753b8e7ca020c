import { fetchForCheck } from '../../src/lib/http-client.js';
import { queueNames } from '../../src/queue/queues.js';
import { startWorker, type JobFamily } from '../job-family.js';
import { processUrlCheck } from './url-check.processor.js';

/** Spec §2.4 limits: at most 5 redirects, the body read up to 1 MiB. */
export const URL_CHECK_MAX_REDIRECTS = 5;
export const URL_CHECK_MAX_BODY_BYTES = 1024 * 1024;

/**
 * Live URL checks for registration validation. The API process never fetches a user-supplied URL: its
 * validators enqueue a job here (one per URL, by a deterministic job id) and wait for the verdict. A worker
 * killed mid-check loses its job lock; another worker's stalled-job check hands the job on and it is fetched
 * again.
 */
export const urlCheckFamily: JobFamily = {
  name: 'url-check',
  start: async (deps) => {
    const { config, connection, logger } = deps;
    const userAgent = `Mozilla/5.0 (compatible; curie-resolver-url-check/1.0; +${config.PUBLIC_REGISTRY_URL})`;
    const fetch = (url: string) =>
      fetchForCheck(url, {
        allowPrivateNetworks: config.URL_CHECK_ALLOW_PRIVATE_NETWORKS,
        timeoutMs: config.URL_CHECK_TIMEOUT_MS,
        maxRedirects: URL_CHECK_MAX_REDIRECTS,
        maxBodyBytes: URL_CHECK_MAX_BODY_BYTES,
        userAgent,
      });
    if (config.URL_CHECK_ALLOW_PRIVATE_NETWORKS) {
      logger.warn('URL_CHECK_ALLOW_PRIVATE_NETWORKS is on: URL checks may reach loopback and private networks');
    }
    const processorDeps = {
      fetch,
      redis: connection,
      prefix: config.QUEUE_PREFIX,
      cacheSeconds: config.URL_CHECK_CACHE_SECONDS,
      timeoutMs: config.URL_CHECK_TIMEOUT_MS,
      logger,
    };
    const worker = startWorker(deps, queueNames.urlCheck, (job) => processUrlCheck(processorDeps, job), {
      // Mostly waiting on remote servers; fetchForCheck keeps it to 2 at a time per host.
      concurrency: config.URL_CHECK_CONCURRENCY,
      lockDuration: config.WORKER_LOCK_DURATION_MS,
      stalledInterval: config.WORKER_LOCK_DURATION_MS,
    });
    return [worker];
  },
};
