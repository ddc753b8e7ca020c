import type { Knex } from 'knex';
import { synonymProblem } from '../core/prefix-synonyms.js';
import { readSynonymsOf } from '../db/namespace-synonyms.js';

/** A namespace's prefix synonyms, by namespace id (namespaces without any are absent). */
export type SynonymsByNamespace = ReadonlyMap<number, readonly string[]>;

/** Reads the synonyms of every namespace (`namespaceIds` absent) or of these, in the caller's transaction. */
export type ReadSynonyms = (db: Knex, namespaceIds?: readonly number[]) => Promise<SynonymsByNamespace>;

/**
 * Where the exports (the dataset build's and a namespace's RDF) get prefix synonyms from: namespace_synonyms
 * (issue 15 item 1), each namespace's sorted. A synonym change is logged as a change of its namespace, so
 * the dataset build that follows it writes the exports again. A synonym stored before today's rule
 * (core/prefix-synonyms.ts) was tightened, holding a quote, `<`, `|` or such, is left out: the prefix map and
 * the JSON-LD context would publish it as a CURIE prefix no reader takes (issue 21 item 10).
 */
export const readExportSynonyms: ReadSynonyms = async (db, namespaceIds) => {
  const byNamespace = await readSynonymsOf(db, namespaceIds);
  for (const [id, synonyms] of byNamespace) {
    const publishable = synonyms.filter((synonym) => synonymProblem(synonym) === null);
    if (publishable.length === synonyms.length) continue;
    if (publishable.length === 0) byNamespace.delete(id);
    else byNamespace.set(id, publishable);
  }
  return byNamespace;
};
