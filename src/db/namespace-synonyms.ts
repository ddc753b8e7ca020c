/**
 * Reads and writes of namespace_synonyms (migrations: create_namespace_synonyms). The database keeps a
 * synonym unique among synonyms and prefixes whatever its case; a write that breaks that fails with the
 * constraint name below, which synonymClashMessage turns into words for the curator.
 */
import type { Knex } from 'knex';
import { sortSynonyms, synonymProblem } from '../core/prefix-synonyms.js';

/** The constraint a synonym/prefix clash is raised under (by the triggers) or a synonym/synonym one (the index). */
export const SYNONYM_PREFIX_CLASH = 'namespace_synonyms_prefix_clash';
export const SYNONYM_UNIQUE = 'namespace_synonyms_lower_unique';

interface PgError {
  code?: string;
  constraint?: string;
  detail?: string;
}

/** What a refused synonym or prefix write means, or undefined when the error is another one. */
export function synonymClashMessage(error: unknown): string | undefined {
  const { code, constraint, detail } = error as PgError;
  if (code !== '23505') return undefined;
  // The trigger's detail names both the name and the namespace that has it.
  if (constraint === SYNONYM_PREFIX_CLASH) return detail;
  if (constraint === SYNONYM_UNIQUE) return 'A synonym given is already a synonym of another namespace (synonyms are unique whatever their case)';
  return undefined;
}

/**
 * The synonyms of each of the namespaces (sorted), of every namespace when `namespaceIds` is undefined; a
 * namespace without any is absent.
 */
export async function readSynonymsOf(db: Knex, namespaceIds: readonly number[] | undefined): Promise<Map<number, string[]>> {
  const byNamespace = new Map<number, string[]>();
  if (namespaceIds?.length === 0) return byNamespace;
  const query = db('namespace_synonyms').select('namespaceId', 'synonym');
  const rows = namespaceIds ? await query.whereIn('namespaceId', namespaceIds) : await query;
  for (const row of rows) {
    const id = Number(row.namespaceId);
    let list = byNamespace.get(id);
    if (!list) byNamespace.set(id, (list = []));
    list.push(row.synonym);
  }
  for (const [id, list] of byNamespace) byNamespace.set(id, sortSynonyms(list));
  return byNamespace;
}

/** Every namespace's synonyms, by prefix, prefixes and synonyms sorted; namespaces without any are left out. */
export async function readAllSynonymsByPrefix(db: Knex): Promise<[prefix: string, synonyms: string[]][]> {
  const rows = await db('namespace_synonyms as s')
    .join('namespaces as n', 'n.id', 's.namespaceId')
    .select('n.prefix', 's.synonym');
  const byPrefix = new Map<string, string[]>();
  for (const row of rows) {
    let list = byPrefix.get(row.prefix);
    if (!list) byPrefix.set(row.prefix, (list = []));
    list.push(row.synonym);
  }
  return [...byPrefix.keys()]
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((prefix) => [prefix, sortSynonyms(byPrefix.get(prefix)!)]);
}

/** The namespace that has `name` as a synonym, whatever its case. */
export function findNamespaceBySynonym(db: Knex, name: string): Promise<{ id: number; prefix: string; synonym: string } | undefined> {
  return db('namespace_synonyms as s')
    .join('namespaces as n', 'n.id', 's.namespaceId')
    .first('n.id', 'n.prefix', 's.synonym')
    .whereRaw('lower(s.synonym) = lower(?)', [name]);
}

export interface SynonymChanges {
  added: string[];
  removed: string[];
}

/**
 * Makes `synonyms` (tidied: tidySynonyms) the namespace's whole list, touching only the rows that change, so
 * that an unchanged list logs no registry change. A spelling change of one synonym (`ncbitaxon` to
 * `NCBITaxon`) is a removal and an addition. Run it in the caller's transaction. A synonym that synonymProblem
 * refuses is never stored.
 */
export async function setNamespaceSynonyms(trx: Knex, namespaceId: number, synonyms: readonly string[]): Promise<SynonymChanges> {
  // The callers refuse such a synonym with its reason first; this keeps a path that forgot from publishing it.
  const refused = synonyms.map(synonymProblem).find((problem) => problem !== null);
  if (refused) throw new Error(`Synonym ${refused}`);
  const stored = (await trx('namespace_synonyms').select('id', 'synonym').where({ namespaceId })) as { id: number; synonym: string }[];
  const wanted = new Set(synonyms);
  const have = new Set(stored.map((row) => row.synonym));
  const removed = stored.filter((row) => !wanted.has(row.synonym));
  const added = synonyms.filter((synonym) => !have.has(synonym));
  if (removed.length) await trx('namespace_synonyms').whereIn('id', removed.map((row) => row.id)).del();
  if (added.length) await trx('namespace_synonyms').insert(added.map((synonym) => ({ namespaceId, synonym })));
  return { added: sortSynonyms(added), removed: sortSynonyms(removed.map((row) => row.synonym)) };
}
