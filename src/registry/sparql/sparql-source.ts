/**
 * What the SPARQL threads load: the current dataset build's plain dataset file and its registry.nt export,
 * read through DatasetFiles (the manifest looked at again at most once a second, small files held in
 * memory), so that a new build is noticed by the next query and loaded by the threads.
 */
import type { Readable } from 'node:stream';
import { DomainError } from '../../core/domain-error.js';
import type { DatasetFiles, OpenedDataset } from '../../dataset/dataset-files.js';
import type { SparqlSource } from './sparql-pool.js';

// Far above today's registry (under 10 MB for both files); a file beyond it is not loaded into a thread.
const MAX_SOURCE_BYTES = 512 * 1024 * 1024;

async function bytesOf(opened: OpenedDataset): Promise<Buffer> {
  if (Buffer.isBuffer(opened.body)) return opened.body;
  if (opened.size > MAX_SOURCE_BYTES) throw new Error(`${opened.files.file} is larger than ${MAX_SOURCE_BYTES} bytes`);
  const chunks: Buffer[] = [];
  for await (const chunk of opened.body as Readable) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const NOT_BUILT = () =>
  new DomainError('unavailable', "The registry's RDF has not been built yet (the dataset build writes it); retry shortly", { retryAfterSeconds: 10 });

/** Reads the current build's files when it differs from `knownKey`; null when the build is the known one. */
export async function readSparqlSource(files: DatasetFiles, knownKey: string | null): Promise<SparqlSource | null> {
  const manifest = await files.current();
  const triples = manifest?.exports?.files['registry.nt'];
  if (!manifest || !triples) throw NOT_BUILT();
  const key = `${manifest.variants.plain.file} ${triples.file}`;
  if (key === knownKey) return null;
  const dataset = await files.openSelected((m) => m.variants.plain, false);
  const rdf = await files.openSelected((m) => m.exports?.files['registry.nt'], false);
  if (!dataset || !rdf) throw NOT_BUILT();
  // Both from one manifest: a build that replaced it between the two opens is read on the next query.
  const readKey = `${dataset.files.file} ${rdf.files.file}`;
  return { key: readKey, dataset: await bytesOf(dataset), triples: await bytesOf(rdf) };
}
