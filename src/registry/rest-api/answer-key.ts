import type { ParsedUrlQuery } from 'node:querystring';
import { COLLECTIONS, isCollectionName, sortWhitelist, type CollectionName, type SearchDefinition } from '../model/collections.js';
import { firstValue, parsePageRequest, type SortWhitelist } from '../model/paging.js';

/**
 * What a browse answer depends on besides the registry's content (and, for pages and lists, the echoed
 * request URL, see response-cache.ts): the path and the query parameters its route reads, as the route
 * reads them. Pages read page, size and sort through parsePageRequest, so the key holds the parsed values
 * (junk becomes the default the route would use, unknown sort properties are dropped); searches read the
 * first value of each of their parameters. Everything else in the query (tracking tags, cache busters,
 * `junk=N`) is left out, so that it can neither miss the cache nor fill it.
 */

const API_PREFIX = '/restApi';

interface RouteReads {
  /** Search parameters, aliases included, in a fixed order. */
  params: readonly string[];
  /** The collection whose sort whitelist a paged route applies; none for a route without paging. */
  paged?: SortWhitelist;
}

const WHITELISTS = Object.fromEntries(
  Object.values(COLLECTIONS).map((collection) => [collection.name, sortWhitelist(collection)]),
) as Record<CollectionName, SortWhitelist>;

const NOTHING: RouteReads = { params: [] };
// An item's id and an association's name as the routes take them; anything else is not known to be one.
const ITEM_ID = /^[\w.-]+$/;
const ASSOCIATION = /^[A-Za-z]+$/;

function searchReads(collection: CollectionName, search: SearchDefinition): RouteReads {
  const params = [...search.params, ...(search.aliases ?? [])];
  return search.result === 'page' ? { params, paged: WHITELISTS[collection] } : { params };
}

/**
 * What the route of `path` reads of the query. The router matches paths whatever their case and with or
 * without one trailing slash, so they are looked at that way too; undefined for a path that is not one of
 * the routes' shapes (an escaped character, an empty segment), which may still reach a route that reads
 * more than this could tell.
 */
function readsOf(path: string): RouteReads | undefined {
  const shape = path.toLowerCase().replace(/\/$/, '');
  if (shape === API_PREFIX.toLowerCase() || shape === `${API_PREFIX.toLowerCase()}/profile`) return NOTHING;
  if (!shape.startsWith(`${API_PREFIX.toLowerCase()}/`)) return undefined;
  const segments = shape.slice(API_PREFIX.length + 1).split('/');
  const [first = '', second, third] = segments;
  if (segments.length > 3) return undefined;
  if (first === 'profile') return segments.length === 2 && isCollectionName(second ?? '') ? NOTHING : undefined;
  if (!isCollectionName(first)) return undefined;
  if (second === undefined) return { params: [], paged: WHITELISTS[first] };
  if (second === 'search') {
    if (third === undefined) return NOTHING;
    const search = COLLECTIONS[first].searches.find((s) => s.name.toLowerCase() === third);
    return search ? searchReads(first, search) : undefined;
  }
  if (!ITEM_ID.test(second) || (third !== undefined && !ASSOCIATION.test(third))) return undefined;
  return NOTHING;
}

/**
 * The answer cache's key for a GET of `path` with `query` (`url`: the whole request URL, the key of a path
 * written otherwise than the routes write it).
 */
export function answerKey(path: string, query: ParsedUrlQuery, url: string): string {
  const reads = readsOf(path);
  if (!reads) return url;
  const parts: string[] = [];
  for (const name of reads.params) {
    const value = firstValue(query[name]);
    if (value !== undefined) parts.push(`${name}=${encodeURIComponent(value)}`);
  }
  if (reads.paged) {
    const request = parsePageRequest(query, reads.paged);
    parts.push(`page=${request.page}`, `size=${request.size}`);
    for (const order of request.sort) parts.push(`sort=${encodeURIComponent(order.property)},${order.direction}`);
  }
  return parts.length === 0 ? path : `${path}?${parts.join('&')}`;
}
