import type { SearchResult } from '../model/namespace-search.service.js';

/** GET /registry/search: what the search boxes' suggestions show, and where each leads. */
export function presentSuggestions(result: SearchResult) {
  return {
    query: result.text,
    total: result.total,
    offset: result.offset,
    results: result.hits.map((hit) => ({
      prefix: hit.prefix,
      name: hit.name,
      mirId: hit.mirId,
      deprecated: hit.deprecated,
      page: `/registry/${encodeURIComponent(hit.prefix)}`,
    })),
  };
}
