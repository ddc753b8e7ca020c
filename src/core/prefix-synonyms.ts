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

// What a prefix may hold (the registry's prefixes are lowercase letters, digits, '.', '_' and '-') plus the
// upper case real synonyms use (NCBITaxon, ncbi.taxon, gene_ontology, ec-code). Anything else would be
// published in prefixmap.json and the JSON-LD context as a CURIE prefix no reader takes: a quote, '<', '>' or
// '|' breaks them, ':' and '/' split a compact identifier, and a space cannot be typed in one. The first
// character is a letter, digit or underscore, as in CURIE prefixes. The database's check constraint
// (namespace_synonyms_text) is the older, looser rule.
const SYNONYM_CHARACTER = /[A-Za-z0-9._-]/;
const SYNONYM_START = /^[A-Za-z0-9_]/;
const SYNONYM_RULE = 'a synonym is made of letters, digits, dots, underscores and hyphens, and starts with a letter, a digit or an underscore';

/** A character as a message can show it: itself when printable, else its code point. */
function shown(character: string): string {
  if (character === ' ') return 'a space';
  return /^[\p{L}\p{N}\p{P}\p{S}]$/u.test(character) ? `'${character}'` : `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Why a synonym cannot be stored, or null when it can. Every path that stores a synonym asks this. */
export function synonymProblem(synonym: string): string | null {
  if (synonym.length === 0) return 'a synonym cannot be empty';
  if (synonym.length > MAX_SYNONYM_LENGTH) return `'${synonym.slice(0, 40)}...' is longer than ${MAX_SYNONYM_LENGTH} characters`;
  const quoted = `'${synonym.replace(/[^\p{L}\p{N}\p{P}\p{S} ]/gu, '?')}'`;
  const bad = [...synonym].find((character) => !SYNONYM_CHARACTER.test(character));
  if (bad !== undefined) return `${quoted} holds ${shown(bad)}: ${SYNONYM_RULE}`;
  if (!SYNONYM_START.test(synonym)) return `${quoted} starts with ${shown(synonym.charAt(0))}: ${SYNONYM_RULE}`;
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
