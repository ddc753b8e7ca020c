/**
 * Worker thread of one dataset diff (dataset-diff-runner.ts): parsing two whole datasets and comparing them
 * takes tens of milliseconds of CPU, which the registry area's event loop must not spend. Given the two
 * datasets' bytes, it answers the diff's JSON text as UTF-8 bytes and ends.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { diffDatasets, type DatasetPayload } from '../../dataset/dataset-diff.js';

export interface DatasetDiffJob {
  before: Uint8Array;
  after: Uint8Array;
}

if (!parentPort) throw new Error('dataset-diff-worker.js runs as a worker thread of the dataset diff');

const payloadOf = (bytes: Uint8Array): DatasetPayload =>
  (JSON.parse(new TextDecoder().decode(bytes)) as { payload: DatasetPayload }).payload;

const { before, after } = workerData as DatasetDiffJob;
const answer = new TextEncoder().encode(JSON.stringify(diffDatasets(payloadOf(before), payloadOf(after))));
parentPort.postMessage(answer, [answer.buffer]);
