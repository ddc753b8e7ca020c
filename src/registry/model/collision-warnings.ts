/**
 * The warnings a requested prefix gets when another registry already uses it (issue 15 item 6): a
 * collision is no reason to refuse a request (the other registry may mean the same thing, or the curators
 * may decide it does not matter), so it is said beside the answer, never instead of it.
 */
import type { Knex } from 'knex';
import { findReferencePrefixes } from '../../db/reference-prefixes.js';

// Longer texts are no prefix of any list (the column's size).
const MAX_PREFIX_LENGTH = 255;

/** One sentence per other registry that has `prefix` (whatever its case): `ncbitaxon is the prefix of NCBI Taxonomy in bioregistry`. */
export async function prefixCollisionWarnings(db: Knex, prefix: string): Promise<string[]> {
  const wanted = prefix.trim();
  if (wanted === '' || wanted.length > MAX_PREFIX_LENGTH) return [];
  const found = await findReferencePrefixes(db, wanted);
  return found.map((row) => `${row.prefix} is the prefix of ${row.name === '' ? 'a namespace' : row.name} in ${row.source}`);
}

/** What the validation route and the desk are given: the warnings of a requested prefix. */
export type PrefixCollisionCheck = (prefix: string) => Promise<string[]>;

export function createPrefixCollisionCheck(db: Knex): PrefixCollisionCheck {
  return (prefix) => prefixCollisionWarnings(db, prefix);
}
