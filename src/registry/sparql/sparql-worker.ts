/**
 * Worker thread of the SPARQL endpoint (sparql-pool.ts): holds the dataset build's RDF in an Oxigraph store
 * and the registry's snapshot and reverse index for the owl:sameAs links, and answers one query at a time.
 * Oxigraph evaluates a query synchronously, in WebAssembly, with no way to interrupt it: only this thread
 * waits for it, and the pool terminates the thread when the query outlives its time limit.
 */
import { parentPort } from 'node:worker_threads';
import { namedNode, quad, Store, type Quad } from 'oxigraph';
import { buildReverseIndex, type ReverseIndex } from '../../core/reverse-index.js';
import type { RegistrySnapshot } from '../../core/registry-snapshot.js';
import { asIri, irisInQuery, sameAsLinks } from '../../core/same-as-links.js';
import { snapshotFromDataset } from '../../dataset/dataset-snapshot.js';
import { RDF_VOCABULARIES } from '../../dataset/export-rdf.presenter.js';

export interface SparqlLoadMessage {
  type: 'load';
  /** The build the bytes are from; the answer names it. */
  key: string;
  /** The dataset's plain variant (JSON). */
  dataset: Uint8Array;
  /** The registry's RDF as N-Triples (the registry.nt export). */
  triples: Uint8Array;
  publicResolverUrl: string;
  publicRegistryUrl: string;
}

export interface SparqlQueryMessage {
  type: 'query';
  id: number;
  query: string;
  /** The media type to write the answer in (a results format, or an RDF format for CONSTRUCT and DESCRIBE). */
  mediaType: string;
  maxResultBytes: number;
  /** IRIs of the query looked up for owl:sameAs links, at most. */
  maxLinkedIris: number;
}

export type SparqlWorkerMessage =
  | { type: 'ready' }
  | { type: 'loaded'; key: string; triples: number }
  | { type: 'load-failed'; key: string; message: string }
  | { type: 'answer'; id: number; body: Uint8Array }
  /** The query is malformed or cannot be answered in the asked format: the parser's or evaluator's message. */
  | { type: 'invalid'; id: number; message: string }
  | { type: 'too-large'; id: number; bytes: number };

if (!parentPort) throw new Error('sparql-worker.js runs as a worker thread of the SPARQL endpoint');
const port = parentPort;

const SAME_AS = namedNode(`${RDF_VOCABULARIES.owl}sameAs`);
const IDOT_PREFERRED = `${RDF_VOCABULARIES.idot}preferredPrefix`;
const IDOT_ALTERNATE = `${RDF_VOCABULARIES.idot}alternatePrefix`;

interface Loaded {
  store: Store;
  snapshot: RegistrySnapshot;
  index: ReverseIndex;
  publicResolverUrl: string;
  publicRegistryUrl: string;
}
let loaded: Loaded | null = null;

/** The prefix synonyms the RDF states (idot:alternatePrefix), which the dataset file does not carry. */
function synonymsIn(store: Store): Map<string, string[]> {
  const rows = store.query(`SELECT ?prefix ?synonym WHERE { ?ns <${IDOT_PREFERRED}> ?prefix ; <${IDOT_ALTERNATE}> ?synonym }`) as Map<string, { value: string }>[];
  const synonyms = new Map<string, string[]>();
  for (const row of rows) {
    const prefix = row.get('prefix')!.value.toLowerCase();
    const list = synonyms.get(prefix) ?? [];
    list.push(row.get('synonym')!.value);
    synonyms.set(prefix, list);
  }
  return synonyms;
}

function load(message: SparqlLoadMessage): void {
  try {
    const store = new Store();
    store.load(new TextDecoder().decode(message.triples), { format: 'application/n-triples' });
    const snapshot = snapshotFromDataset(message.dataset, synonymsIn(store));
    loaded = {
      store,
      snapshot,
      index: buildReverseIndex(snapshot),
      publicResolverUrl: message.publicResolverUrl,
      publicRegistryUrl: message.publicRegistryUrl,
    };
    port.postMessage({ type: 'loaded', key: message.key, triples: store.size } satisfies SparqlWorkerMessage);
  } catch (error) {
    port.postMessage({ type: 'load-failed', key: message.key, message: error instanceof Error ? error.message : String(error) } satisfies SparqlWorkerMessage);
  }
}

/** The links of the query's IRIs as triples the store lacks (those it has stay when the query is done). */
function linkQuads(state: Loaded, query: string, maxLinkedIris: number): Quad[] {
  const iris = irisInQuery(query, maxLinkedIris);
  if (iris.length === 0) return [];
  const options = { publicResolverUrl: state.publicResolverUrl, publicRegistryUrl: state.publicRegistryUrl };
  const quads: Quad[] = [];
  for (const [subject, object] of sameAsLinks(iris, state.snapshot, state.index, options)) {
    try {
      const link = quad(namedNode(asIri(subject)), SAME_AS, namedNode(asIri(object)));
      if (!state.store.has(link)) quads.push(link);
    } catch {
      // A URL that is no IRI even so (a bad percent-escape, say) is not linked.
    }
  }
  return quads;
}

function answer(message: SparqlQueryMessage): SparqlWorkerMessage {
  if (!loaded) return { type: 'invalid', id: message.id, message: 'The SPARQL store is not loaded' };
  const added = linkQuads(loaded, message.query, message.maxLinkedIris);
  for (const link of added) loaded.store.add(link);
  let text: string;
  try {
    text = loaded.store.query(message.query, { results_format: message.mediaType }) as string;
  } catch (error) {
    return { type: 'invalid', id: message.id, message: error instanceof Error ? error.message : String(error) };
  } finally {
    // The links belong to this query only.
    for (const link of added) loaded.store.delete(link);
  }
  const bytes = Buffer.byteLength(text);
  if (bytes > message.maxResultBytes) return { type: 'too-large', id: message.id, bytes };
  return { type: 'answer', id: message.id, body: new TextEncoder().encode(text) };
}

port.on('message', (message: SparqlLoadMessage | SparqlQueryMessage) => {
  if (message.type === 'load') return load(message);
  const reply = answer(message);
  if (reply.type === 'answer') port.postMessage(reply, [reply.body.buffer as ArrayBuffer]);
  else port.postMessage(reply);
});
port.postMessage({ type: 'ready' } satisfies SparqlWorkerMessage);
