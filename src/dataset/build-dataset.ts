import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Knex } from 'knex';
import type { Db } from '../db/knex.js';
import { selectResourcesWithInstitution } from '../db/registry-reads.js';
import { settingDefault } from '../config.js';
import { DatasetFileWriter, fsyncFile, removeQuietly } from './dataset-file-writer.js';
import {
  DATASET_FORMAT_VERSION,
  MANIFEST_FILE,
  manifestFiles,
  manifestFilesIntact,
  readManifest,
  type DatasetManifest,
  type DatasetVariant,
  type DatasetVariantFiles,
} from './dataset-files.js';
import {
  DATASET_HEAD,
  DATASET_TAIL,
  NAMESPACE_FIELDS_AFTER_RESOURCES,
  NAMESPACE_FIELDS_BEFORE_RESOURCES,
  namespaceJson,
  type DatasetNamespaceRow,
  type DatasetResourceRow,
} from './dataset.presenter.js';
import { readExportSynonyms, type ReadSynonyms } from './export-synonyms.js';
import type { ExportUrls } from './export-uris.js';
import type { DatasetExportWriters } from './export-writers.js';
import { loadOnFirstUse } from '../lib/warm-up.js';

// The exports' writers (with n3) are loaded by the first build, not by every process that imports this module
// for its queries (the registry's namespace RDF, its tests).
const loadExportWriters = loadOnFirstUse(() => import('./export-writers.js'));

export interface BuildDatasetOptions {
  db: Db;
  /** Dataset directory (created when missing). */
  dir: string;
  /** dataset_builds.id, recorded in the manifest. */
  buildId?: number | null;
  /** Build even when the served build already reflects the current registry. */
  force?: boolean;
  /** Namespaces read per query; memory use is proportional to this, not to the registry. */
  pageSize?: number;
  gzipLevel?: number;
  /** Called after each page of namespaces is written (progress reporting). */
  onProgress?: (namespacesWritten: number) => void | Promise<void>;
  /**
   * The caller holds the build lock (runRecordedBuild): no other build can be writing into `dir`, so every
   * temporary file there belongs to a build that died, however recent. Without it, only temporaries older
   * than STALE_TEMP_MS are taken for dead.
   */
  exclusive?: boolean;
  /** The public URLs the exports' URIs are made of; the settings' defaults when absent. */
  urls?: ExportUrls;
  /** Where the exports get prefix synonyms from (export-synonyms.ts). */
  readSynonyms?: ReadSynonyms;
}

export interface BuildDatasetResult {
  /** 'skipped': the served build already reflects this registry version; nothing was written. */
  status: 'built' | 'skipped';
  manifest: DatasetManifest;
}

/** What a build's snapshot says about the registry, read in the same transaction as the data. */
interface RegistryState {
  registryVersion: number;
  changeCount: number;
  databaseId: string;
  /** pg_snapshot_xmin of the build's snapshot: where a satellite resumes the change feed from. */
  changeXmin: string;
}

const DEFAULT_PAGE_SIZE = 1000;
const DEFAULT_GZIP_LEVEL = 6;
// A temporary file nobody has written to for this long belongs to a build that died.
const STALE_TEMP_MS = 60_000;
const TEMP_FILE = /^\.dataset-[0-9a-f]+-.+\.tmp$/;
const BUILD_FILE = /^(dataset-[0-9a-f]+(-rewritten)?\.json|export-[0-9a-f]+-[a-z.]+)(\.gz)?$/;

// The version, the log size and every row come from one snapshot: a build never mixes two registry states.
const readOptions: Knex.TransactionConfig = { isolationLevel: 'repeatable read', readOnly: true };

async function readState(trx: Knex.Transaction): Promise<RegistryState> {
  // Versions are taken before commit, so a lower one can become visible after a higher one: the count of the
  // log tells such a late commit apart from "nothing changed".
  const { rows } = await trx.raw<{ rows: { version: string; count: string; databaseId: string; xmin: string }[] }>(`
    SELECT coalesce(max(version), 0)::text AS version, count(*)::text AS count,
           (SELECT oid::text FROM pg_database WHERE datname = current_database()) AS "databaseId",
           pg_snapshot_xmin(pg_current_snapshot())::text AS xmin
    FROM registry_changes`);
  const row = rows[0]!;
  return { registryVersion: Number(row.version), changeCount: Number(row.count), databaseId: row.databaseId, changeXmin: row.xmin };
}

const NAMESPACE_COLUMNS = [...NAMESPACE_FIELDS_BEFORE_RESOURCES, ...NAMESPACE_FIELDS_AFTER_RESOURCES].map((column) => `n.${column}`);

/** Namespaces (`n`) as the dataset and the exports present them, for the caller to filter and order. */
export function selectDatasetNamespaces(db: Knex): Knex.QueryBuilder<DatasetNamespaceRow, DatasetNamespaceRow[]> {
  return db('namespaces as n')
    .leftJoin('namespaces as s', 's.id', 'n.successorId')
    .select<DatasetNamespaceRow[]>(...NAMESPACE_COLUMNS, 's.prefix as successorPrefix');
}

function readNamespacePage(trx: Knex.Transaction, afterId: number, limit: number): Promise<DatasetNamespaceRow[]> {
  return selectDatasetNamespaces(trx).where('n.id', '>', afterId).orderBy('n.id').limit(limit);
}

function readResources(trx: Knex.Transaction, fromId: number, toId: number): Promise<DatasetResourceRow[]> {
  return selectResourcesWithInstitution(trx)
    .whereBetween('r.namespaceId', [fromId, toId])
    .orderBy([{ column: 'r.namespaceId' }, { column: 'r.id' }]);
}

/** Makes the renames in `dir` durable (a crash right after must not bring the old names back). */
async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } catch {
    // Some file systems do not fsync directories; the renames stay atomic regardless.
  } finally {
    await handle.close();
  }
}

/**
 * Deletes the temporary files of builds that died (killed mid-way, the machine restarted): `exclusive`, all
 * of them; else those nobody has written to for STALE_TEMP_MS.
 */
async function removeDeadTemporaries(dir: string, exclusive: boolean): Promise<void> {
  const now = Date.now();
  for (const name of await readdir(dir)) {
    if (!TEMP_FILE.test(name)) continue;
    if (!exclusive) {
      const info = await stat(path.join(dir, name)).catch(() => null);
      if (!info || now - info.mtimeMs <= STALE_TEMP_MS) continue;
    }
    await removeQuietly(path.join(dir, name));
  }
}

/** Deletes files of builds that are neither current nor previous, and temporary files of dead builds. */
async function removeOldFiles(dir: string, keep: (DatasetManifest | null)[], exclusive: boolean): Promise<void> {
  const kept = new Set<string>([MANIFEST_FILE]);
  for (const manifest of keep) {
    if (!manifest) continue;
    for (const files of manifestFiles(manifest)) kept.add(files.file).add(files.gzipFile);
  }
  for (const name of await readdir(dir)) {
    if (BUILD_FILE.test(name) && !kept.has(name)) await removeQuietly(path.join(dir, name));
  }
  await removeDeadTemporaries(dir, exclusive);
}

function sameRegistry(manifest: DatasetManifest, state: RegistryState, urls: ExportUrls): boolean {
  return (
    manifest.formatVersion === DATASET_FORMAT_VERSION &&
    manifest.exports?.publicResolverUrl === urls.publicResolverUrl &&
    manifest.exports.publicRegistryUrl === urls.publicRegistryUrl &&
    manifest.databaseId === state.databaseId &&
    manifest.registryVersion === state.registryVersion &&
    manifest.changeCount === state.changeCount
  );
}

async function writeManifest(dir: string, token: string, manifest: DatasetManifest): Promise<void> {
  const temp = path.join(dir, `.dataset-${token}-manifest.tmp`);
  await writeFile(temp, `${JSON.stringify(manifest, null, 2)}\n`, { flag: 'wx' });
  await fsyncFile(temp);
  await rename(temp, path.join(dir, MANIFEST_FILE));
  await fsyncDir(dir);
}

/**
 * Builds the resolver dataset from one consistent snapshot of the registry into `dir`: every namespace and
 * resource (deprecated ones included), namespaces by id and resources by id, in the reference's field order,
 * once as stored and once with `rewriteForEmbeddedPrefixes=true`, each also gzipped; and from the same rows the
 * registry exports (export-formats.ts), published with the dataset by the same manifest.
 *
 * Namespaces are read a page at a time and written as they come, so memory does not grow with the registry.
 * Everything is written to temporary files first; only a complete build is renamed into place and made
 * current by the manifest. A failure at any point leaves the served build as it was.
 *
 * Idempotent: when the served build already reflects the registry (same database, same change log), nothing
 * is written and the result is 'skipped', unless `force` is set.
 */
export async function buildDataset(options: BuildDatasetOptions): Promise<BuildDatasetResult> {
  const { db, dir } = options;
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  const gzipLevel = options.gzipLevel ?? DEFAULT_GZIP_LEVEL;
  const exclusive = options.exclusive ?? false;
  const urls = options.urls ?? {
    publicResolverUrl: settingDefault('PUBLIC_RESOLVER_URL'),
    publicRegistryUrl: settingDefault('PUBLIC_REGISTRY_URL'),
  };
  await mkdir(dir, { recursive: true });
  // First, so that a build that finds nothing to do (skipped) still clears what a killed one left behind.
  await removeDeadTemporaries(dir, exclusive);
  const previous = await readManifest(dir).catch(() => null);

  const token = randomBytes(8).toString('hex');
  const writers: Record<DatasetVariant, DatasetFileWriter | null> = { plain: null, rewritten: null };
  let exports: DatasetExportWriters | null = null;
  const { DatasetExportWriters: ExportWriters } = await loadExportWriters();
  try {
    const built = await db.transaction(async (trx) => {
      const state = await readState(trx);
      if (!options.force && previous && sameRegistry(previous, state, urls) && (await manifestFilesIntact(dir, previous))) {
        return null;
      }
      const plain = (writers.plain = new DatasetFileWriter(dir, token, 'plain.json', gzipLevel));
      const rewritten = (writers.rewritten = new DatasetFileWriter(dir, token, 'rewritten.json', gzipLevel));
      const synonyms = await (options.readSynonyms ?? readExportSynonyms)(trx);
      const exportWriters = (exports = new ExportWriters(dir, token, gzipLevel, urls, synonyms));
      let namespaceCount = 0;
      let resourceCount = 0;
      let rewrittenResourceCount = 0;
      await Promise.all([plain.write(DATASET_HEAD), rewritten.write(DATASET_HEAD), exportWriters.start()]);
      for (let afterId = 0; ; ) {
        const namespaces = await readNamespacePage(trx, afterId, pageSize);
        if (namespaces.length === 0) break;
        const first = namespaces[0]!.id;
        const last = namespaces[namespaces.length - 1]!.id;
        const resources = await readResources(trx, first, last);
        const byNamespace = new Map<number, DatasetResourceRow[]>();
        for (const resource of resources) {
          const list = byNamespace.get(resource.namespaceId);
          if (list) list.push(resource);
          else byNamespace.set(resource.namespaceId, [resource]);
        }
        let plainText = '';
        let rewrittenText = '';
        for (const namespace of namespaces) {
          const json = namespaceJson(namespace, byNamespace.get(namespace.id) ?? []);
          const separator = namespaceCount === 0 ? '' : ',';
          plainText += separator + json.plain;
          rewrittenText += separator + json.rewritten;
          namespaceCount++;
          rewrittenResourceCount += json.rewrittenResources;
        }
        resourceCount += resources.length;
        await Promise.all([
          plain.write(plainText),
          rewritten.write(rewrittenText),
          exportWriters.addPage(namespaces, (id) => byNamespace.get(id) ?? []),
        ]);
        afterId = last;
        await options.onProgress?.(namespaceCount);
      }
      await Promise.all([plain.write(DATASET_TAIL), rewritten.write(DATASET_TAIL)]);
      await Promise.all([plain.finish(), rewritten.finish(), exportWriters.finish()]);
      return { state, namespaceCount, resourceCount, rewrittenResourceCount };
    }, readOptions);

    if (!built) return { status: 'skipped', manifest: previous as DatasetManifest };

    const variants: Record<DatasetVariant, DatasetVariantFiles> = {
      plain: await writers.plain!.publish(`dataset-${token}.json`),
      rewritten: await writers.rewritten!.publish(`dataset-${token}-rewritten.json`),
    };
    const builtAt = new Date().toISOString();
    const exported = await exports!.publish(token, previous?.exports, builtAt);
    await fsyncDir(dir);

    const unchanged =
      previous?.variants.plain.sha256 === variants.plain.sha256 && previous.variants.rewritten.sha256 === variants.rewritten.sha256;
    const manifest: DatasetManifest = {
      formatVersion: DATASET_FORMAT_VERSION,
      buildId: options.buildId ?? null,
      registryVersion: built.state.registryVersion,
      changeCount: built.state.changeCount,
      databaseId: built.state.databaseId,
      changeXmin: built.state.changeXmin,
      builtAt,
      lastModified: unchanged && previous ? previous.lastModified : builtAt,
      namespaceCount: built.namespaceCount,
      resourceCount: built.resourceCount,
      rewrittenResourceCount: built.rewrittenResourceCount,
      variants,
      exports: exported,
    };
    // Last: until this rename, readers keep getting the previous build.
    await writeManifest(dir, token, manifest);
    await removeOldFiles(dir, [manifest, previous], exclusive);
    return { status: 'built', manifest };
  } catch (error) {
    for (const writer of Object.values(writers)) await writer?.discard();
    await (exports as DatasetExportWriters | null)?.discard();
    throw error;
  }
}
