import { Router } from '@koa/router';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Registry } from 'prom-client';
import type { Config } from '../../config.js';
import type { Logger } from '../../lib/logger.js';
import { counterReadAtScrape } from '../../metrics/read-at-scrape.js';
import { DatasetFiles, type DatasetVariant } from '../../dataset/dataset-files.js';
import { requestDatasetBuild, type DatasetBuildJob } from '../../queue/dataset.queue.js';
import { createQueue, queueNames } from '../../queue/queues.js';
import { DatasetService } from './dataset.service.js';
import { datasetVersionRoutes } from './dataset-versions.routes.js';
import { CURRENT_VERSION, DatedDatasetService } from './dated-dataset.service.js';
import { exportRoutes } from './export.routes.js';
import { sendPrebuilt } from './prebuilt-answer.js';
import { cursorBeforeTransaction } from '../model/change-cursor.js';

/** Headers of the current dataset (additions): its registry version, and where its reader resumes the change feed. */
export const REGISTRY_VERSION_HEADER = 'X-Registry-Version';
export const CHANGE_CURSOR_HEADER = 'X-Registry-Change-Cursor';
/** Which database the dataset was built from: a re-created database is another registry, whatever its versions. */
export const DATABASE_HEADER = 'X-Registry-Database';

export interface DatasetRouteDeps {
  config: Pick<Readonly<Config>, 'DATASET_DIR' | 'DATASET_FIRST_BUILD_WAIT_MS' | 'DATASET_RETENTION_DAYS' | 'QUEUE_PREFIX' | 'PUBLIC_REGISTRY_URL'>;
  /** The area's fail-fast producer connection: BullMQ only needs a blocking-safe one for workers. */
  redis: Redis;
  logger: Logger;
  /** The area's metrics registry, given the count of dataset diffs computed. */
  metrics?: Registry;
}

// Spring's StringToBooleanConverter, which parses the reference's parameter; anything else means "as stored".
const TRUE_VALUES = new Set(['true', 'on', 'yes', '1']);

function wantsRewrite(value: string | string[] | undefined): boolean {
  const first = Array.isArray(value) ? value[0] : value;
  return first !== undefined && TRUE_VALUES.has(first.trim().toLowerCase());
}

/**
 * GET /resolutionApi/getResolverDataset[?rewriteForEmbeddedPrefixes=true]: the whole registry, sent from the
 * file the worker prebuilt (gzip when the client takes it), with a strong ETag and Last-Modified for
 * conditional requests. The registry is never read per request.
 */
export function datasetRoutes(deps: DatasetRouteDeps): Router {
  const files = new DatasetFiles(deps.config.DATASET_DIR);
  let queue: Queue<DatasetBuildJob> | null = null;
  const service = new DatasetService({
    files,
    logger: deps.logger,
    firstBuildWaitMs: deps.config.DATASET_FIRST_BUILD_WAIT_MS,
    requestBuild: () => {
      if (!queue) {
        queue = createQueue(queueNames.dataset, deps.redis, deps.config.QUEUE_PREFIX);
        // Connection trouble is the area's Redis connection's; the request that needs the queue reports it.
        queue.on('error', (error) => deps.logger.debug({ err: error }, 'dataset queue error'));
      }
      return requestDatasetBuild(queue, 'first-request');
    },
  });

  const dated = new DatedDatasetService({ dir: deps.config.DATASET_DIR, retentionDays: deps.config.DATASET_RETENTION_DAYS, current: service });
  if (deps.metrics) {
    const help = 'Dataset diffs (/resolutionApi/diff) computed, each in a worker thread; identical requests meanwhile and later share them.';
    counterReadAtScrape(deps.metrics, 'curie_dataset_diffs_computed_total', help, () => dated.computed);
  }

  const router = new Router();
  router.get('/resolutionApi/getResolverDataset', async (ctx) => {
    const variant: DatasetVariant = wantsRewrite(ctx.query.rewriteForEmbeddedPrefixes) ? 'rewritten' : 'plain';
    const gzip = ctx.acceptsEncodings('gzip', 'identity') === 'gzip';
    // ?version=YYYY-MM-DD: the dataset as it was that day (not in the reference); absent or 'current': as ever.
    const version = Array.isArray(ctx.query.version) ? ctx.query.version[0] : ctx.query.version;
    const current = version === undefined || version === CURRENT_VERSION;
    const opened = current ? await service.open(variant, gzip) : await dated.open(version, variant, gzip);
    if (current) {
      // What a satellite resolver needs to follow the registry from this dataset on (satellite/).
      ctx.set(REGISTRY_VERSION_HEADER, String(opened.manifest.registryVersion));
      ctx.set(DATABASE_HEADER, opened.manifest.databaseId);
      if (opened.manifest.changeXmin) ctx.set(CHANGE_CURSOR_HEADER, cursorBeforeTransaction(opened.manifest.changeXmin));
    }
    sendPrebuilt(ctx, opened, { gzip, contentType: 'application/json', lastModified: new Date(opened.manifest.lastModified) });
  });
  router.use(exportRoutes({ service, publicRegistryUrl: deps.config.PUBLIC_REGISTRY_URL }).routes());
  router.use(datasetVersionRoutes({ dated }).routes());
  return router;
}
