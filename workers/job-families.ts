import { datasetBuildFamily } from './dataset/dataset.worker.js';
import { housekeepingFamily } from './housekeeping/housekeeping.worker.js';
import type { JobFamily } from './job-family.js';
import { linkCheckFamily } from './link-check/link-check.worker.js';
import { metadataFamily } from './metadata/metadata.worker.js';
import { notificationsFamily } from './notifications/notifications.worker.js';
import { urlCheckFamily } from './url-check/url-check.worker.js';
import { usageRollupFamily } from './usage/usage-rollup.worker.js';

/**
 * Every job family this process runs. A new family appends its own; an operator scales them all by starting
 * more worker processes.
 */
export const jobFamilies: JobFamily[] = [usageRollupFamily, datasetBuildFamily, urlCheckFamily, notificationsFamily, housekeepingFamily, linkCheckFamily, metadataFamily];
