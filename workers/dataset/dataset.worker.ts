import { RegistryChangeListener } from '../../src/db/registry-change-listener.js';
import { requestDatasetBuild, type DatasetBuildReason } from '../../src/queue/dataset.queue.js';
import { createQueue, queueNames } from '../../src/queue/queues.js';
import { startWorker, type JobFamily } from '../job-family.js';
import { processDatasetBuild } from './dataset.processor.js';

/**
 * The resolver dataset build: nightly at 02:00 UTC (its schedule is in schedules.ts), and after every
 * registry change (LISTEN registry_changes, debounced). Every worker process listens and enqueues; the
 * deduplication id turns the copies into one build, and the build's advisory lock keeps the nightly run
 * (which a scheduler cannot deduplicate) from overlapping another. A worker killed mid-build loses its job
 * lock; another worker's stalled-job check puts the job back and it is built again.
 *
 * At start each worker also asks for a build: changes committed while no worker listened would otherwise
 * wait for the nightly run. When the served build is current, that costs a 'skipped' row.
 */
export const datasetBuildFamily: JobFamily = {
  name: 'dataset-build',
  start: async (deps) => {
    const { config, db, connection, logger } = deps;
    const queue = createQueue(queueNames.dataset, connection, config.QUEUE_PREFIX);
    const urls = { publicResolverUrl: config.PUBLIC_RESOLVER_URL, publicRegistryUrl: config.PUBLIC_REGISTRY_URL };
    queue.on('error', (error) => logger.warn({ err: error }, 'dataset queue error'));

    // While Redis is away an add waits (worker connection); asks meanwhile fold into one more add after it,
    // so that a change arriving just as the add lands in Redis is not lost.
    let adding = false;
    let again = false;
    const requestBuild = (reason: DatasetBuildReason) => {
      if (adding) {
        again = true;
        return;
      }
      adding = true;
      requestDatasetBuild(queue, reason)
        .catch((error: unknown) => logger.warn({ err: error }, 'cannot enqueue a dataset build'))
        .finally(() => {
          adding = false;
          if (again) {
            again = false;
            requestBuild(reason);
          }
        });
    };

    const listener = new RegistryChangeListener({
      databaseUrl: config.DATABASE_URL,
      logger,
      onChange: () => requestBuild('registry-change'),
    });
    await listener.start();

    const worker = startWorker(deps, queueNames.dataset, (job) => processDatasetBuild({ db, dir: config.DATASET_DIR, urls, logger, keepDated: true }, job), {
      concurrency: 1,
      // A dead worker's build is noticed after about a lock duration and handed to another worker.
      lockDuration: config.WORKER_LOCK_DURATION_MS,
      stalledInterval: config.WORKER_LOCK_DURATION_MS,
    });
    worker.once('closing', () => void listener.stop());
    worker.once('closed', () => void queue.close().catch(() => undefined));

    requestBuild('registry-change');
    return [worker];
  },
};
