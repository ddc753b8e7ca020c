/**
 * The home page's reverse box: a provider URL back to its compact identifier, with the resolver's own
 * reverse lookup (core/reverse-lookup.ts) on the namespaces whose providers' URL patterns name the URL's
 * host, read from the registry's database as the resolver's snapshot holds them. The registry area keeps
 * no snapshot of its own: a person's lookup reads those few namespaces and builds their index.
 */
import { buildReverseIndex } from '../../core/reverse-index.js';
import { reverseByPrefix, reverseBySimilarity, type ReverseMatch } from '../../core/reverse-lookup.js';
import { buildSnapshot } from '../../core/registry-snapshot.js';
import type { Db } from '../../db/knex.js';
import { readNamespaceEntries } from '../../db/namespace-entries.js';
import { escapeLike } from '../rest-api/query-values.js';

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

export async function lookUpUrl(db: Db, publicResolverUrl: string, rawUrl: string): Promise<ReverseAnswer> {
  const url = rawUrl.trim();
  if (url.length > MAX_REVERSE_URL_LENGTH) return { kind: 'invalid', message: `The address is longer than ${MAX_REVERSE_URL_LENGTH} characters` };
  const host = url.includes('\u0000') ? null : hostOf(url);
  if (!host) return { kind: 'invalid', message: 'Enter a web address starting with http:// or https://' };
  const rows = await db('resources')
    .distinct('namespaceId')
    .whereRaw('url_pattern ILIKE ?', [`%${escapeLike(host)}%`])
    .limit(MAX_CANDIDATE_NAMESPACES);
  const ids = rows.map((row) => row.namespaceId);
  if (ids.length === 0) return { kind: 'similar', matches: [] };
  const index = buildReverseIndex(buildSnapshot(0, await readNamespaceEntries(db, ids)));
  const options = { publicResolverUrl };
  const match = reverseByPrefix(index, { url }, options);
  if (match) return { kind: 'match', match };
  return { kind: 'similar', matches: reverseBySimilarity(index, { url }, { ...options, maxResults: SIMILAR_RESULTS }) };
}
