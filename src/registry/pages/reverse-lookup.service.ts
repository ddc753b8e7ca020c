/**
 * The home page's reverse box: a provider URL back to its compact identifier, with the resolver's own
 * reverse lookup (core/reverse-lookup.ts) on the namespaces whose providers' URL patterns name the URL's
 * host, read from the registry's database as the resolver's snapshot holds them. The registry area keeps
 * no snapshot of its own: a person's lookup reads those few namespaces and builds their index.
 */
import { resolverUrlPath, reverseResolverUrl } from '../../core/resolver-url-lookup.js';
import { buildReverseIndex } from '../../core/reverse-index.js';
import { reverseByPrefix, SimilarityLookup, SIMILARITY_STEPS_PER_SLICE, type ReverseMatch } from '../../core/reverse-lookup.js';
import { buildSnapshot } from '../../core/registry-snapshot.js';
import type { Db } from '../../db/knex.js';
import { readNamespaceEntries } from '../../db/namespace-entries.js';
import { nextLoopTurn } from '../../lib/loop-turns.js';
import { escapeLike } from '../model/query-values.js';

/** As the resolver's bySimilarity: longer URLs are refused. */
export const MAX_REVERSE_URL_LENGTH = 2048;
// A host that dozens of namespaces share (a big institute's) still gives a small index.
const MAX_CANDIDATE_NAMESPACES = 500;
const SIMILAR_RESULTS = 5;

export type ReverseAnswer =
  | { kind: 'invalid'; message: string }
  | { kind: 'match'; match: ReverseMatch }
  /** No provider's URL fits: the nearest providers of the same host, if any. */
  | { kind: 'similar'; matches: ReverseMatch[] };

/** The host a URL pattern of its provider would name: lower case, without `www.`. */
function hostOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
    return parsed.hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return null;
  }
}

/**
 * A resolver's own URL (`https://identifiers.org/ncbitaxon:9606`) names its compact identifier, perhaps
 * through a synonym, as the resolver's POST /reverse/byPrefix reads it: the namespaces its first two names
 * could be (by prefix or synonym) are read, and the URL parsed against them.
 */
async function lookUpResolverUrl(db: Db, publicResolverUrl: string, url: string): Promise<ReverseMatch | null> {
  const path = resolverUrlPath(url, publicResolverUrl);
  if (path === null) return null;
  const names = path.split(/[:/]/).slice(0, 2).filter((name) => name !== '' && name.length <= 255).map((name) => name.toLowerCase());
  if (names.length === 0) return null;
  const rows = await db('namespaces')
    .select('id')
    .whereRaw('lower(prefix) = ANY(?)', [names])
    .union((q) => void q.from('namespace_synonyms').select('namespace_id as id').whereRaw('lower(synonym) = ANY(?)', [names]));
  if (rows.length === 0) return null;
  const snapshot = buildSnapshot(0, await readNamespaceEntries(db, rows.map((row) => Number(row.id))));
  return reverseResolverUrl(url, snapshot, publicResolverUrl);
}

export async function lookUpUrl(db: Db, publicResolverUrl: string, rawUrl: string): Promise<ReverseAnswer> {
  const url = rawUrl.trim();
  if (url.length > MAX_REVERSE_URL_LENGTH) return { kind: 'invalid', message: `The address is longer than ${MAX_REVERSE_URL_LENGTH} characters` };
  const host = url.includes('\u0000') ? null : hostOf(url);
  if (!host) return { kind: 'invalid', message: 'Enter a web address starting with http:// or https://' };
  const ownMatch = await lookUpResolverUrl(db, publicResolverUrl, url);
  if (ownMatch) return { kind: 'match', match: ownMatch };
  const rows = await db('resources')
    .distinct('namespaceId')
    .whereRaw('url_pattern ILIKE ?', [`%${escapeLike(host)}%`])
    .limit(MAX_CANDIDATE_NAMESPACES);
  const ids = rows.map((row) => row.namespaceId);
  if (ids.length === 0) return { kind: 'similar', matches: [] };
  const entries = await readNamespaceEntries(db, ids);
  // Each step of a few milliseconds (the index of hundreds of providers, the matches and the page) in a
  // turn of the loop of its own, not in one with the other lookups whose reads came back at the same time.
  await nextLoopTurn();
  const index = buildReverseIndex(buildSnapshot(0, entries));
  const options = { publicResolverUrl };
  const match = reverseByPrefix(index, { url }, options);
  if (match) return { kind: 'match', match };
  // A long URL against the hundreds of providers of a big host is tens of milliseconds of search: in slices.
  const lookup = new SimilarityLookup(index, { url }, { ...options, maxResults: SIMILAR_RESULTS });
  let found = false;
  while (!found) {
    await nextLoopTurn();
    found = lookup.advance(SIMILARITY_STEPS_PER_SLICE);
  }
  return { kind: 'similar', matches: lookup.matches() };
}
