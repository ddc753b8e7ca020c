/**
 * Namespaces matching a text, found in the resolver's snapshot (the MCP tool `searchRegistry`). The ranks are
 * the registry search box's (registry/model/namespace-search.service.ts) as far as the snapshot can tell
 * them: the prefix (or a synonym) that is the text, prefixes (or synonyms) starting with it, prefixes and names containing it, names
 * holding words starting with the text's words. The box's last rank, words of the description, is left out:
 * the snapshot holds no descriptions (about 3 MB of text per 10,000 namespaces, which resolution never reads).
 */
import type { NamespaceEntry, RegistrySnapshot } from './registry-snapshot.js';

export const MAX_NAMESPACE_SEARCH_LENGTH = 200;
export const MAX_NAMESPACE_SEARCH_LIMIT = 100;
// As the registry's search: more words only narrow the match.
const MAX_WORDS = 8;

/** What the search reads of a namespace, lower-cased once per snapshot. */
interface SearchRow {
  namespace: NamespaceEntry;
  prefix: string;
  /** Its synonyms (issue 15 item 1), which rank as its prefix does. */
  synonyms: readonly string[];
  name: string;
  nameWords: readonly string[];
}

// One table per snapshot, dropped with it: a search does not lower-case the whole registry each time.
const tables = new WeakMap<RegistrySnapshot, readonly SearchRow[]>();

function wordsOf(text: string): string[] {
  return [...text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)].map((m) => m[0]);
}

function searchTable(snapshot: RegistrySnapshot): readonly SearchRow[] {
  let table = tables.get(snapshot);
  if (!table) {
    table = [...snapshot.namespacesByPrefix.values()]
      .map((namespace) => ({
        namespace,
        prefix: namespace.prefix.toLowerCase(),
        synonyms: (namespace.synonyms ?? []).map((synonym) => synonym.toLowerCase()),
        name: namespace.name.toLowerCase(),
        nameWords: wordsOf(namespace.name),
      }))
      // The registry search's order within a rank: lower(prefix), then id.
      .sort((a, b) => (a.prefix < b.prefix ? -1 : a.prefix > b.prefix ? 1 : a.namespace.id - b.namespace.id));
    tables.set(snapshot, table);
  }
  return table;
}

/** Trimmed, inner whitespace collapsed, at most MAX_NAMESPACE_SEARCH_LENGTH characters. */
export function normaliseNamespaceQuery(raw: string): string {
  return raw.replace(/\s+/g, ' ').trim().slice(0, MAX_NAMESPACE_SEARCH_LENGTH);
}

function rankOf(row: SearchRow, lower: string, words: readonly string[]): number {
  if (row.prefix === lower || row.synonyms.includes(lower)) return 0;
  if (row.prefix.startsWith(lower) || row.synonyms.some((synonym) => synonym.startsWith(lower))) return 1;
  if (row.prefix.includes(lower) || row.name.includes(lower)) return 2;
  if (words.length > 0 && words.every((word) => row.nameWords.some((nameWord) => nameWord.startsWith(word)))) return 3;
  return -1;
}

export interface NamespaceSearchResult {
  /** The text searched for, as normalised. */
  query: string;
  /** Every namespace matching, however many are returned. */
  total: number;
  namespaces: NamespaceEntry[];
}

/** At most `limit` namespaces matching `rawQuery`, best first; an empty text matches nothing. */
export function searchNamespaces(snapshot: RegistrySnapshot, rawQuery: string, limit: number): NamespaceSearchResult {
  const query = normaliseNamespaceQuery(rawQuery);
  if (query === '') return { query, total: 0, namespaces: [] };
  const lower = query.toLowerCase();
  const words = wordsOf(query).slice(0, MAX_WORDS);
  const ranks: NamespaceEntry[][] = [[], [], [], []];
  for (const row of searchTable(snapshot)) {
    const rank = rankOf(row, lower, words);
    if (rank >= 0) ranks[rank]!.push(row.namespace);
  }
  const all = ranks.flat();
  return { query, total: all.length, namespaces: all.slice(0, Math.max(0, limit)) };
}
