import { mkdir, open, readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import type { WireMeasurement } from '../core/measurement-wire.js';
import type { NamespaceEntry } from '../core/registry-snapshot.js';
import { wireOfEntry, type WireNamespace } from '../core/satellite-wire.js';
import { joinJsonInSlices } from '../lib/loop-turns.js';

/**
 * The satellite's last snapshot on disk (SATELLITE_SNAPSHOT_DIR/snapshot.json): what it serves after a
 * restart while the upstream is unreachable. Written to a temporary file, flushed and renamed into place, so a
 * crash mid-write leaves the previous file.
 */
export const SNAPSHOT_FILE = 'snapshot.json';
const FORMAT = 1;

export interface SavedSnapshot {
  /** The upstream it follows: a file of another upstream is not used. */
  upstream: string;
  /** Where the change feed resumes. */
  cursor: string;
  registryVersion: number;
  /** The upstream database the snapshot came from (X-Registry-Database); null when it did not say. */
  databaseId: string | null;
  savedAt: string;
  /**
   * The link-check measurements the snapshot is ranked by, so that a restart while the upstream is
   * unreachable ranks as before; absent in a file of an older version (none).
   */
  measurements?: WireMeasurement[];
  namespaces: WireNamespace[];
}

// Some 200 namespaces take about a millisecond to write.
const NAMESPACES_PER_SLICE = 200;

export async function saveSnapshot(dir: string, state: Omit<SavedSnapshot, 'namespaces' | 'savedAt'>, entries: Iterable<NamespaceEntry>): Promise<void> {
  await mkdir(dir, { recursive: true });
  // A slice of namespaces per turn of the event loop: a large registry's file must not stall resolution.
  const namespaces = await joinJsonInSlices([...entries], wireOfEntry, NAMESPACES_PER_SLICE);
  const head = JSON.stringify({
    format: FORMAT,
    upstream: state.upstream,
    cursor: state.cursor,
    registryVersion: state.registryVersion,
    databaseId: state.databaseId,
    savedAt: new Date().toISOString(),
    measurements: state.measurements,
  });
  const text = `${head.slice(0, -1)},"namespaces":[${namespaces}]}\n`;
  // One satellite per directory: a temporary a killed write left is simply written over.
  const temp = path.join(dir, `.${SNAPSHOT_FILE}.tmp`);
  const handle = await open(temp, 'w');
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, path.join(dir, SNAPSHOT_FILE));
}

/** The saved snapshot of `upstream`, or null when there is none (or it is unreadable, or another upstream's). */
export async function loadSnapshot(dir: string, upstream: string): Promise<{ saved: SavedSnapshot | null; problem?: string }> {
  let text: string;
  try {
    text = await readFile(path.join(dir, SNAPSHOT_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { saved: null };
    return { saved: null, problem: `cannot read ${SNAPSHOT_FILE}: ${(error as Error).message}` };
  }
  try {
    const saved = JSON.parse(text) as SavedSnapshot & { format?: number };
    if (saved.format !== FORMAT || !Array.isArray(saved.namespaces) || typeof saved.cursor !== 'string') {
      return { saved: null, problem: `${SNAPSHOT_FILE} is not a snapshot of this version` };
    }
    if (saved.upstream !== upstream) return { saved: null, problem: `${SNAPSHOT_FILE} follows another upstream (${saved.upstream})` };
    return { saved };
  } catch (error) {
    return { saved: null, problem: `${SNAPSHOT_FILE} is not valid JSON: ${(error as Error).message}` };
  }
}
