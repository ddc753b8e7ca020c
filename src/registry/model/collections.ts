import { WireRecord } from '../../lib/wire-record.js';
import type { SortWhitelist } from './paging.js';
import { canMatch, parseId } from './query-values.js';
import type { InstitutionRow, LocationRow, NamespaceRow, ResourceRow } from './rows.js';

/** What one item of a collection is called: its rel (`namespace`); the collection is its plural. */
export type ItemName = 'namespace' | 'resource' | 'institution' | 'location';

export type CollectionName = `${ItemName}s`;

export type SearchResult = 'item' | 'list' | 'page' | 'boolean';

export interface SearchDefinition {
  name: string;
  /**
   * Parameter names in the order the search's link template lists them (the reference's Java names). An
   * `item` search has one, the unique column it compares with.
   */
  params: readonly string[];
  /**
   * Other spellings the route also reads for one of them (the published interface's), which its page links
   * repeat as the client wrote them; the answer cache keys by these too (answer-key.ts).
   */
  aliases?: readonly string[];
  result: SearchResult;
}

/** The columns of a row type. */
export type Columns<Row> = keyof Row & string;

/** A browsable collection (the table of its name), whose rows have `Column`s. */
export interface CollectionDefinition<Column extends string = string> {
  name: CollectionName;
  /** The rel of one item (`namespace`), used for the item's own link and in the profile. */
  itemRel: ItemName;
  /** What a message calls one item (`Namespace with id '7' not found`). */
  noun: string;
  key: ItemKey<Column>;
  /**
   * The item's JSON properties, in the reference's order (the presenter writes them in this order). Each is
   * the camelCase name of its column, so these (and the key) are what a client may sort by.
   */
  fields: readonly Column[];
  /** The item's JSON: the fields, the extra item fields, then `_links` (hal.presenter.ts). */
  itemRecord: WireRecord<Column>;
  /**
   * Properties of the item after its fields that are no column (a namespace's `synonyms`): the services set
   * them on the rows they hand over, and no one sorts by them.
   */
  extraItemFields?: readonly string[];
  /** The item's association links (`{item}/{rel}`), in the reference's order. */
  associations: readonly string[];
  /** Columns besides the key that hold no two equal values: an order on one needs no tiebreak. */
  uniqueColumns: readonly string[];
  /**
   * Columns whose index is a text_pattern_ops btree (serving LIKE 'abc%'): they are ordered bytewise
   * (USING ~<~), which that index serves, instead of by collation, which would sort the whole table.
   */
  patternOrderedColumns: readonly string[];
  searches: readonly SearchDefinition[];
}

export interface ItemKey<Column extends string> {
  /** The primary key column (camelCase): the stable tiebreak of every order, so paging is deterministic. */
  column: Column;
  /** The key a path segment names, or null when it can name none (the query would find nothing). */
  parse: (raw: string) => number | string | null;
}

/** The registry's tables are keyed by a bigint id. */
const REGISTRY_ID: ItemKey<'id'> = { column: 'id', parse: parseId };

// Country codes are ISO 3166-1 alpha-2 (the column is varchar(2)).
const COUNTRY_CODE_LENGTH = 2;

function itemRecordOf<Column extends string>(fields: readonly Column[], extra: readonly string[]): WireRecord<Column> {
  // The extra properties are copied from the row like the fields; the cast only widens the row's type.
  const copied = [...fields, ...extra] as unknown as readonly Column[];
  return new WireRecord(copied, [...copied, '_links']);
}

/**
 * A collection whose items are `itemRel`s: it is their plural, and messages call one by its capitalised
 * name.
 */
function collectionOf<Column extends string>(
  itemRel: ItemName,
  definition: Omit<CollectionDefinition<Column>, 'name' | 'itemRel' | 'noun' | 'itemRecord'>,
): CollectionDefinition<Column> {
  return {
    name: `${itemRel}s`,
    itemRel,
    noun: `${itemRel.charAt(0).toUpperCase()}${itemRel.slice(1)}`,
    itemRecord: itemRecordOf(definition.fields, definition.extraItemFields ?? []),
    ...definition,
  };
}

const namespaces = collectionOf<Columns<NamespaceRow>>('namespace', {
  key: REGISTRY_ID,
  fields: [
    'prefix', 'mirId', 'name', 'pattern', 'description', 'created', 'modified', 'deprecated', 'deprecationDate',
    'deprecationOfflineDate', 'renderDeprecatedLanding', 'deprecationStatement', 'infoOnPostmortemAccess',
    'sampleId', 'namespaceEmbeddedInLui',
  ],
  // Issue 25 item 5: whether suffix passthrough is on (a column, shown after the reference's fields rather
  // than among them, so that the reference's part of the item and the profile's descriptors stay as they
  // were). Issue 15 item 1: the other names the namespace answers to, sorted (namespace-synonyms.ts), last.
  extraItemFields: ['suffixPassthrough', 'synonyms'],
  associations: ['successor', 'contactPerson', 'resources', 'curationWarnings'],
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
});

const resources = collectionOf<Columns<ResourceRow>>('resource', {
  key: REGISTRY_ID,
  fields: [
    'mirId', 'urlPattern', 'name', 'description', 'official', 'providerCode', 'sampleId', 'resourceHomeUrl',
    'created', 'modified', 'deprecated', 'deprecationDate', 'deprecationOfflineDate', 'renderDeprecatedLanding',
    'deprecationStatement', 'protectedUrls', 'renderProtectedLanding', 'authHelpUrl', 'authHelpDescription',
  ],
  associations: ['institution', 'location', 'namespace', 'contactPerson', 'curationWarnings'],
  uniqueColumns: ['mirId'],
  patternOrderedColumns: [],
  searches: [
    { name: 'findAllByNamespaceId', params: ['id'], result: 'list' },
    { name: 'findAllByInstitutionId', params: ['id'], result: 'list' },
    { name: 'findByNamespaceIdAndProviderCode', params: ['namespaceId', 'providerCode'], aliases: ['id'], result: 'list' },
    { name: 'findByProviderCode', params: ['providerCode'], result: 'page' },
    { name: 'findByMirId', params: ['mirId'], result: 'item' },
  ],
});

const institutions = collectionOf<Columns<InstitutionRow>>('institution', {
  key: REGISTRY_ID,
  fields: ['id', 'name', 'homeUrl', 'description', 'created', 'modified', 'rorId'],
  associations: ['location', 'resource', 'curationWarnings'],
  uniqueColumns: ['name'],
  patternOrderedColumns: [],
  searches: [
    { name: 'findByName', params: ['name'], result: 'item' },
    { name: 'findByRorId', params: ['rorId'], result: 'item' },
    { name: 'findByNameContaining', params: ['nameContent'], aliases: ['name'], result: 'page' },
    { name: 'findByNameContainingIgnoreCase', params: ['nameContent'], aliases: ['name'], result: 'page' },
    { name: 'findByLocationCountryCode', params: ['countryCode'], result: 'page' },
  ],
});

const locations = collectionOf<Columns<LocationRow>>('location', {
  key: { column: 'countryCode', parse: (raw) => (canMatch(raw, COUNTRY_CODE_LENGTH) ? raw : null) },
  // The reference leaves countryCode out (it is the id); clients asked for it, so it leads here.
  fields: ['countryCode', 'countryName', 'created'],
  associations: [],
  uniqueColumns: [],
  patternOrderedColumns: [],
  searches: [{ name: 'findByCountryCode', params: ['countryCode'], result: 'item' }],
});

/** The browsable collections, in the order the API root lists them. */
const collections = { namespaces, resources, institutions, locations } satisfies Record<CollectionName, CollectionDefinition>;
export const COLLECTIONS: Readonly<typeof collections> = collections;

/** JSON property -> column: the only properties a client may sort by (user input never reaches SQL). */
export function sortWhitelist(collection: CollectionDefinition): SortWhitelist {
  const whitelist: Record<string, string> = { [collection.key.column]: collection.key.column };
  for (const field of collection.fields) whitelist[field] = field;
  return whitelist;
}

export function isCollectionName(name: string): name is CollectionName {
  return Object.hasOwn(COLLECTIONS, name);
}
