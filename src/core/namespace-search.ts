/**
 * Namespaces matching a text, found in the resolver's snapshot (the MCP tool `searchRegistry`). The order is
 * the registry search box's (registry/model/namespace-search.service.ts) as far as the snapshot can tell it:
 * the prefix (or a synonym) that is the text, then live namespaces before deprecated ones, each by rank:
 * prefixes (or synonyms) starting with the text, then prefixes and names containing it or names holding
 * words starting with the text's words. Left out: the box's last rank, words of the description (the
 * snapshot holds no descriptions, about 3 MB of text per 10,000 namespaces, which resolution never reads),
 * and its weighing by the namespaces' use, which the resolver does not read either.
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

/** 0: the prefix or a synonym is the text; 1: one starts with it; 2: the prefix or name holds it; -1: no match. */
function rankOf(row: SearchRow, lower: string, words: readonly string[]): number {
  if (row.prefix === lower || row.synonyms.includes(lower)) return 0;
  if (row.prefix.startsWith(lower) || row.synonyms.some((synonym) => synonym.startsWith(lower))) return 1;
  if (row.prefix.includes(lower) || row.name.includes(lower)) return 2;
  if (words.length > 0 && words.every((word) => row.nameWords.some((nameWord) => nameWord.startsWith(word)))) return 2;
  return -1;
}

/** The bucket of a match: the exact one first, then live namespaces by rank, then deprecated ones by rank. */
function bucketOf(rank: number, deprecated: boolean): number {
  return rank === 0 ? 0 : deprecated ? rank + 2 : rank;
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
  const buckets: NamespaceEntry[][] = [[], [], [], [], []];
  for (const row of searchTable(snapshot)) {
    const rank = rankOf(row, lower, words);
    if (rank >= 0) buckets[bucketOf(rank, row.namespace.deprecated)]!.push(row.namespace);
  }
  const all = buckets.flat();
  return { query, total: all.length, namespaces: all.slice(0, Math.max(0, limit)) };
}
