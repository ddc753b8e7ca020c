import { ENVELOPE_JSON_HEAD } from '../../http/envelope.js';
import type { DatasetVersionDiff } from './dated-dataset.service.js';

/**
 * The bytes of JSON.stringify(envelope({ from, to, ...diff })), the diff's own text put in as it was
 * computed: a large diff is copied, never parsed and written again on the event loop.
 */
export function datasetDiffAnswer({ from, to, diffJson }: DatasetVersionDiff): Buffer {
  // diffJson is `{"namespaces":…,"resources":…}`: its fields follow from and to inside the payload's object.
  const head = `${ENVELOPE_JSON_HEAD}{"from":${JSON.stringify(from)},"to":${JSON.stringify(to)},`;
  return Buffer.concat([Buffer.from(head), diffJson.subarray(1), Buffer.from('}')]);
}
