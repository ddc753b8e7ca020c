import type { Knex } from 'knex';

/**
 * The text the registry search matches words in (name, then description), as one expression: the
 * full-text index below is on it, and a query uses the index only when it writes the same expression
 * (registry/search/namespace-search.service.ts imports it from here).
 */
export const NAMESPACE_SEARCH_DOCUMENT = "to_tsvector('english', name || ' ' || description)";

/**
 * The registry search of the pages (issue 13): a prefix start whatever its case, a name containing the
 * text (trigrams, which ILIKE '%text%' uses), words of the name or description (full text); and the
 * reverse-lookup box, which narrows the providers to those whose URL pattern names the URL's host.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  await knex.raw('CREATE INDEX namespaces_prefix_lower_pattern ON namespaces (lower(prefix) text_pattern_ops)');
  await knex.raw('CREATE INDEX namespaces_name_trgm ON namespaces USING gin (name gin_trgm_ops)');
  await knex.raw(`CREATE INDEX namespaces_search_document ON namespaces USING gin ((${NAMESPACE_SEARCH_DOCUMENT}))`);
  await knex.raw('CREATE INDEX resources_url_pattern_trgm ON resources USING gin (url_pattern gin_trgm_ops)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS resources_url_pattern_trgm');
  await knex.raw('DROP INDEX IF EXISTS namespaces_search_document');
  await knex.raw('DROP INDEX IF EXISTS namespaces_name_trgm');
  await knex.raw('DROP INDEX IF EXISTS namespaces_prefix_lower_pattern');
}
