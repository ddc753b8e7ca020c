import { DomainError } from '../../core/domain-error.js';
import type { Logger } from '../../lib/logger.js';
import type { DatasetFiles, DatasetManifest, DatasetVariant, DatasetVariantFiles, OpenedDataset } from '../../dataset/dataset-files.js';
import type { ExportFormat } from '../../dataset/export-formats.js';

export interface DatasetServiceOptions {
  files: DatasetFiles;
  /** Asks the worker for a build (a deduplicated BullMQ job). */
  requestBuild: () => Promise<void>;
  logger: Logger;
  /** How long a request waits for the first build. */
  firstBuildWaitMs: number;
  pollMs?: number;
  /** A failed or slow enqueue gives up after this long. */
  enqueueTimeoutMs?: number;
}

const RETRY_AFTER_S = 10;
// Asks from this process while the first build is awaited: one every few seconds is plenty, the queue
// deduplicates them anyway.
const REQUEST_EVERY_MS = 5000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  promise.catch(() => undefined);
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms))),
  ]).finally(() => clearTimeout(timer));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Finds the prebuilt dataset file to send. Before the very first build it asks the worker for one and waits
 * for it (up to firstBuildWaitMs), then answers 503 with Retry-After.
 */
export class DatasetService {
  private requestedAt = 0;

  constructor(private readonly options: DatasetServiceOptions) {}

  open(variant: DatasetVariant, gzip: boolean): Promise<OpenedDataset> {
    return this.openSelected((manifest) => manifest.variants[variant], gzip, 'The dataset is being built; retry shortly');
  }

  /**
   * An export of the current build. A build from before the exports existed has none: the build the worker
   * makes when it starts with this version writes them, and this waits for it as for a first build.
   */
  openExport(format: ExportFormat, gzip: boolean): Promise<OpenedDataset> {
    return this.openSelected((manifest) => manifest.exports?.files[format], gzip, 'The registry exports are being built; retry shortly');
  }

  /** The current manifest without waiting for a build (null before the first). */
  currentManifest(): Promise<DatasetManifest | null> {
    return this.options.files.current();
  }

  private async openSelected(select: (manifest: DatasetManifest) => DatasetVariantFiles | undefined, gzip: boolean, waitMessage: string): Promise<OpenedDataset> {
    const { files } = this.options;
    const opened = await files.openSelected(select, gzip);
    if (opened) return opened;

    await this.requestFirstBuild();
    const pollMs = this.options.pollMs ?? 200;
    const deadline = Date.now() + this.options.firstBuildWaitMs;
    while (Date.now() < deadline) {
      await sleep(Math.min(pollMs, Math.max(0, deadline - Date.now())));
      // Waiting requests share one look at the disk per poll interval.
      if (await files.current(pollMs)) {
        const built = await files.openSelected(select, gzip);
        if (built) return built;
      }
    }
    throw new DomainError('unavailable', waitMessage, { retryAfterSeconds: RETRY_AFTER_S });
  }

  private async requestFirstBuild(): Promise<void> {
    if (Date.now() - this.requestedAt < REQUEST_EVERY_MS) return;
    try {
      await withTimeout(this.options.requestBuild(), this.options.enqueueTimeoutMs ?? 3000);
      this.requestedAt = Date.now();
    } catch (error) {
      this.options.logger.warn({ err: error }, 'cannot ask for the first dataset build');
      throw new DomainError(
        'unavailable',
        'The dataset has not been built yet and the build cannot be requested: the job queue (Redis) is unreachable; retry later',
        { retryAfterSeconds: 30 },
      );
    }
  }
}
