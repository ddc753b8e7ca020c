import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LRUCache } from 'lru-cache';
import { invalid, notFound } from '../../core/domain-error.js';
import { diffDatasets, type DatasetDiff, type DatasetPayload } from '../../dataset/dataset-diff.js';
import { DatasetFiles, type DatasetManifest, type DatasetVariant, type OpenedDataset } from '../../dataset/dataset-files.js';
import { findDatedDataset } from '../../dataset/dated-datasets.js';
import { HttpError } from '../../http/http-error.js';
import { isCalendarDate } from '../../lib/calendar-date.js';
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
  diff: DatasetDiff;
}

interface Located {
  version: string;
  dir: string;
  manifest: DatasetManifest;
  /** The plain dataset's text. */
  read: () => Promise<string>;
}

async function textOf(opened: OpenedDataset): Promise<string> {
  if (Buffer.isBuffer(opened.body)) return opened.body.toString('utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of opened.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
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
  private readonly diffs = new LRUCache<string, DatasetDiff>({ max: 16 });

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
      return { version, dir: this.options.dir, manifest: opened.manifest, read: () => textOf(opened) };
    }
    if (!isCalendarDate(version)) throw invalid(`'${name}' must be a date YYYY-MM-DD${name === 'version' ? '' : " or 'current'"}`);
    const found = await findDatedDataset(this.options.dir, version);
    if (found.state === 'kept') {
      const { dir, manifest } = found;
      return { version, dir, manifest, read: () => readFile(path.join(dir, manifest.variants.plain.file), 'utf8') };
    }
    if (found.state === 'pruned') {
      throw new HttpError(
        410,
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

  /** What changed from the dataset `from` to the dataset `to`. */
  async diff(from: string, to: string): Promise<DatasetVersionDiff> {
    const [a, b] = await Promise.all([this.locate('from', from), this.locate('to', to)]);
    const key = `${a.manifest.variants.plain.sha256}:${b.manifest.variants.plain.sha256}`;
    let diff = this.diffs.get(key);
    if (!diff) {
      const payloadOf = async (located: Located) => (JSON.parse(await located.read()) as { payload: DatasetPayload }).payload;
      const [before, after] = await Promise.all([payloadOf(a), payloadOf(b)]);
      diff = diffDatasets(before, after);
      this.diffs.set(key, diff);
    }
    return { from: versionInfo(a), to: versionInfo(b), diff };
  }
}
