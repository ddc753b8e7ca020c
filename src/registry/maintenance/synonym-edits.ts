/**
 * Curators' changes to a namespace's synonyms (issue 15 item 1), made with the namespace's other fields by
 * its PATCH (`"synonyms": ["ncbitaxon", "taxon"]`, the whole list) or the desk's amend form, in the same
 * transaction, logged in the same curation event and bumping the same `modified`. The list is tidied as the
 * importer tidies it (one spelling per name, the prefix itself left out); each synonym's text is checked
 * here, and its uniqueness among prefixes and synonyms by the database, whose refusal is a conflict that
 * names the namespace holding the name.
 */
import type { Knex } from 'knex';
import { DomainError } from '../../core/domain-error.js';
import { MAX_SYNONYMS_PER_NAMESPACE, sortSynonyms, synonymProblem, tidySynonyms } from '../../core/prefix-synonyms.js';
import { readSynonymsOf, setNamespaceSynonyms, synonymClashMessage } from '../../db/namespace-synonyms.js';
import type { FieldChange } from '../../db/tables.js';
import { EditRefused } from './edit-validation.js';

export interface SynonymEdit {
  /** The namespace's whole list after the edit, sorted. */
  synonyms: string[];
  /** The change to log; undefined when the list stays as it is. */
  change: FieldChange | undefined;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

/**
 * What setting the namespace's synonyms to `wanted` changes (its prefix being `prefix` after the edit);
 * EditRefused when a synonym's text cannot be stored.
 */
export async function planSynonymEdit(db: Knex, namespaceId: number, prefix: string, wanted: readonly string[]): Promise<SynonymEdit> {
  const { synonyms } = tidySynonyms(prefix, wanted);
  if (synonyms.length > MAX_SYNONYMS_PER_NAMESPACE) {
    throw new EditRefused([{ field: 'synonyms', message: `A namespace has at most ${MAX_SYNONYMS_PER_NAMESPACE} synonyms` }]);
  }
  const failures = synonyms.flatMap((synonym) => {
    const problem = synonymProblem(synonym);
    return problem ? [{ field: 'synonyms', message: `Synonym ${problem}` }] : [];
  });
  if (failures.length) throw new EditRefused(failures);
  const before = (await readSynonymsOf(db, [namespaceId])).get(namespaceId) ?? [];
  const after = sortSynonyms(synonyms);
  return { synonyms: after, change: sameList(before, after) ? undefined : { from: before, to: after } };
}

/** Writes a planned change in the edit's transaction; a name taken meanwhile is a conflict. */
export async function applySynonymEdit(trx: Knex, namespaceId: number, edit: SynonymEdit): Promise<void> {
  if (!edit.change) return;
  try {
    // A savepoint: the refusal is reported as a conflict rather than as an aborted transaction.
    await trx.transaction((savepoint) => setNamespaceSynonyms(savepoint, namespaceId, edit.synonyms));
  } catch (error) {
    const message = synonymClashMessage(error);
    throw message ? new DomainError('conflict', message) : error;
  }
}
