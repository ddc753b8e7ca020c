import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LRUCache } from 'lru-cache';
import { DomainError, invalid, notFound } from '../../core/domain-error.js';
import { DatasetFiles, type DatasetManifest, type DatasetVariant, type OpenedDataset } from '../../dataset/dataset-files.js';
import { findDatedDataset } from '../../dataset/dated-datasets.js';
import { isCalendarDate } from '../../lib/calendar-date.js';
import { diffInWorker } from './dataset-diff-runner.js';
import type { DatasetService } from './dataset.service.js';

export const CURRENT_VERSION = 'current';

/** A dataset version as the diff names it: its date (or 'current') and the build it is. */
export interface DatasetVersionInfo {
  version: string;
  builtAt: string;
  registryVersion: number;
  namespaceCount: number;
  resourceCount: number;
}

export interface DatasetVersionDiff {
  from: DatasetVersionInfo;
  to: DatasetVersionInfo;
  /** The diff's JSON text (`{"namespaces":…,"resources":…}`), UTF-8. */
  diffJson: Buffer;
}

/** Diffs one client may have computed at once (those it joins or finds cached do not count). */
export const DIFFS_PER_CLIENT = 1;
/** Diffs computed at once, each in a worker thread of its own, whoever asked. */
export const DIFFS_AT_ONCE = 2;
const DIFF_RETRY_AFTER_SECONDS = 1;

interface Located {
  version: string;
  dir: string;
  manifest: DatasetManifest;
  /** The plain dataset's bytes. */
  read: () => Promise<Buffer>;
}

async function bytesOf(opened: OpenedDataset): Promise<Buffer> {
  if (Buffer.isBuffer(opened.body)) return opened.body;
  const chunks: Buffer[] = [];
  for await (const chunk of opened.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const versionInfo = ({ version, manifest }: Located): DatasetVersionInfo => ({
  version,
  builtAt: manifest.builtAt,
  registryVersion: manifest.registryVersion,
  namespaceCount: manifest.namespaceCount,
  resourceCount: manifest.resourceCount,
});

/**
 * The dated datasets (dataset/dated-datasets.ts) as the registry area serves them: a day's dataset by
 * getResolverDataset?version=, and the diff of two versions. A version is a date YYYY-MM-DD; 'current' is
 * the served build.
 */
export class DatedDatasetService {
  // Diffs of the same two builds are the same: a few are kept (a build's content never changes).
  private readonly diffs = new LRUCache<string, Buffer>({ max: 16 });
  /** Diffs being computed, joined by the identical requests that come meanwhile. */
  private readonly computing = new Map<string, Promise<Buffer>>();
  /** Diffs each client is having computed now. */
  private readonly underWay = new Map<string, number>();
  /** Diffs computed since the area started (registry_dataset_diffs_computed_total). */
  computed = 0;

  constructor(
    private readonly options: {
      dir: string;
      retentionDays: number;
      current: DatasetService;
    },
  ) {}

  private async locate(name: 'version' | 'from' | 'to', version: string): Promise<Located> {
    if (version === CURRENT_VERSION) {
      // As getResolverDataset without a version: waits for the first build when there is none yet.
      const opened = await this.options.current.open('plain', false);
      return { version, dir: this.options.dir, manifest: opened.manifest, read: () => bytesOf(opened) };
    }
    if (!isCalendarDate(version)) throw invalid(`'${name}' must be a date YYYY-MM-DD${name === 'version' ? '' : " or 'current'"}`);
    const found = await findDatedDataset(this.options.dir, version);
    if (found.state === 'kept') {
      const { dir, manifest } = found;
      return { version, dir, manifest, read: () => readFile(path.join(dir, manifest.variants.plain.file)) };
    }
    if (found.state === 'pruned') {
      throw new DomainError(
        'gone',
        `The dataset of ${version} is no longer kept: dated datasets are kept for ${this.options.retentionDays} days (DATASET_RETENTION_DAYS) and this one was pruned on ${found.pruned.prunedAt.slice(0, 10)}`,
      );
    }
    throw notFound(`There is no dataset of ${version}: no dataset build was kept that day`);
  }

  /** The dataset of `date` in the wanted variant and coding. */
  async open(date: string, variant: DatasetVariant, gzip: boolean): Promise<OpenedDataset> {
    for (let attempt = 0; ; attempt++) {
      const located = await this.locate('version', date);
      // Streamed: a past day's files are asked for rarely, and are not worth memory.
      const opened = await new DatasetFiles(located.dir, 0, 0).open(variant, gzip);
      if (opened) return opened;
      // Only when the day was pruned between the two looks; the next look says so.
      if (attempt > 0) throw notFound(`There is no dataset of ${date}`);
    }
  }

  /**
   * What changed from the dataset `from` to the dataset `to`, as asked by `client` (an address). Computed
   * off the event loop once per pair of builds; a client may have DIFFS_PER_CLIENT computed at once and the
   * area DIFFS_AT_ONCE, beyond which the request is refused (429, 503) before any dataset is read.
   */
  async diff(from: string, to: string, client: string): Promise<DatasetVersionDiff> {
    const [a, b] = await Promise.all([this.locate('from', from), this.locate('to', to)]);
    const key = `${a.manifest.variants.plain.sha256}:${b.manifest.variants.plain.sha256}`;
    const diffJson = this.diffs.get(key) ?? (await (this.computing.get(key) ?? this.compute(key, a, b, client)));
    return { from: versionInfo(a), to: versionInfo(b), diffJson };
  }

  private compute(key: string, a: Located, b: Located, client: string): Promise<Buffer> {
    const mine = this.underWay.get(client) ?? 0;
    if (mine >= DIFFS_PER_CLIENT) {
      throw new DomainError(
        'busy',
        `Too many dataset diffs from your address: at most ${DIFFS_PER_CLIENT} may be computed at once; send the next one when it has been answered`,
        { retryAfterSeconds: DIFF_RETRY_AFTER_SECONDS },
      );
    }
    if (this.computing.size >= DIFFS_AT_ONCE) {
      throw new DomainError('unavailable', `The registry is computing ${DIFFS_AT_ONCE} other dataset diffs; retry shortly`, {
        retryAfterSeconds: DIFF_RETRY_AFTER_SECONDS,
      });
    }
    this.underWay.set(client, mine + 1);
    this.computed++;
    const computation = (async () => {
      try {
        const [before, after] = await Promise.all([a.read(), b.read()]);
        const diffJson = await diffInWorker(before, after);
        this.diffs.set(key, diffJson);
        return diffJson;
      } finally {
        this.computing.delete(key);
        const left = (this.underWay.get(client) ?? 1) - 1;
        if (left > 0) this.underWay.set(client, left);
        else this.underWay.delete(client);
      }
    })();
    this.computing.set(key, computation);
    return computation;
  }
}
