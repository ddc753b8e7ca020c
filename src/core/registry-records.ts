/**
 * The fields of the registry's records (location, institution, namespace, resource) as the reference
 * defines them, in one place. Each form a record takes derives its type from these: the table rows
 * (db/tables.ts, dates as Dates, references as ids), the dataset records (importer/dataset.schema.ts, dates
 * as the reference's text, ids optional) and the snapshot entries (registry-snapshot.ts, what resolution
 * needs). `When` is how a form holds a date.
 */

export interface LocationRecord {
  countryCode: string;
  countryName: string;
}

export interface InstitutionRecord {
  id: number;
  name: string;
  homeUrl: string;
  description: string;
  rorId: string | null;
}

export interface NamespaceRecord<When> {
  id: number;
  prefix: string;
  mirId: string;
  name: string;
  /** The LUI pattern as stored (Java regex syntax, usually written `^...$`). */
  pattern: string;
  description: string;
  created: When;
  modified: When;
  sampleId: string;
  namespaceEmbeddedInLui: boolean;
  deprecated: boolean;
  deprecationDate: When | null;
  deprecationOfflineDate: When | null;
  renderDeprecatedLanding: boolean;
  deprecationStatement: string | null;
  infoOnPostmortemAccess: string | null;
}

/** A provider of a namespace. */
export interface ResourceRecord<When> {
  id: number;
  mirId: string;
  urlPattern: string;
  name: string;
  description: string | null;
  official: boolean;
  providerCode: string;
  sampleId: string | null;
  resourceHomeUrl: string;
  deprecated: boolean;
  deprecationDate: When | null;
  deprecationOfflineDate: When | null;
  renderDeprecatedLanding: boolean;
  deprecationStatement: string | null;
  protectedUrls: boolean;
  renderProtectedLanding: boolean;
  authHelpUrl: string | null;
  authHelpDescription: string | null;
}
