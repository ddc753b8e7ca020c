import { compileOnFirstUse } from '../lib/json-schema.js';
import type { InstitutionRecord, LocationRecord, NamespaceRecord, ResourceRecord } from '../core/registry-records.js';

/**
 * One namespace record of the reference resolver dataset (`payload.namespaces[i]` of
 * /resolutionApi/getResolverDataset, or one element of registry-data's full.json).
 * Fields the reference always sends but that have a safe default are optional here, so a hand-written file
 * may leave them out; extra fields (the reference adds some over time) are ignored.
 */
export type DatasetLocation = LocationRecord;

export interface DatasetInstitution extends Omit<InstitutionRecord, 'id'> {
  id?: number;
  location: DatasetLocation;
}

export interface DatasetResource extends Omit<ResourceRecord<string>, 'id'> {
  id?: number;
  institution: DatasetInstitution;
  location: DatasetLocation;
}

export type DatasetSuccessor = null | string | { prefix?: string; id?: number };

export interface DatasetNamespace extends Omit<NamespaceRecord<string>, 'id'> {
  id?: number;
  successor: DatasetSuccessor;
  resources: DatasetResource[];
}

// Lengths are the column sizes of migrations/20261122000200_create_registry_tables.ts, so whatever passes
// here fits the database and a too-long value is reported with its position instead of failing mid-import.
const text = (maxLength: number) => ({ type: 'string', maxLength }) as const;
const requiredText = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength }) as const;
const optionalText = (maxLength: number) => ({ type: 'string', maxLength, nullable: true, default: null }) as const;
const flag = { type: 'boolean', default: false } as const;
const referenceId = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;
const mirId = { type: 'string', pattern: '^MIR:\\d{8}$', maxLength: 255 } as const;
// The reference writes 2024-02-12T09:35:45.473+00:00; Z and other offsets are accepted as well.
const datePattern = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:?\\d{2})$';
const date = { type: 'string', pattern: datePattern, maxLength: 40 } as const;
const optionalDate = { ...date, nullable: true, default: null } as const;

const location = {
  type: 'object',
  required: ['countryCode', 'countryName'],
  properties: {
    countryCode: { type: 'string', pattern: '^[A-Z]{2}$', maxLength: 2 },
    countryName: requiredText(255),
  },
} as const;

const institution = {
  type: 'object',
  required: ['name', 'homeUrl', 'description', 'location'],
  properties: {
    id: referenceId,
    name: requiredText(255),
    homeUrl: text(2000),
    description: text(2000),
    rorId: optionalText(2000),
    location,
  },
} as const;

const resource = {
  type: 'object',
  required: ['mirId', 'urlPattern', 'name', 'resourceHomeUrl', 'institution', 'location'],
  properties: {
    id: referenceId,
    mirId,
    urlPattern: requiredText(2000),
    name: requiredText(255),
    description: optionalText(2000),
    official: flag,
    providerCode: { ...text(255), default: '' },
    sampleId: optionalText(255),
    resourceHomeUrl: text(2000),
    institution,
    location,
    deprecated: flag,
    deprecationDate: optionalDate,
    deprecationOfflineDate: optionalDate,
    renderDeprecatedLanding: flag,
    deprecationStatement: optionalText(2000),
    protectedUrls: flag,
    renderProtectedLanding: flag,
    authHelpUrl: optionalText(2000),
    authHelpDescription: optionalText(2000),
  },
} as const;

// The live dataset always sends null, but curated files name the successor by prefix, or as the
// namespace object (or a stub of it) the browse API would show.
const successor = {
  default: null,
  anyOf: [
    { type: 'null' },
    requiredText(255),
    {
      type: 'object',
      properties: { prefix: requiredText(255), id: referenceId },
      anyOf: [{ required: ['prefix'] }, { required: ['id'] }],
    },
  ],
} as const;

export const datasetNamespaceSchema = {
  type: 'object',
  required: ['prefix', 'mirId', 'name', 'pattern', 'description', 'created', 'modified', 'sampleId', 'resources'],
  properties: {
    id: referenceId,
    prefix: { type: 'string', pattern: '^[A-Za-z0-9_.-]+$', maxLength: 255 },
    mirId,
    name: requiredText(255),
    pattern: requiredText(1000),
    description: text(2000),
    created: date,
    modified: date,
    sampleId: text(255),
    namespaceEmbeddedInLui: flag,
    deprecated: flag,
    deprecationDate: optionalDate,
    deprecationOfflineDate: optionalDate,
    renderDeprecatedLanding: flag,
    deprecationStatement: optionalText(2000),
    infoOnPostmortemAccess: optionalText(2000),
    successor,
    // A namespace may have no resources left (our dataset writes it with an empty list, where the
    // reference's builder fails); the importer must read back whatever our dataset contains.
    resources: { type: 'array', items: resource },
  },
} as const;

// The one instance's useDefaults fills the optional fields, so the importer compares and writes complete
// records; no allErrors: the file may come from a URL, and the first problem is all the report needs.

export const validateDatasetNamespace = compileOnFirstUse<DatasetNamespace>(datasetNamespaceSchema);
