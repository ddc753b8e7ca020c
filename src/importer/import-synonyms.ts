/**
 * Loads a prefix-synonym extension file (issue 15 item 1): a JSON object from a namespace's prefix to the
 * other names it answers to, `{ "taxonomy": ["ncbitaxon", "NCBITaxon", "taxon"], ... }`. Each namespace the
 * file lists gets exactly the file's synonyms (an empty list clears them); namespaces it does not list keep
 * theirs. What cannot be stored is skipped and reported, not fatal, since such files are often derived from
 * another registry (Bioregistry's synonyms) and a few of their names are other namespaces' prefixes:
 * an unknown prefix, a synonym that is a prefix or another namespace's synonym, a text a compact identifier
 * cannot carry. Spellings differing only in case are one synonym (the first is kept), as resolution reads
 * them case-insensitively. All in one transaction; the triggers log each namespace whose list changed.
 */
import type { Knex } from 'knex';
import { MAX_SYNONYMS_PER_NAMESPACE, synonymProblem, tidySynonyms } from '../core/prefix-synonyms.js';
import { readSynonymsOf, setNamespaceSynonyms } from '../db/namespace-synonyms.js';
import { ImportFormatError } from './read-dataset.js';

/** prefix → synonyms, as the file gives them. */
export type SynonymFile = Record<string, string[]>;

export interface SynonymImportSummary {
  /** Namespaces whose list the import changed. */
  namespacesChanged: number;
  added: number;
  removed: number;
  /** Spellings dropped as another spelling of a synonym already given, or of the prefix itself. */
  folded: number;
  /** What was not stored, each with its reason. */
  skipped: string[];
}

const MAX_FILE_ENTRIES = 1_000_000;

/** Checks the file's shape (an object of string arrays); ImportFormatError when it is not one. */
export function validateSynonymFile(json: unknown): SynonymFile {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new ImportFormatError('a synonyms file is a JSON object from prefix to a list of synonyms: { "taxonomy": ["ncbitaxon", "taxon"] }');
  }
  const entries = Object.entries(json as Record<string, unknown>);
  if (entries.length > MAX_FILE_ENTRIES) throw new ImportFormatError(`a synonyms file lists at most ${MAX_FILE_ENTRIES} namespaces`);
  for (const [prefix, list] of entries) {
    if (!Array.isArray(list) || list.some((s) => typeof s !== 'string')) {
      throw new ImportFormatError(`the synonyms of '${prefix}' must be a list of texts`);
    }
    if (list.length > MAX_SYNONYMS_PER_NAMESPACE) {
      throw new ImportFormatError(`'${prefix}' lists ${list.length} synonyms; at most ${MAX_SYNONYMS_PER_NAMESPACE} are taken per namespace`);
    }
  }
  return json as SynonymFile;
}

export async function importSynonyms(db: Knex, file: SynonymFile): Promise<SynonymImportSummary> {
  return db.transaction(async (trx) => {
    const summary: SynonymImportSummary = { namespacesChanged: 0, added: 0, removed: 0, folded: 0, skipped: [] };
    const namespaces = await trx('namespaces').select('id', 'prefix');
    const byPrefix = new Map(namespaces.map((n) => [n.prefix.toLowerCase(), { id: Number(n.id), prefix: n.prefix }]));
    const listed = new Map<number, string[]>();
    for (const [givenPrefix, given] of Object.entries(file)) {
      const namespace = byPrefix.get(givenPrefix.toLowerCase());
      if (!namespace) {
        summary.skipped.push(`'${givenPrefix}': no namespace has this prefix`);
        continue;
      }
      const { synonyms, folded } = tidySynonyms(namespace.prefix, [...(listed.get(namespace.id) ?? []), ...given]);
      summary.folded += folded.length;
      listed.set(namespace.id, synonyms);
    }

    // Who keeps each name: prefixes first, then the synonyms of namespaces the file leaves alone, then the
    // file's in its order. Decided here so that a clash skips one synonym instead of failing the whole file.
    const owner = new Map<string, string>();
    for (const n of namespaces) owner.set(n.prefix.toLowerCase(), `the prefix of '${n.prefix}'`);
    const untouched = await trx('namespace_synonyms as s')
      .join('namespaces as n', 'n.id', 's.namespaceId')
      .select('s.synonym', 'n.prefix', 's.namespaceId')
      .whereNotIn('s.namespaceId', [...listed.keys()]);
    for (const row of untouched) owner.set(row.synonym.toLowerCase(), `a synonym of '${row.prefix}'`);
    const prefixOf = new Map(namespaces.map((n) => [Number(n.id), n.prefix]));

    const wanted = new Map<number, string[]>();
    for (const [id, synonyms] of listed) {
      const kept: string[] = [];
      for (const synonym of synonyms) {
        const problem = synonymProblem(synonym);
        const taken = owner.get(synonym.toLowerCase());
        if (problem) summary.skipped.push(`'${prefixOf.get(id)}': ${problem}`);
        else if (taken) summary.skipped.push(`'${prefixOf.get(id)}': '${synonym}' is already ${taken}`);
        else {
          owner.set(synonym.toLowerCase(), `a synonym of '${prefixOf.get(id)}'`);
          kept.push(synonym);
        }
      }
      wanted.set(id, kept);
    }

    // Removals first: a synonym the file moves from one namespace to another must leave before it arrives.
    const changed = new Set<number>();
    const current = await readSynonymsOf(trx, [...wanted.keys()]);
    for (const [id, synonyms] of wanted) {
      const keep = new Set(synonyms);
      const gone = (current.get(id) ?? []).filter((synonym) => !keep.has(synonym));
      if (gone.length === 0) continue;
      await trx('namespace_synonyms').where({ namespaceId: id }).whereIn('synonym', gone).del();
      summary.removed += gone.length;
      changed.add(id);
    }
    for (const [id, synonyms] of wanted) {
      const { added } = await setNamespaceSynonyms(trx, id, synonyms);
      summary.added += added.length;
      if (added.length) changed.add(id);
    }
    summary.namespacesChanged = changed.size;
    return summary;
  });
}

/** One line per figure, for people reading the import's output; each skipped entry on a line of its own. */
export function formatSynonymSummary(summary: SynonymImportSummary, maxSkippedLines = 50): string[] {
  const lines = [
    `synonyms: ${summary.added} added, ${summary.removed} removed, on ${summary.namespacesChanged} namespaces; ` +
      `${summary.folded} spellings folded, ${summary.skipped.length} skipped`,
  ];
  for (const reason of summary.skipped.slice(0, maxSkippedLines)) lines.push(`  skipped ${reason}`);
  if (summary.skipped.length > maxSkippedLines) lines.push(`  ... and ${summary.skipped.length - maxSkippedLines} more`);
  return lines;
}
