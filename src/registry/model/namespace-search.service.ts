/**
 * The registry search people use (the pages' search box and its suggestions, the curator desk, and the EBI
 * Search shape the reference's web app reads, whose order the reference leaves to EBI Search's relevance):
 * the namespace whose prefix (or a synonym) is the text first, then live namespaces before deprecated ones,
 * each by the rank of the match (prefixes or synonyms starting with the text, then prefixes and names
 * holding it or its words, then descriptions holding its words) weighed with the namespace's use
 * (RELEVANCE). No text browses the whole registry by prefix, through the HAL browse service.
 */
import type { Db } from '../../db/knex.js';
import type { NamespaceRow } from '../../db/tables.js';
import { NAMESPACE_SEARCH_DOCUMENT } from '../../../migrations/20261125000300_add_namespace_search_indexes.js';
import { USAGE_TOTALS_VIEW } from '../../db/usage-totals.js';
import { COLLECTIONS } from './collections.js';
import { listItems } from './items.service.js';
import type { RestApiData } from './page-query.js';
import { escapeLike } from './query-values.js';
import type { RegistryVersion, RegistryVersionSource } from './registry-version.js';
import { VersionedCache } from './versioned-cache.js';

/** What a search result shows of a namespace. */
export type NamespaceHit = Pick<
  NamespaceRow,
  'id' | 'prefix' | 'mirId' | 'name' | 'description' | 'pattern' | 'sampleId' | 'deprecated' | 'deprecationDate' | 'created' | 'modified'
>;

export interface SearchResult {
  /** The text searched for, as normalised (trimmed, inner spaces collapsed, cut to MAX_SEARCH_LENGTH). */
  text: string;
  hits: NamespaceHit[];
  total: number;
  offset: number;
  limit: number;
}

export const MAX_SEARCH_LENGTH = 200;
/** The most hits one answer gives (EBI Search's own bound). */
export const MAX_SEARCH_LIMIT = 100;
// More words only make a narrower full-text query; a bound keeps the tsquery small.
const MAX_WORDS = 8;
/** The orders of magnitude of yearly visits that are worth one rank of the match (RELEVANCE). */
const DECADES_PER_RANK = 3;

/**
 * The order of the hits (issue 23 item 5). The namespace whose prefix (or a synonym) is the text comes first,
 * deprecated or not: whoever types a prefix means it. Then live namespaces before deprecated ones. Within
 * each, the rank of the match (a prefix or synonym starting with the text, then a prefix or name holding
 * it or its words, then a description holding its words) less a third of the order of magnitude of the namespace's
 * visits over the year: a namespace used a thousand times more than another climbs one rank above it, so
 * that "protein" finds UniProt (whose description says protein) before a little-used "X Protein", while
 * among namespaces used alike the text decides. Then the visits, then the prefix.
 */
const RELEVANCE = `rank > 0, deprecated, CASE WHEN rank = 0 THEN 0 ELSE rank - log(1 + visits::float8) / ${DECADES_PER_RANK} END, visits DESC, lower(prefix), id`;

// The namespaces one of whose synonyms is the text, or starts with it (served by namespace_synonyms_lower_unique).
const SYNONYM_IS = 'id IN (SELECT namespace_id FROM namespace_synonyms WHERE lower(synonym) = ?)';
const SYNONYM_STARTS = 'id IN (SELECT namespace_id FROM namespace_synonyms WHERE lower(synonym) LIKE ?)';

const HIT_COLUMNS = ['id', 'prefix', 'mirId', 'name', 'description', 'pattern', 'sampleId', 'deprecated', 'deprecationDate', 'created', 'modified'] as const;

/** Trimmed, inner whitespace collapsed, NUL removed (Postgres refuses it), at most MAX_SEARCH_LENGTH characters. */
export function normaliseSearchText(raw: string): string {
  return raw.replaceAll('\u0000', '').replace(/\s+/g, ' ').trim().slice(0, MAX_SEARCH_LENGTH);
}

/** The words of the text as a prefix-matching tsquery (`apopt:* & cell:*`); only letters and digits reach it. */
function wordsQuery(text: string): string | null {
  const words = [...text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)].map((m) => m[0]).slice(0, MAX_WORDS);
  return words.length === 0 ? null : words.map((w) => `${w}:*`).join(' & ');
}

export class NamespaceSearch {
  private readonly results: VersionedCache<SearchResult>;

  constructor(
    private readonly db: Db,
    private readonly data: RestApiData,
    private readonly versions: RegistryVersionSource,
  ) {
    this.results = new VersionedCache<SearchResult>({ maxEntries: 2000, ttlMs: versions.maxAgeMs });
  }

  /** `limit` hits from the `offset`th on; an empty text lists every namespace by prefix. */
  async search(rawText: string, offset: number, limit: number): Promise<SearchResult> {
    const text = normaliseSearchText(rawText);
    const version = await this.versions.read();
    if (text === '') return this.browse(version, offset, limit);
    return this.results.get(version, `${text}\u0000${offset}\u0000${limit}`, () => this.match(text, offset, limit));
  }

  /** The whole registry by prefix, read through the HAL browse's pages (and their cached key lists). */
  private async browse(version: RegistryVersion, offset: number, limit: number): Promise<SearchResult> {
    const store = this.data.storeAt(version);
    const pageOf = (page: number) =>
      listItems<NamespaceRow>(store, COLLECTIONS.namespaces, { page, size: limit, sort: [{ property: 'prefix', column: 'prefix', direction: 'asc' }] });
    const first = Math.floor(offset / limit);
    const pages = [await pageOf(first)];
    // An offset between page boundaries (EBI Search's start) takes the end of one page and the start of the next.
    if (offset % limit !== 0) pages.push(await pageOf(first + 1));
    const hits = pages.flatMap((p) => p.items).slice(offset % limit, (offset % limit) + limit);
    return { text: '', hits, total: pages[0]!.totalElements, offset, limit };
  }

  private async match(text: string, offset: number, limit: number): Promise<SearchResult> {
    const lower = text.toLowerCase();
    const starts = `${escapeLike(lower)}%`;
    const contains = `%${escapeLike(text)}%`;
    const words = wordsQuery(text);
    const inDocument = words === null ? 'false' : `${NAMESPACE_SEARCH_DOCUMENT} @@ to_tsquery('english', ?)`;
    const inName = words === null ? 'false' : `to_tsvector('english', name) @@ to_tsquery('english', ?)`;
    const wordBindings = words === null ? [] : [words];
    // Each condition has its index (migrations: the lower(prefix) pattern index, the trigram indexes on
    // prefix and name, the full-text index on name and description, the lower(synonym) pattern index), so
    // Postgres ORs bitmap scans. A synonym ranks as a prefix would (issue 15 item 1): the namespace it names
    // first when it is the text, among the prefixes starting with the text when it starts with it. The
    // year's visits come from a view of one row per prefix (its migration says why), joined by its key.
    const matching = this.db({ n: 'namespaces' })
      .leftJoin({ u: USAGE_TOTALS_VIEW }, 'u.prefix', 'n.prefix')
      .select(...HIT_COLUMNS.map((column) => `n.${column}`))
      .select(
        this.db.raw(
          `CASE WHEN lower(n.prefix) = ? OR ${SYNONYM_IS} THEN 0 WHEN lower(n.prefix) LIKE ? OR ${SYNONYM_STARTS} THEN 1 ` +
            `WHEN n.prefix ILIKE ? OR name ILIKE ? OR ${inName} THEN 2 ELSE 3 END AS rank`,
          [lower, lower, starts, starts, contains, contains, ...wordBindings],
        ),
        this.db.raw('coalesce(u.visits, 0) AS visits'),
      )
      .whereRaw(`lower(n.prefix) LIKE ? OR ${SYNONYM_STARTS} OR n.prefix ILIKE ? OR name ILIKE ? OR ${inDocument}`, [starts, starts, contains, contains, ...wordBindings]);
    const rows = (await this.db
      .from(matching.as('m'))
      .select('*', this.db.raw('count(*) OVER () AS total'))
      .orderByRaw(RELEVANCE)
      .limit(limit)
      .offset(offset)) as unknown as RankedRow[];
    // count(*) OVER () rides on every row; a page past the end has none, and asks the first page for it.
    const total = rows[0] ? Number(rows[0].total) : offset === 0 ? 0 : (await this.match(text, 0, 1)).total;
    const hits = rows.map(({ rank: _rank, visits: _visits, total: _total, ...hit }) => hit);
    return { text, hits, total, offset, limit };
  }
}

type RankedRow = NamespaceHit & { rank: number; visits: string; total: string };
