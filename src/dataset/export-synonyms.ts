import type { Knex } from 'knex';
import { readSynonymsOf } from '../db/namespace-synonyms.js';

/** A namespace's prefix synonyms, by namespace id (namespaces without any are absent). */
export type SynonymsByNamespace = ReadonlyMap<number, readonly string[]>;

/** Reads the synonyms of every namespace (`namespaceIds` absent) or of these, in the caller's transaction. */
export type ReadSynonyms = (db: Knex, namespaceIds?: readonly number[]) => Promise<SynonymsByNamespace>;

/**
 * Where the exports (the dataset build's and a namespace's RDF) get prefix synonyms from: namespace_synonyms
 * (issue 15 item 1), each namespace's sorted. A synonym change is logged as a change of its namespace, so
 * the dataset build that follows it writes the exports again.
 */
export const readExportSynonyms: ReadSynonyms = (db, namespaceIds) => readSynonymsOf(db, namespaceIds);
