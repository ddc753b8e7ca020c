import { Worker } from 'node:worker_threads';
import { locateCompiledWorker } from '../../lib/compiled-worker.js';
import type { DatasetDiffJob } from './dataset-diff-worker.js';

// Two parsed datasets of today's registry take about 60 MB; a much larger registry fails its own thread only.
const WORKER_RESOURCE_LIMITS = { maxOldGenerationSizeMb: 512 };

let workerUrl: URL | undefined;

/**
 * The diff of two datasets' bytes (dataset/dataset-diff.ts), computed in a worker thread of its own that
 * ends with it: diffs are rare and cached, so a thread kept waiting for the next one is not worth its memory.
 * Answers the diff's JSON text (`{"namespaces":…,"resources":…}`) as UTF-8 bytes.
 */
export function diffInWorker(before: Buffer, after: Buffer): Promise<Buffer> {
  workerUrl ??= locateCompiledWorker(import.meta.url, 'dataset-diff-worker.js');
  const job: DatasetDiffJob = { before, after };
  return new Promise((resolve, reject) => {
    // execArgv: []: the parent's flags (e.g. jest's --experimental-vm-modules) have no business here.
    const worker = new Worker(workerUrl!, { execArgv: [], workerData: job, resourceLimits: WORKER_RESOURCE_LIMITS });
    let answer: Uint8Array | undefined;
    worker.once('message', (bytes: Uint8Array) => (answer = bytes));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (answer) resolve(Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength));
      else reject(new Error(`The dataset diff worker ended (exit code ${code}) without an answer`));
    });
  });
}
