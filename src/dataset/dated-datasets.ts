import { randomBytes } from 'node:crypto';
import { link, copyFile, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fsyncFile, removeQuietly } from './dataset-file-writer.js';
import { isCalendarDate } from '../lib/calendar-date.js';
import { MANIFEST_FILE, manifestFiles, readManifest, type DatasetManifest } from './dataset-files.js';

/**
 * Dated datasets: every build is also kept under the UTC date it ran (or the date its job names), in
 * DATASET_DIR/dated/YYYY-MM-DD/, with a manifest of the same form as the served one, so that DatasetFiles
 * serves a dated directory as it serves the current one. The last build of a day replaces that day's
 * files: the dataset "as it was that day" is the one served at the end of it.
 *
 * The files are hard links to the build's own (the same bytes, no copy; they outlive the build's removal
 * from the current directory), copied only where the file system cannot link. A day older than the
 * retention is pruned to a tombstone, pruned.json, so that a request for it can be told it is gone (410)
 * rather than that there never was one (404).
 */
export const DATED_DIR = 'dated';
export const PRUNED_FILE = 'pruned.json';

export function datedDir(dir: string, date: string): string {
  if (!isCalendarDate(date)) throw new Error(`'${date}' is not a date YYYY-MM-DD`);
  return path.join(dir, DATED_DIR, date);
}

/** What pruned.json holds. */
export interface PrunedDataset {
  date: string;
  prunedAt: string;
  builtAt: string | null;
  registryVersion: number | null;
}

export type DatedDataset =
  | { state: 'kept'; dir: string; manifest: DatasetManifest }
  | { state: 'pruned'; pruned: PrunedDataset }
  | { state: 'none' };

const sameFiles = (a: DatasetManifest, b: DatasetManifest): boolean =>
  JSON.stringify(manifestFiles(a)) === JSON.stringify(manifestFiles(b));

async function linkOrCopy(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP') throw error;
    await copyFile(from, to);
  }
}

async function writeAtomically(dir: string, name: string, text: string): Promise<void> {
  const temp = path.join(dir, `.${name}-${randomBytes(6).toString('hex')}.tmp`);
  await writeFile(temp, text, { flag: 'wx' });
  await fsyncFile(temp);
  await rename(temp, path.join(dir, name));
}

/**
 * Keeps the build `manifest` of `dir` under `date`, replacing what that date held. Run by the build, under
 * its lock (runRecordedBuild): two builds never keep a date at once. Returns false when the date already
 * held these exact files.
 */
export async function keepDatedDataset(dir: string, manifest: DatasetManifest, date: string): Promise<boolean> {
  const target = datedDir(dir, date);
  await mkdir(target, { recursive: true });
  const held = await readManifest(target).catch(() => null);
  if (held && sameFiles(held, manifest)) return false;
  const kept = new Set([MANIFEST_FILE]);
  for (const files of manifestFiles(manifest)) {
    for (const name of [files.file, files.gzipFile]) {
      kept.add(name);
      await linkOrCopy(path.join(dir, name), path.join(target, name));
    }
  }
  // The switch, as in the current directory: readers see the day's previous build or this one.
  await writeAtomically(target, MANIFEST_FILE, `${JSON.stringify({ ...manifest, date }, null, 2)}\n`);
  for (const name of await readdir(target)) {
    if (!kept.has(name)) await removeQuietly(path.join(target, name));
  }
  return true;
}

/** The dated dataset of `date` in `dir`: kept (with its manifest), pruned, or none ever kept. */
export async function findDatedDataset(dir: string, date: string): Promise<DatedDataset> {
  const target = datedDir(dir, date);
  const manifest = await readManifest(target).catch(() => null);
  if (manifest) return { state: 'kept', dir: target, manifest };
  try {
    return { state: 'pruned', pruned: JSON.parse(await readFile(path.join(target, PRUNED_FILE), 'utf8')) as PrunedDataset };
  } catch {
    return { state: 'none' };
  }
}

/** The dates with a dataset kept, oldest first. */
export async function keptDates(dir: string): Promise<string[]> {
  const names = await readdir(path.join(dir, DATED_DIR)).catch(() => [] as string[]);
  const dates: string[] = [];
  for (const name of names.filter(isCalendarDate).sort()) {
    if ((await findDatedDataset(dir, name)).state === 'kept') dates.push(name);
  }
  return dates;
}

/**
 * Prunes every dated dataset of a date before `cutoff` (YYYY-MM-DD) to its tombstone; returns how many.
 * Safe to run twice or in two workers at once: the tombstone is written before the files go.
 */
export async function pruneDatedDatasets(dir: string, cutoff: string, now = new Date()): Promise<number> {
  let pruned = 0;
  const names = await readdir(path.join(dir, DATED_DIR)).catch(() => [] as string[]);
  for (const date of names.filter((name) => isCalendarDate(name) && name < cutoff)) {
    const target = datedDir(dir, date);
    const found = await findDatedDataset(dir, date);
    if (found.state !== 'kept') continue;
    const tombstone: PrunedDataset = {
      date,
      prunedAt: now.toISOString(),
      builtAt: found.manifest.builtAt,
      registryVersion: found.manifest.registryVersion,
    };
    await writeAtomically(target, PRUNED_FILE, `${JSON.stringify(tombstone)}\n`);
    // The manifest first: a reader then finds the tombstone, never a manifest naming files already gone.
    await rm(path.join(target, MANIFEST_FILE), { force: true });
    for (const name of await readdir(target)) {
      if (name !== PRUNED_FILE) await rm(path.join(target, name), { force: true });
    }
    pruned++;
  }
  return pruned;
}
