import type { Knex } from 'knex';

/** A namespace's prefix synonyms, by namespace id (namespaces without any are absent). */
export type SynonymsByNamespace = ReadonlyMap<number, readonly string[]>;

/** Reads the synonyms of every namespace (`namespaceIds` absent) or of these, in the caller's transaction. */
export type ReadSynonyms = (db: Knex, namespaceIds?: readonly number[]) => Promise<SynonymsByNamespace>;

const noSynonyms: ReadSynonyms = () => Promise.resolve(new Map());

/**
 * Where the exports (the dataset build's and a namespace's RDF) get prefix synonyms from. None are stored
 * yet; once the namespace_synonyms table exists this is its reader, and both pick them up.
 */
export const readExportSynonyms: ReadSynonyms = noSynonyms;
