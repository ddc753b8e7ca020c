/**
 * The registry read as the resolver's snapshot entries (core/registry-snapshot.ts): the resolver's snapshot
 * loader reads the whole registry through this, and the registry area's reverse-lookup box the few
 * namespaces whose providers a URL may belong to.
 */
import type { Knex } from 'knex';
import { formatReferenceDate } from '../lib/dates.js';
import {
  UNRANKED,
  type InstitutionView,
  type LocationView,
  type NamespaceEntry,
  type NamespaceEntryField,
  type ResourceEntry,
} from '../core/registry-snapshot.js';
import { snapshotLuiRules } from '../core/lui-rules.js';
import { readSynonymsOf } from './namespace-synonyms.js';
import { selectResourcesWithInstitution, type ResourceWithInstitutionRow } from './registry-reads.js';
import type { NamespaceRow } from './tables.js';

/** The columns of a namespace the snapshot holds. */
type NamespaceColumns = Pick<NamespaceRow, NamespaceEntryField | 'luiRules' | 'suffixPassthrough'>;

/** Rows per query when the whole registry is read. */
const CHUNK_ROWS = 5000;

/**
 * Reads rows in chunks of CHUNK_ROWS (`readAfter`: those after an id, in id order), handing each chunk over
 * before the next is read. A whole-registry load at 100,000 namespaces would otherwise hold every row
 * object at once, about 300 MB that outlives the load in the old generation (V8 may not collect it for
 * minutes, and meanwhile every young-generation collection pays for the extra pages); row objects of one
 * chunk die young.
 */
async function forEachChunk<T extends { id: number }>(readAfter: (id: number) => PromiseLike<T[]>, each: (rows: T[]) => void): Promise<void> {
  let after = 0;
  for (;;) {
    const rows = await readAfter(after);
    if (rows.length === 0) return;
    each(rows);
    if (rows.length < CHUNK_ROWS) return;
    after = rows[rows.length - 1]!.id;
  }
}

/**
 * The namespaces as the snapshot holds them, each with its resources (dataset order, not ranked yet:
 * buildSnapshot ranks them), their institutions and locations shared between entries: every namespace, read
 * in chunks, or those of `ids`. Read inside a transaction when the result must agree with other reads (the
 * resolver's snapshot and its change log).
 */
export async function readNamespaceEntries(trx: Knex, ids?: number[]): Promise<NamespaceEntry[]> {
  const nsQuery = () =>
    trx('namespaces').select(
      'id', 'prefix', 'mirId', 'name', 'pattern', 'sampleId', 'namespaceEmbeddedInLui', 'deprecated',
      'deprecationDate', 'renderDeprecatedLanding', 'luiRules', 'suffixPassthrough',
    );
  const resQuery = () => selectResourcesWithInstitution(trx);

  // Shared objects: one location and one institution object however many resources point at them.
  const locations = new Map<string, LocationView>();
  const locationOf = (countryCode: string, countryName: string): LocationView => {
    let location = locations.get(countryCode);
    if (!location) locations.set(countryCode, (location = { countryCode, countryName }));
    return location;
  };
  const institutions = new Map<number, InstitutionView>();
  const resourcesByNamespace = new Map<number, ResourceEntry[]>();
  const addResources = (rows: ResourceWithInstitutionRow[]) => {
    for (const row of rows) {
      let institution = institutions.get(row.institutionId);
      if (!institution) {
        institution = {
          id: row.institutionId,
          name: row.institutionName,
          homeUrl: row.institutionHomeUrl,
          description: row.institutionDescription,
          rorId: row.institutionRorId,
          location: locationOf(row.institutionCountryCode, row.institutionCountryName),
        };
        institutions.set(row.institutionId, institution);
      }
      const entry: ResourceEntry = {
        id: row.id,
        mirId: row.mirId,
        urlPattern: row.urlPattern,
        name: row.name,
        description: row.description,
        official: row.official,
        providerCode: row.providerCode,
        sampleId: row.sampleId,
        resourceHomeUrl: row.resourceHomeUrl,
        institution,
        location: locationOf(row.locationCountryCode, row.locationCountryName),
        deprecated: row.deprecated,
        deprecationDate: formatReferenceDate(row.deprecationDate),
        renderDeprecatedLanding: row.renderDeprecatedLanding,
        protectedUrls: row.protectedUrls,
        renderProtectedLanding: row.renderProtectedLanding,
        authHelpUrl: row.authHelpUrl,
        authHelpDescription: row.authHelpDescription,
        // Ranked with its namespace (buildSnapshot, rankNamespace), which knows whether that is deprecated.
        recommendation: UNRANKED.recommendation,
        recommendationIfEbiHosted: UNRANKED.recommendationIfEbiHosted,
      };
      let list = resourcesByNamespace.get(row.namespaceId);
      if (!list) resourcesByNamespace.set(row.namespaceId, (list = []));
      list.push(entry);
    }
  };
  const namespaces: NamespaceEntry[] = [];
  const addNamespaces = (rows: NamespaceColumns[]) => {
    for (const row of rows) namespaces.push(namespaceEntry(row, resourcesByNamespace.get(row.id) ?? []));
  };
  // Dataset order: resources by id within their namespace.
  if (ids) {
    addResources(await resQuery().whereIn('r.namespaceId', ids).orderBy('r.id'));
    addNamespaces(await nsQuery().whereIn('id', ids));
  } else {
    await forEachChunk((after) => resQuery().where('r.id', '>', after).orderBy('r.id').limit(CHUNK_ROWS), addResources);
    await forEachChunk((after) => nsQuery().where('id', '>', after).orderBy('id').limit(CHUNK_ROWS), addNamespaces);
  }
  await addSynonymsTo(trx, namespaces, ids);
  return namespaces;
}

const NO_SYNONYMS: readonly string[] = Object.freeze([]);

/** Sets each entry's synonyms (issue 15 item 1); entries without any get none, so they cost nothing. */
async function addSynonymsTo(trx: Knex, namespaces: NamespaceEntry[], ids: number[] | undefined): Promise<void> {
  const byId = await readSynonymsOf(trx, ids);
  if (byId.size === 0) return;
  for (const ns of namespaces) {
    const list = byId.get(ns.id);
    if (list) ns.synonyms = list;
  }
}

function namespaceEntry(row: NamespaceColumns, resources: ResourceEntry[]): NamespaceEntry {
  return {
    id: row.id,
    prefix: row.prefix,
    mirId: row.mirId,
    name: row.name,
    pattern: row.pattern,
    sampleId: row.sampleId,
    namespaceEmbeddedInLui: row.namespaceEmbeddedInLui,
    deprecated: row.deprecated,
    deprecationDate: formatReferenceDate(row.deprecationDate),
    renderDeprecatedLanding: row.renderDeprecatedLanding,
    resources,
    // Precomputed here so that no request derives them; null when no rule would change anything.
    luiRules: snapshotLuiRules(row.luiRules, row),
    // Set on every entry (shared when empty), so that all entries have one shape for the hot path's lookups.
    synonyms: NO_SYNONYMS,
    suffixPassthrough: row.suffixPassthrough,
  };
}
