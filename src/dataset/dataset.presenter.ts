import type { ResourceWithInstitutionRow as DatasetResourceRow } from '../db/registry-reads.js';
import type { NamespaceRow } from '../db/tables.js';
import { ENVELOPE_JSON_HEAD } from '../http/envelope.js';
import { formatReferenceDate } from '../lib/dates.js';
import { WireRecord } from '../lib/wire-record.js';
import { rewriteForEmbeddedPrefix } from './dataset-rewrite.js';

/**
 * A namespace of the dataset in the reference's Java field order (spec §3.1), its resources between these
 * two lists and its successor, named by its prefix (one of the forms the importer reads back), last. Stored
 * deprecation details are written as stored (the reference drops them).
 */
export const NAMESPACE_FIELDS_BEFORE_RESOURCES = [
  'id', 'prefix', 'mirId', 'name', 'pattern', 'description', 'created', 'modified',
] as const satisfies readonly (keyof NamespaceRow)[];
export const NAMESPACE_FIELDS_AFTER_RESOURCES = [
  'sampleId', 'namespaceEmbeddedInLui', 'deprecated', 'deprecationDate', 'deprecationOfflineDate', 'renderDeprecatedLanding',
  'deprecationStatement', 'infoOnPostmortemAccess',
] as const satisfies readonly (keyof NamespaceRow)[];

/** A namespace row as the build reads it (the columns above), with its successor's prefix instead of its id. */
export type DatasetNamespaceRow = Pick<
  NamespaceRow,
  (typeof NAMESPACE_FIELDS_BEFORE_RESOURCES)[number] | (typeof NAMESPACE_FIELDS_AFTER_RESOURCES)[number]
> & { successorPrefix: string | null };

/** A resource row joined with its institution and both locations (db/registry-reads.ts). */
export type { DatasetResourceRow };

// The envelope around the namespace list; the build writes the namespaces between the two halves.
export const DATASET_HEAD = `${ENVELOPE_JSON_HEAD}{"namespaces":[`;
export const DATASET_TAIL = ']}}';

/**
 * One resource of the dataset, its properties in the reference's Java field order (spec §3.1): JSON.stringify
 * keeps insertion order, so the object literal below is the wire format.
 */
function presentResource(row: DatasetResourceRow, rewritten?: { urlPattern: string; sampleId: string | null }): object {
  return {
    id: row.id,
    mirId: row.mirId,
    urlPattern: rewritten ? rewritten.urlPattern : row.urlPattern,
    name: row.name,
    description: row.description,
    official: row.official,
    providerCode: row.providerCode,
    sampleId: rewritten ? rewritten.sampleId : row.sampleId,
    resourceHomeUrl: row.resourceHomeUrl,
    institution: {
      id: row.institutionId,
      name: row.institutionName,
      homeUrl: row.institutionHomeUrl,
      description: row.institutionDescription,
      rorId: row.institutionRorId,
      location: { countryCode: row.institutionCountryCode, countryName: row.institutionCountryName },
    },
    location: { countryCode: row.locationCountryCode, countryName: row.locationCountryName },
    deprecated: row.deprecated,
    deprecationDate: formatReferenceDate(row.deprecationDate),
    // The reference never copies these two into the dataset (always null there); we write what is stored,
    // which after importing a reference dataset is null as well.
    deprecationOfflineDate: formatReferenceDate(row.deprecationOfflineDate),
    renderDeprecatedLanding: row.renderDeprecatedLanding,
    deprecationStatement: row.deprecationStatement,
    protectedUrls: row.protectedUrls,
    renderProtectedLanding: row.renderProtectedLanding,
    authHelpUrl: row.authHelpUrl,
    authHelpDescription: row.authHelpDescription,
  };
}

const NAMESPACE_RECORD = new WireRecord(
  [...NAMESPACE_FIELDS_BEFORE_RESOURCES, ...NAMESPACE_FIELDS_AFTER_RESOURCES],
  [...NAMESPACE_FIELDS_BEFORE_RESOURCES, 'resources', ...NAMESPACE_FIELDS_AFTER_RESOURCES, 'successor'],
);

function presentNamespace(row: DatasetNamespaceRow, resources: object[]): object {
  return Object.assign(NAMESPACE_RECORD.present(row), { resources, successor: row.successorPrefix });
}

/** The JSON text of one namespace, as served and with `rewriteForEmbeddedPrefixes=true`. */
export interface NamespaceJson {
  plain: string;
  rewritten: string;
  /** Resources whose URL pattern or sample id the rewrite changed. */
  rewrittenResources: number;
}

export function namespaceJson(row: DatasetNamespaceRow, resources: DatasetResourceRow[]): NamespaceJson {
  const plain = JSON.stringify(presentNamespace(row, resources.map((r) => presentResource(r))));
  if (!row.namespaceEmbeddedInLui) return { plain, rewritten: plain, rewrittenResources: 0 };
  let rewrittenResources = 0;
  const presented = resources.map((r) => {
    const rewritten = rewriteForEmbeddedPrefix(row.prefix, r);
    if (!rewritten) return presentResource(r);
    rewrittenResources++;
    return presentResource(r, rewritten);
  });
  if (rewrittenResources === 0) return { plain, rewritten: plain, rewrittenResources };
  return { plain, rewritten: JSON.stringify(presentNamespace(row, presented)), rewrittenResources };
}
