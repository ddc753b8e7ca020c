import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { DATASET_PATH } from './workload.js';

export interface DatasetCheck {
  etag: string;
  gzipBytes: number;
  plainBytes: number;
  namespaces: number;
  /** Status of a revalidation with that ETag (expected 304). */
  revalidationStatus: number;
}

function get(port: number, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: DATASET_PATH, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.setTimeout(60_000, () => req.destroy(new Error(`GET ${DATASET_PATH}: no answer within 60 s`)));
    req.on('error', reject);
    req.end();
  });
}

/**
 * Downloads the dataset once with gzip, checks that it is gzip, decodes and parses it and that it holds the
 * namespaces the build wrote and carries the build's ETag; then revalidates with that ETag.
 */
export async function checkDataset(port: number, expected: { namespaces: number; gzipBytes: number; etag: string }): Promise<DatasetCheck> {
  const full = await get(port, { 'Accept-Encoding': 'gzip' });
  if (full.status !== 200) throw new Error(`GET ${DATASET_PATH} answered ${full.status}: ${full.body.toString('utf8').slice(0, 300)}`);
  if (full.headers['content-encoding'] !== 'gzip') throw new Error(`GET ${DATASET_PATH} with gzip accepted came back as ${full.headers['content-encoding'] ?? 'identity'}`);
  const etag = String(full.headers.etag ?? '');
  if (etag !== expected.etag) throw new Error(`the served ETag ${etag} is not the last build's ${expected.etag}`);
  if (full.body.length !== expected.gzipBytes) throw new Error(`${full.body.length} gzip bytes received, the build wrote ${expected.gzipBytes}`);
  const plain = gunzipSync(full.body);
  const namespaces = (JSON.parse(plain.toString('utf8')) as { payload: { namespaces: unknown[] } }).payload.namespaces.length;
  if (namespaces !== expected.namespaces) throw new Error(`the dataset holds ${namespaces} namespaces, the build wrote ${expected.namespaces}`);
  const revalidation = await get(port, { 'Accept-Encoding': 'gzip', 'If-None-Match': etag });
  if (revalidation.status !== 304) throw new Error(`revalidation with ${etag} answered ${revalidation.status}, not 304`);
  return { etag, gzipBytes: full.body.length, plainBytes: plain.length, namespaces, revalidationStatus: revalidation.status };
}
