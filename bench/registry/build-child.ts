/**
 * One dataset build in a process of its own, so that its peak memory is the build's: started by build.ts
 * with the database URL and the dataset directory as arguments. It runs what the worker's job runs
 * (runRecordedBuild: advisory lock, dataset_builds row, streamed build, atomic switch), forced so that an
 * unchanged registry is built again, and reports through its IPC channel.
 */
import { createDb } from '../../src/db/knex.js';
import { runRecordedBuild } from '../../src/dataset/dataset-builds.js';
import { etagOf } from '../../src/dataset/dataset-files.js';
import { readMemory, type MemoryFigures } from '../lib/server-processes.js';

/** The process's memory after a page of namespaces was written. */
export interface BuildSample extends MemoryFigures {
  namespaces: number;
}

export interface BuildChildReport {
  type: 'built';
  status: 'built' | 'skipped';
  buildMs: number;
  /** After start-up and the first query, before the build. */
  before: MemoryFigures;
  /** After the build; peakRssMb is the process's VmHWM over its whole life. */
  after: MemoryFigures;
  namespaceCount: number;
  resourceCount: number;
  plainBytes: number;
  gzipBytes: number;
  rewrittenBytes: number;
  rewrittenGzipBytes: number;
  gzipEtag: string;
  /** Memory after every page of the build (one page = 1,000 namespaces, the build's default). */
  samples: BuildSample[];
}

const [databaseUrl, dir] = process.argv.slice(2);
if (!databaseUrl || !dir || !process.send) {
  process.stderr.write('usage: started by bench/registry/build.ts with <database URL> <dataset dir> and an IPC channel\n');
  process.exit(2);
}

// The worker's pool size (workers/main.ts).
const db = createDb(databaseUrl, { max: 4 });
try {
  await db.raw('SELECT 1');
  const before = readMemory(process.pid);
  const started = performance.now();
  const samples: BuildSample[] = [];
  const result = await runRecordedBuild(db, {
    db,
    dir,
    reason: 'nightly',
    force: true,
    worker: `registry-benchmark:${process.pid}`,
    // A read of /proc/self/status per page: microseconds against a page's milliseconds.
    onProgress: (namespaces) => void samples.push({ namespaces, ...readMemory(process.pid) }),
  });
  const buildMs = Math.round(performance.now() - started);
  const { manifest } = result;
  const report: BuildChildReport = {
    type: 'built',
    status: result.status,
    buildMs,
    before,
    after: readMemory(process.pid),
    namespaceCount: manifest.namespaceCount,
    resourceCount: manifest.resourceCount,
    plainBytes: manifest.variants.plain.size,
    gzipBytes: manifest.variants.plain.gzipSize,
    rewrittenBytes: manifest.variants.rewritten.size,
    rewrittenGzipBytes: manifest.variants.rewritten.gzipSize,
    gzipEtag: etagOf(manifest.variants.plain, true),
    samples,
  };
  await new Promise<void>((resolve, reject) => process.send!(report, (error: Error | null) => (error ? reject(error) : resolve())));
} finally {
  await db.destroy();
}
process.exit(0);
