/**
 * Prefix synonyms as data (issue 15 item 1): the rules a synonym's text follows and how a list of them is
 * tidied, shared by the importer, the curators' edits and the tests. Resolution compares prefixes and
 * synonyms case-insensitively, so spellings of one name that differ only in case are one synonym: the first
 * spelling given is kept.
 */

/** The stored column's size, as a prefix's. */
export const MAX_SYNONYM_LENGTH = 255;
/** More than this per namespace is a mistake in the file or the form, not a list of names. */
export const MAX_SYNONYMS_PER_NAMESPACE = 50;

// A compact identifier is split at ':' and '/', so a synonym holding either could never be looked up; the
// database's check constraint (namespace_synonyms_text) says the same.
const SYNONYM_TEXT = /^[^:/\s]+$/u;

/** Why a synonym cannot be stored, or null when it can. */
export function synonymProblem(synonym: string): string | null {
  if (synonym.length === 0) return 'a synonym cannot be empty';
  if (synonym.length > MAX_SYNONYM_LENGTH) return `'${synonym.slice(0, 40)}...' is longer than ${MAX_SYNONYM_LENGTH} characters`;
  if (!SYNONYM_TEXT.test(synonym)) return `'${synonym}' holds a ':', a '/' or a space, which a compact identifier cannot carry in its prefix`;
  return null;
}

export interface TidiedSynonyms {
  /** Trimmed, one spelling per case-insensitive name, the prefix itself left out, in the order given. */
  synonyms: string[];
  /** Spellings dropped because an earlier one names the same synonym, or because it is the prefix itself. */
  folded: string[];
}

/** The synonyms of the namespace `prefix` as a list given by a person or a file. */
export function tidySynonyms(prefix: string, given: readonly string[]): TidiedSynonyms {
  const seen = new Set([prefix.toLowerCase()]);
  const synonyms: string[] = [];
  const folded: string[] = [];
  for (const raw of given) {
    const synonym = raw.trim();
    if (synonym === '') continue;
    const key = synonym.toLowerCase();
    if (seen.has(key)) {
      folded.push(synonym);
      continue;
    }
    seen.add(key);
    synonyms.push(synonym);
  }
  return { synonyms, folded };
}

/** Sorted as the HAL item and the export list them: by code unit, so every process agrees. */
export function sortSynonyms(synonyms: readonly string[]): string[] {
  return [...synonyms].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
