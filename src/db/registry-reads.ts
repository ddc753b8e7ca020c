/**
 * The reads of the registry tables that several parts make, and the joins the APIs follow: the prefix
 * lookup and the provider-code check (registration checks, acceptance, statistics, the namespace page), the
 * resource with its institution (the resolver's snapshot and the dataset build), the registry version (the
 * snapshot, the browse and lookup caches), the associations of the browse API, persons and ROR ids. Each
 * takes the knex instance or a transaction of it, so a caller that needs one consistent view (or a lock)
 * reads inside its own transaction.
 */
import type { Knex } from 'knex';
import type { InstitutionRow, LocationRow, NamespaceRow, PersonRow, ResourceRow } from './tables.js';

/** The columns of a namespace that the registration checks and acceptance decide on. */
export type NamespaceFacts = Pick<NamespaceRow, 'id' | 'prefix' | 'pattern' | 'deprecated' | 'sampleId' | 'namespaceEmbeddedInLui'>;

/**
 * The namespace whose prefix equals `prefix` whatever its case (prefixes are unique that way; lower(prefix)
 * is the expression of the unique index namespaces_prefix_lower_unique). `forUpdate` locks the row for the
 * rest of the caller's transaction.
 */
export function findNamespaceByPrefixIgnoringCase(db: Knex, prefix: string, options: { forUpdate?: boolean } = {}): Promise<NamespaceFacts | undefined> {
  const query = db('namespaces').first('id', 'prefix', 'pattern', 'deprecated', 'sampleId', 'namespaceEmbeddedInLui').whereRaw('lower(prefix) = lower(?)', [prefix]);
  if (options.forUpdate) void query.forUpdate();
  return query;
}

/** The namespace a namespace names as its successor. */
export function findNamespaceSuccessor(db: Knex, namespaceId: number): Promise<NamespaceRow | undefined> {
  return db({ s: 'namespaces' }).join({ n: 'namespaces' }, 'n.successorId', 's.id').where('n.id', namespaceId).first<NamespaceRow | undefined>('s.*');
}

/** Whether a resource of the namespace has this provider code, whatever its case. */
export async function providerCodeTaken(db: Knex, namespaceId: number, code: string): Promise<boolean> {
  const row = await db('resources').first('id').where({ namespaceId }).whereRaw('lower(provider_code) = lower(?)', [code]);
  return row !== undefined;
}

/** A resource row with its institution and both locations (the resource's own and its institution's). */
export type ResourceWithInstitutionRow = Omit<ResourceRow, 'contactPersonId' | 'created' | 'modified'> & {
  locationCountryName: string;
  institutionName: string;
  institutionHomeUrl: string;
  institutionDescription: string;
  institutionRorId: string | null;
  institutionCountryCode: string;
  institutionCountryName: string;
};

const RESOURCE_WITH_INSTITUTION_COLUMNS = [
  'r.id', 'r.namespaceId', 'r.mirId', 'r.urlPattern', 'r.name', 'r.description', 'r.official', 'r.providerCode',
  'r.sampleId', 'r.resourceHomeUrl', 'r.deprecated', 'r.deprecationDate', 'r.deprecationOfflineDate',
  'r.renderDeprecatedLanding', 'r.deprecationStatement', 'r.protectedUrls', 'r.renderProtectedLanding',
  'r.authHelpUrl', 'r.authHelpDescription',
  'l.countryCode as locationCountryCode', 'l.countryName as locationCountryName',
  'i.id as institutionId', 'i.name as institutionName', 'i.homeUrl as institutionHomeUrl',
  'i.description as institutionDescription', 'i.rorId as institutionRorId',
  'il.countryCode as institutionCountryCode', 'il.countryName as institutionCountryName',
];

/**
 * Resources joined with their institution and both locations, one row each, for the caller to filter and
 * order (the resource is `r`): the snapshot loader and the dataset build read every resource through this.
 */
export function selectResourcesWithInstitution(db: Knex): Knex.QueryBuilder<ResourceWithInstitutionRow, ResourceWithInstitutionRow[]> {
  return db<ResourceWithInstitutionRow>('resources as r')
    .join('institutions as i', 'i.id', 'r.institutionId')
    .join('locations as l', 'l.countryCode', 'r.locationCountryCode')
    .join('locations as il', 'il.countryCode', 'i.locationCountryCode')
    .select<ResourceWithInstitutionRow[]>(RESOURCE_WITH_INSTITUTION_COLUMNS);
}

/** The rows of `table` that resources point at with `foreignKey`, for the resource `r.id`. */
function resourceTarget(db: Knex, resourceId: number, table: 'namespaces' | 'institutions' | 'locations', foreignKey: string, key: string) {
  return db({ t: table }).join({ r: 'resources' }, `r.${foreignKey}`, `t.${key}`).where('r.id', resourceId);
}

/** A resource's namespace, institution or location, in one join; undefined only for an unknown resource (the keys are NOT NULL). */
export function findResourceNamespace(db: Knex, resourceId: number): Promise<NamespaceRow | undefined> {
  return resourceTarget(db, resourceId, 'namespaces', 'namespaceId', 'id').first<NamespaceRow | undefined>('t.*');
}

export function findResourceInstitution(db: Knex, resourceId: number): Promise<InstitutionRow | undefined> {
  return resourceTarget(db, resourceId, 'institutions', 'institutionId', 'id').first<InstitutionRow | undefined>('t.*');
}

export function findResourceLocation(db: Knex, resourceId: number): Promise<LocationRow | undefined> {
  return resourceTarget(db, resourceId, 'locations', 'locationCountryCode', 'countryCode').first<LocationRow | undefined>('t.*');
}

/** An institution's location. */
export function findInstitutionLocation(db: Knex, institutionId: number): Promise<LocationRow | undefined> {
  return db({ l: 'locations' })
    .join({ i: 'institutions' }, 'i.locationCountryCode', 'l.countryCode')
    .where('i.id', institutionId)
    .first<LocationRow | undefined>('l.*');
}

/** An institution with its location's code and name. */
export interface InstitutionWithLocationRow {
  id: number;
  name: string;
  homeUrl: string;
  description: string;
  rorId: string | null;
  countryCode: string;
  countryName: string;
}

/** The institution whose ROR id is one of `rorIds` (the forms one id may be stored in), `preferred` first. */
export function findInstitutionByRorIds(db: Knex, rorIds: readonly string[], preferred: string): Promise<InstitutionWithLocationRow | undefined> {
  return db('institutions as i')
    .join('locations as l', 'l.countryCode', 'i.locationCountryCode')
    .first<InstitutionWithLocationRow | undefined>('i.id', 'i.name', 'i.homeUrl', 'i.description', 'i.rorId', 'l.countryCode', 'l.countryName')
    .whereIn('i.rorId', rorIds)
    .orderByRaw('(i.ror_id = ?) DESC, i.id', [preferred]);
}

const PERSON_COLUMNS = ['p.id', 'p.email', 'p.fullName', 'p.created', 'p.modified'];

export function findPerson(db: Knex, id: number): Promise<PersonRow | undefined> {
  return db({ p: 'persons' }).where('p.id', id).first<PersonRow | undefined>(PERSON_COLUMNS);
}

/**
 * A namespace's or resource's contact person: undefined when there is no such namespace or resource, null
 * when it has no contact person. One query answers both: the owner's row, the person's columns null when none.
 */
export async function findContactPerson(db: Knex, owner: 'namespaces' | 'resources', ownerId: number): Promise<PersonRow | null | undefined> {
  const row = await db({ o: owner })
    .leftJoin({ p: 'persons' }, 'p.id', 'o.contactPersonId')
    .where('o.id', ownerId)
    .first<PersonRow | { [K in keyof PersonRow]: null } | undefined>(PERSON_COLUMNS);
  if (!row) return undefined;
  return row.id === null ? null : row;
}

/**
 * The registry version: max(registry_changes.version), which moves on every committed registry change (0
 * before the first). Raw SQL: the browse API reads it on every request, and knex's query builder costs a
 * third more CPU than the probe itself (measured: 62 against 45 µs per query).
 */
export async function readRegistryVersion(db: Knex): Promise<number> {
  const { rows } = await db.raw<{ rows: { version: number | null }[] }>('SELECT max(version) AS version FROM registry_changes');
  return rows[0]?.version ?? 0;
}
