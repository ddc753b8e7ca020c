import { createHash, type Hash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { open, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { finished, pipeline } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import { createGzip, type Gzip } from 'node:zlib';
import type { DatasetVariantFiles } from './dataset-files.js';

async function writeTo(target: Writable, chunk: Buffer): Promise<void> {
  if (!target.write(chunk)) await once(target, 'drain');
}

export async function fsyncFile(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export async function removeQuietly(file: string): Promise<void> {
  await unlink(file).catch(() => undefined);
}

/**
 * One file of a build being written: the file, its gzip sibling and the hash of the uncompressed bytes, under
 * temporary names (`.dataset-<token>-<name>.tmp`) until publish() renames them into place.
 */
export class DatasetFileWriter {
  readonly tempFile: string;
  readonly tempGzipFile: string;
  private readonly file: WriteStream;
  private readonly gzip: Gzip;
  private readonly fileDone: Promise<void>;
  private readonly gzipDone: Promise<void>;
  private readonly hash: Hash = createHash('sha256');
  private failure: Error | null = null;
  private sha256: string | null = null;
  size = 0;

  constructor(
    private readonly dir: string,
    token: string,
    /** Names the temporary files: `plain.json` for the plain variant, `export-registry.ttl` for an export. */
    name: string,
    gzipLevel: number,
  ) {
    this.tempFile = path.join(dir, `.dataset-${token}-${name}.tmp`);
    this.tempGzipFile = path.join(dir, `.dataset-${token}-${name}.gz.tmp`);
    this.file = createWriteStream(this.tempFile, { flags: 'wx' });
    this.gzip = createGzip({ level: gzipLevel });
    this.fileDone = finished(this.file);
    this.gzipDone = pipeline(this.gzip, createWriteStream(this.tempGzipFile, { flags: 'wx' }));
    // A write error (a full disk) is remembered and fails the next write or finish(), never passes unseen.
    for (const done of [this.fileDone, this.gzipDone]) done.catch((error: Error) => (this.failure ??= error));
  }

  async write(text: string): Promise<void> {
    if (this.failure) throw this.failure;
    if (text === '') return;
    const chunk = Buffer.from(text, 'utf8');
    this.hash.update(chunk);
    this.size += chunk.length;
    await Promise.all([writeTo(this.file, chunk), writeTo(this.gzip, chunk)]);
  }

  async finish(): Promise<{ sha256: string }> {
    this.file.end();
    this.gzip.end();
    await Promise.all([this.fileDone, this.gzipDone]);
    if (this.failure) throw this.failure;
    this.sha256 = this.hash.digest('hex');
    return { sha256: this.sha256 };
  }

  /**
   * Makes the finished file and its gzip sibling durable and renames them to `file` and `file.gz`. The
   * caller fsyncs the directory once all of a build's files are renamed.
   */
  async publish(file: string): Promise<DatasetVariantFiles> {
    if (this.sha256 === null) throw new Error(`${this.tempFile} is published before it is finished`);
    const files: DatasetVariantFiles = {
      file,
      gzipFile: `${file}.gz`,
      size: this.size,
      gzipSize: (await stat(this.tempGzipFile)).size,
      sha256: this.sha256,
    };
    await fsyncFile(this.tempFile);
    await fsyncFile(this.tempGzipFile);
    await rename(this.tempFile, path.join(this.dir, files.file));
    await rename(this.tempGzipFile, path.join(this.dir, files.gzipFile));
    return files;
  }

  /** Stops writing and removes the temporary files (a failed build). */
  async discard(): Promise<void> {
    this.file.destroy();
    this.gzip.destroy();
    await removeQuietly(this.tempFile);
    await removeQuietly(this.tempGzipFile);
  }
}
