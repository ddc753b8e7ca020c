import type { Institution, Location, Namespace, Person, Resource } from '../../db/models/index.js';

// Rows as the query builder returns them (camelCase columns, no relations): what services hand to presenters.

export type NamespaceRow = Pick<
  Namespace,
  | 'id'
  | 'prefix'
  | 'mirId'
  | 'name'
  | 'pattern'
  | 'description'
  | 'created'
  | 'modified'
  | 'sampleId'
  | 'namespaceEmbeddedInLui'
  | 'deprecated'
  | 'deprecationDate'
  | 'deprecationOfflineDate'
  | 'renderDeprecatedLanding'
  | 'deprecationStatement'
  | 'infoOnPostmortemAccess'
  | 'successorId'
>;

export type ResourceRow = Pick<
  Resource,
  | 'id'
  | 'mirId'
  | 'urlPattern'
  | 'name'
  | 'description'
  | 'official'
  | 'providerCode'
  | 'sampleId'
  | 'resourceHomeUrl'
  | 'namespaceId'
  | 'institutionId'
  | 'locationCountryCode'
  | 'deprecated'
  | 'deprecationDate'
  | 'deprecationOfflineDate'
  | 'renderDeprecatedLanding'
  | 'deprecationStatement'
  | 'protectedUrls'
  | 'renderProtectedLanding'
  | 'authHelpUrl'
  | 'authHelpDescription'
  | 'created'
  | 'modified'
>;

export type InstitutionRow = Pick<Institution, 'id' | 'name' | 'homeUrl' | 'description' | 'rorId' | 'locationCountryCode' | 'created' | 'modified'>;

export type LocationRow = Pick<Location, 'countryCode' | 'countryName' | 'created'>;

export type PersonRow = Pick<Person, 'id' | 'email' | 'fullName' | 'created' | 'modified'>;
