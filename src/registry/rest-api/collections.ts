import type { SortWhitelist } from './paging.js';

export type CollectionName = 'namespaces' | 'resources' | 'institutions' | 'locations';

export type SearchResult = 'item' | 'list' | 'page' | 'boolean';

export interface SearchDefinition {
  name: string;
  /** Parameter names in the order the search's link template lists them (the reference's Java names). */
  params: readonly string[];
  /**
   * Other spellings the route also reads for one of them (the published interface's), which its page links
   * repeat as the client wrote them; the answer cache keys by these too (answer-key.ts).
   */
  aliases?: readonly string[];
  result: SearchResult;
}

export interface CollectionDefinition {
  name: CollectionName;
  /** The rel of one item (`namespace`), used for the item's own link and in the profile. */
  itemRel: string;
  table: string;
  /** The primary key column (camelCase): the stable tiebreak of every order, so paging is deterministic. */
  keyColumn: string;
  /**
   * The item's JSON properties, in the reference's order (the presenter writes them in this order). Each is
   * the camelCase name of its column, so these (and the key) are what a client may sort by.
   */
  fields: readonly string[];
  /** Columns besides the key that hold no two equal values: an order on one needs no tiebreak. */
  uniqueColumns: readonly string[];
  /**
   * Columns whose index is a text_pattern_ops btree (serving LIKE 'abc%'): they are ordered bytewise
   * (USING ~<~), which that index serves, instead of by collation, which would sort the whole table.
   */
  patternOrderedColumns: readonly string[];
  searches: readonly SearchDefinition[];
}

const namespaces: CollectionDefinition = {
  name: 'namespaces',
  itemRel: 'namespace',
  table: 'namespaces',
  keyColumn: 'id',
  fields: [
    'prefix', 'mirId', 'name', 'pattern', 'description', 'created', 'modified', 'deprecated', 'deprecationDate',
    'deprecationOfflineDate', 'renderDeprecatedLanding', 'deprecationStatement', 'infoOnPostmortemAccess',
    'sampleId', 'namespaceEmbeddedInLui',
  ],
  // prefix is unique because lower(prefix) is (a unique index).
  uniqueColumns: ['prefix', 'mirId'],
  patternOrderedColumns: ['prefix'],
  searches: [
    { name: 'findByPrefix', params: ['prefix'], result: 'item' },
    { name: 'existsNamespaceByPrefix', params: ['prefix'], result: 'boolean' },
    { name: 'findByPrefixStartsWith', params: ['prefixStart'], result: 'page' },
    { name: 'findByPrefixStartsWithNumbers', params: [], result: 'page' },
    { name: 'findByPrefixContaining', params: ['content'], result: 'page' },
    { name: 'findByMirId', params: ['mirId'], result: 'item' },
  ],
};

const resources: CollectionDefinition = {
  name: 'resources',
  itemRel: 'resource',
  table: 'resources',
  keyColumn: 'id',
  fields: [
    'mirId', 'urlPattern', 'name', 'description', 'official', 'providerCode', 'sampleId', 'resourceHomeUrl',
    'created', 'modified', 'deprecated', 'deprecationDate', 'deprecationOfflineDate', 'renderDeprecatedLanding',
    'deprecationStatement', 'protectedUrls', 'renderProtectedLanding', 'authHelpUrl', 'authHelpDescription',
  ],
  uniqueColumns: ['mirId'],
  patternOrderedColumns: [],
  searches: [
    { name: 'findAllByNamespaceId', params: ['id'], result: 'list' },
    { name: 'findAllByInstitutionId', params: ['id'], result: 'list' },
    { name: 'findByNamespaceIdAndProviderCode', params: ['namespaceId', 'providerCode'], aliases: ['id'], result: 'list' },
    { name: 'findByProviderCode', params: ['providerCode'], result: 'page' },
    { name: 'findByMirId', params: ['mirId'], result: 'item' },
  ],
};

const institutions: CollectionDefinition = {
  name: 'institutions',
  itemRel: 'institution',
  table: 'institutions',
  keyColumn: 'id',
  fields: ['id', 'name', 'homeUrl', 'description', 'created', 'modified', 'rorId'],
  uniqueColumns: ['name'],
  patternOrderedColumns: [],
  searches: [
    { name: 'findByName', params: ['name'], result: 'item' },
    { name: 'findByRorId', params: ['rorId'], result: 'item' },
    { name: 'findByNameContaining', params: ['nameContent'], aliases: ['name'], result: 'page' },
    { name: 'findByNameContainingIgnoreCase', params: ['nameContent'], aliases: ['name'], result: 'page' },
    { name: 'findByLocationCountryCode', params: ['countryCode'], result: 'page' },
  ],
};

const locations: CollectionDefinition = {
  name: 'locations',
  itemRel: 'location',
  table: 'locations',
  keyColumn: 'countryCode',
  // The reference leaves countryCode out (it is the id); clients asked for it, so it leads here.
  fields: ['countryCode', 'countryName', 'created'],
  uniqueColumns: [],
  patternOrderedColumns: [],
  searches: [{ name: 'findByCountryCode', params: ['countryCode'], result: 'item' }],
};

/** The browsable collections, in the order the API root lists them. */
export const COLLECTIONS: Readonly<Record<CollectionName, CollectionDefinition>> = { namespaces, resources, institutions, locations };

/** JSON property -> column: the only properties a client may sort by (user input never reaches SQL). */
export function sortWhitelist(collection: CollectionDefinition): SortWhitelist {
  const whitelist: Record<string, string> = { [collection.keyColumn]: collection.keyColumn };
  for (const field of collection.fields) whitelist[field] = field;
  return whitelist;
}

export function isCollectionName(name: string): name is CollectionName {
  return Object.hasOwn(COLLECTIONS, name);
}
