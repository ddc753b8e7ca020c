import type { Queue } from 'bullmq';
import { DATASET_BUILD_DEDUP_ID, type DatasetBuildJob } from './queues.js';

/**
 * Options of every on-demand dataset build (registry change, first request): however many processes ask at
 * once, BullMQ keeps one build waiting and one running at most; an ask during a build runs once after it.
 */
export const datasetBuildJobOptions = {
  deduplication: { id: DATASET_BUILD_DEDUP_ID, keepLastIfActive: true },
} as const;

export async function requestDatasetBuild(queue: Queue<DatasetBuildJob>, reason: DatasetBuildJob['reason']): Promise<void> {
  await queue.add('build', { reason }, datasetBuildJobOptions);
}
