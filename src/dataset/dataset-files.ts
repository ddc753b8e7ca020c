import { open, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { ExportFormat } from './export-formats.js';

/**
 * The prebuilt dataset on disk, shared by the build (worker process) and the route (registry area):
 *
 *   manifest.json                       which build is current: file names, sizes, ETags, registry version
 *   dataset-<token>.json[.gz]           payload as stored
 *   dataset-<token>-rewritten.json[.gz] payload with rewriteForEmbeddedPrefixes=true
 *   export-<token>-<format>[.gz]        the registry exports (export-formats.ts), from the same snapshot
 *
 * Every build writes its files under a new token and switches to them by renaming manifest.json into place,
 * the one atomic step: a reader sees the old build or the new one, never a mix of a new file and an old
 * manifest (whose sizes and ETags would then be wrong). The files of the previous build are kept until the
 * next one, so a reader holding the previous manifest for a moment still finds them.
 */
export const MANIFEST_FILE = 'manifest.json';

/** Bumped when the written format changes, so that the next build rewrites an unchanged registry. */
export const DATASET_FORMAT_VERSION = 3;

export type DatasetVariant = 'plain' | 'rewritten';

export interface DatasetVariantFiles {
  /** File names inside the dataset directory. */
  file: string;
  gzipFile: string;
  size: number;
  gzipSize: number;
  /** Hex sha256 of the uncompressed bytes. */
  sha256: string;
}

export interface DatasetManifest {
  formatVersion: number;
  /** dataset_builds.id of the build that wrote it (null when built outside the job, e.g. by a script). */
  buildId: number | null;
  /** max(registry_changes.version) and count(*) of the log in the snapshot the build read. */
  registryVersion: number;
  changeCount: number;
  /** pg_database oid: the same version numbers in a re-created database are another registry. */
  databaseId: string;
  /**
   * pg_snapshot_xmin of the snapshot the build read: every registry change of an older transaction is in
   * the build. Absent in a manifest written before satellites (their feed then starts after the build).
   */
  changeXmin?: string;
  builtAt: string;
  /** builtAt of the first build that produced these exact bytes (Last-Modified). */
  lastModified: string;
  namespaceCount: number;
  resourceCount: number;
  rewrittenResourceCount: number;
  variants: Record<DatasetVariant, DatasetVariantFiles>;
  /** Absent in a manifest written before the exports existed (format version 1). */
  exports?: DatasetExports;
}

/** The exports of a build: their files, and the public URLs their URIs were made with. */
export interface DatasetExports {
  publicResolverUrl: string;
  publicRegistryUrl: string;
  /** builtAt of the first build that produced these exact exports (their Last-Modified). */
  lastModified: string;
  files: Record<ExportFormat, DatasetVariantFiles>;
}

/** Every file pair the manifest names: the dataset's variants and the exports. */
export function manifestFiles(manifest: DatasetManifest): DatasetVariantFiles[] {
  return [...Object.values(manifest.variants), ...Object.values(manifest.exports?.files ?? {})];
}

/** Strong ETags: the gzip body is another representation, so it gets a tag of its own (as Apache does). */
export function etagOf(files: DatasetVariantFiles, gzip: boolean): string {
  return gzip ? `"${files.sha256}-gzip"` : `"${files.sha256}"`;
}

const isMissing = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** The current manifest of `dir`, or null when no build has completed there yet. */
export async function readManifest(dir: string): Promise<DatasetManifest | null> {
  try {
    return JSON.parse(await readFile(path.join(dir, MANIFEST_FILE), 'utf8')) as DatasetManifest;
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

/** True when every file the manifest names is present with the recorded size. */
export async function manifestFilesIntact(dir: string, manifest: DatasetManifest): Promise<boolean> {
  try {
    for (const files of manifestFiles(manifest)) {
      if ((await stat(path.join(dir, files.file))).size !== files.size) return false;
      if ((await stat(path.join(dir, files.gzipFile))).size !== files.gzipSize) return false;
    }
    return true;
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}

export interface OpenedDataset {
  manifest: DatasetManifest;
  files: DatasetVariantFiles;
  size: number;
  /** The bytes to send: from memory for files up to the memory limit, else streamed from the open file. */
  body: Buffer | Readable;
}

/**
 * The registry area's view of the dataset directory: the manifest is kept in memory and looked at again at
 * most once per `checkEveryMs` (a stat; re-read only when the file was replaced), so a request costs no
 * file system call at all for files small enough to be held in memory (the real registry's are), and an
 * open() and a streamed read for larger ones.
 */
export class DatasetFiles {
  private manifest: DatasetManifest | null = null;
  private identity = '';
  private checkedAt = 0;
  private checking: Promise<DatasetManifest | null> | null = null;
  /** Contents of the current build's small files, by file name; emptied when the manifest changes. */
  private contents = new Map<string, Promise<Buffer>>();

  constructor(
    readonly dir: string,
    private readonly checkEveryMs = 1000,
    /** Files up to this size are held in memory (at most four dataset files and 16 export files per build). */
    private readonly memoryLimitBytes = 16 * 1024 * 1024,
  ) {}

  /** The current manifest, or null when there is no build yet; looked up on disk when older than maxAgeMs. */
  async current(maxAgeMs = this.checkEveryMs): Promise<DatasetManifest | null> {
    if (Date.now() - this.checkedAt < maxAgeMs) return this.manifest;
    this.checking ??= this.check().finally(() => (this.checking = null));
    return this.checking;
  }

  /** Forget the cached manifest: the next call looks at the disk. */
  invalidate(): void {
    this.checkedAt = 0;
  }

  private async check(): Promise<DatasetManifest | null> {
    const file = path.join(this.dir, MANIFEST_FILE);
    try {
      const info = await stat(file);
      // A build renames a new file into place: another inode, whatever the clock says.
      const identity = `${info.ino}:${info.mtimeMs}:${info.size}`;
      if (identity !== this.identity || !this.manifest) {
        this.manifest = JSON.parse(await readFile(file, 'utf8')) as DatasetManifest;
        this.identity = identity;
        this.contents = new Map();
      }
    } catch (error) {
      if (!isMissing(error)) throw error;
      this.manifest = null;
      this.identity = '';
      this.contents = new Map();
    }
    this.checkedAt = Date.now();
    return this.manifest;
  }

  private async read(name: string, size: number): Promise<Buffer | Readable> {
    const file = path.join(this.dir, name);
    if (size > this.memoryLimitBytes) {
      // Opened before the answer starts, so that a missing file is known while a retry is still possible.
      const handle = await open(file, 'r');
      return handle.createReadStream();
    }
    let content = this.contents.get(name);
    if (!content) {
      content = readFile(file);
      this.contents.set(name, content);
      content.catch(() => this.contents.delete(name));
    }
    const bytes = await content;
    if (bytes.length !== size) throw new Error(`${file} has ${bytes.length} bytes, the manifest says ${size}`);
    return bytes;
  }

  /**
   * The body of a variant in the wanted coding, or null when there is no build. When a newer build has
   * already removed the file of the cached manifest, the manifest is read again once.
   */
  open(variant: DatasetVariant, gzip: boolean): Promise<OpenedDataset | null> {
    return this.openSelected((manifest) => manifest.variants[variant], gzip);
  }

  /** The body of the file pair `select` picks from the current manifest, as open() (null also when it picks none). */
  async openSelected(select: (manifest: DatasetManifest) => DatasetVariantFiles | undefined, gzip: boolean): Promise<OpenedDataset | null> {
    for (let attempt = 0; ; attempt++) {
      const manifest = await this.current();
      if (!manifest) return null;
      const files = select(manifest);
      if (!files) return null;
      const size = gzip ? files.gzipSize : files.size;
      try {
        return { manifest, files, size, body: await this.read(gzip ? files.gzipFile : files.file, size) };
      } catch (error) {
        if (!isMissing(error) || attempt > 0) throw error;
        this.invalidate();
      }
    }
  }
}
