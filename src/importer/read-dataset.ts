import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { ErrorObject } from '../lib/json-schema.js';
import { countries } from '../../migrations/data/iso-3166-1.js';
import { validateDatasetNamespace, type DatasetInstitution, type DatasetNamespace } from './dataset.schema.js';

/** The file is not a registry dataset the importer can load; nothing has been written. */
export class ImportFormatError extends Error {
  override name = 'ImportFormatError';
}

const FETCH_TIMEOUT_MS = 60_000;

function parseJson(text: string, source: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ImportFormatError(`${source} is not valid JSON: ${(error as Error).message}`);
  }
}

/** Reads and parses a dataset from a local path, a file: URL or an http(s) URL. */
export async function readDataset(source: string): Promise<unknown> {
  if (/^https?:\/\//i.test(source)) {
    const response = await fetch(source, {
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      headers: { accept: 'application/json' },
    });
    if (!response.ok) throw new Error(`GET ${source} answered ${response.status} ${response.statusText}`);
    return parseJson(await response.text(), source);
  }
  const path = source.startsWith('file:') ? fileURLToPath(source) : source;
  return parseJson(await readFile(path, 'utf8'), source);
}

/** The namespace list of either a bare array (full.json) or the live endpoint's envelope. */
export function extractNamespaces(json: unknown): unknown[] {
  if (Array.isArray(json)) return json;
  if (json !== null && typeof json === 'object') {
    const envelope = json as { errorMessage?: unknown; payload?: { namespaces?: unknown } };
    if (typeof envelope.errorMessage === 'string' && envelope.errorMessage !== '') {
      throw new ImportFormatError(`the dataset carries an error instead of data: ${envelope.errorMessage}`);
    }
    if (Array.isArray(envelope.payload?.namespaces)) return envelope.payload.namespaces;
  }
  throw new ImportFormatError(
    'expected an array of namespaces or an envelope {apiVersion, errorMessage, payload: {namespaces: [...]}}',
  );
}

function jsonPath(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment, i) => (/^\d+$/.test(segment) ? `[${segment}]` : i === 0 ? segment : `.${segment}`))
    .join('');
}

function describeSchemaError(error: ErrorObject): string {
  const path = jsonPath(error.instancePath);
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    return `${path ? `${path}.` : ''}${missing} is required`;
  }
  if (error.keyword === 'anyOf' && path.endsWith('successor')) {
    return `${path} must be null, a prefix, or an object with a prefix or an id`;
  }
  return `${path || 'the record'} ${error.message ?? 'is invalid'}`;
}

const countryCodes = new Set(countries.map(([code]) => code));

/** A date the pattern accepts may still not exist (2024-02-30): Date would silently roll it over. */
function isRealDate(value: string): boolean {
  const time = Date.parse(value);
  if (Number.isNaN(time)) return false;
  const [year, month, day] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  return calendar.getUTCFullYear() === year && calendar.getUTCMonth() === month - 1 && calendar.getUTCDate() === day;
}

const namespaceDates = ['created', 'modified', 'deprecationDate', 'deprecationOfflineDate'] as const;
const resourceDates = ['deprecationDate', 'deprecationOfflineDate'] as const;

/** Cross-record rules a per-record schema cannot express, checked in file order. */
class DatasetConsistency {
  private prefixes = new Map<string, { prefix: string; at: string }>();
  private namespaceMirIds = new Map<string, string>();
  private resourceMirIds = new Map<string, string>();
  private institutions = new Map<string, { value: string; at: string }>();
  private rorIds = new Map<string, { name: string; at: string }>();
  private countryNames = new Map<string, { name: string; at: string }>();

  /** Returns the first problem of the namespace at `at`, or null. */
  check(ns: DatasetNamespace, at: string): string | null {
    const earlier = this.prefixes.get(ns.prefix.toLowerCase());
    if (earlier) return `prefix '${ns.prefix}' duplicates '${earlier.prefix}' at ${earlier.at} (prefixes are unique whatever their case)`;
    this.prefixes.set(ns.prefix.toLowerCase(), { prefix: ns.prefix, at });
    const sameMir = this.namespaceMirIds.get(ns.mirId);
    if (sameMir) return `mirId ${ns.mirId} is already used by ${sameMir}`;
    this.namespaceMirIds.set(ns.mirId, at);
    for (const field of namespaceDates) {
      const value = ns[field];
      if (value !== null && !isRealDate(value)) return `${field} '${value}' is not a valid date`;
    }
    for (const [i, resource] of ns.resources.entries()) {
      const problem = this.checkResource(resource, `resources[${i}]`, `${at}.resources[${i}]`);
      if (problem) return problem;
    }
    return null;
  }

  private checkResource(resource: DatasetNamespace['resources'][number], path: string, at: string): string | null {
    const sameMir = this.resourceMirIds.get(resource.mirId);
    if (sameMir) return `${path}.mirId ${resource.mirId} is already used by ${sameMir}`;
    this.resourceMirIds.set(resource.mirId, at);
    for (const field of resourceDates) {
      const value = resource[field];
      if (value !== null && !isRealDate(value)) return `${path}.${field} '${value}' is not a valid date`;
    }
    return (
      this.checkLocation(resource.location, `${path}.location`, `${at}.location`) ??
      this.checkLocation(resource.institution.location, `${path}.institution.location`, `${at}.institution.location`) ??
      this.checkInstitution(resource.institution, `${path}.institution`, `${at}.institution`)
    );
  }

  private checkLocation(location: { countryCode: string; countryName: string }, path: string, at: string): string | null {
    if (!countryCodes.has(location.countryCode)) {
      return `${path}.countryCode '${location.countryCode}' is not an ISO 3166-1 alpha-2 country code`;
    }
    const earlier = this.countryNames.get(location.countryCode);
    if (!earlier) this.countryNames.set(location.countryCode, { name: location.countryName, at });
    else if (earlier.name !== location.countryName) {
      return `${path}.countryName '${location.countryName}' differs from '${earlier.name}' given for ${location.countryCode} at ${earlier.at}`;
    }
    return null;
  }

  // Institutions are matched by name, so two different bodies under one name would make the result
  // depend on the order of the file.
  private checkInstitution(institution: DatasetInstitution, path: string, at: string): string | null {
    const { name, homeUrl, description, rorId, location } = institution;
    const value = JSON.stringify([homeUrl, description, rorId, location.countryCode]);
    const earlier = this.institutions.get(name);
    if (!earlier) this.institutions.set(name, { value, at });
    else if (earlier.value !== value) return `${path} '${name}' differs from the institution of the same name at ${earlier.at}`;
    if (rorId !== null) {
      const owner = this.rorIds.get(rorId);
      if (!owner) this.rorIds.set(rorId, { name, at });
      else if (owner.name !== name) return `${path}.rorId ${rorId} is also the rorId of '${owner.name}' at ${owner.at}`;
    }
    return null;
  }
}

function label(record: unknown, index: number): string {
  const prefix = (record as { prefix?: unknown } | null)?.prefix;
  return typeof prefix === 'string' ? `namespaces[${index}] (prefix '${prefix}')` : `namespaces[${index}]`;
}

/**
 * Checks every record (schema, then the cross-record rules) and fails on the first problem in file order,
 * naming its position. Accepts both dataset shapes. Fills the optional fields with their defaults.
 */
export function validateNamespaces(json: unknown): DatasetNamespace[] {
  const records = extractNamespaces(json);
  if (records.length === 0) throw new ImportFormatError('the dataset contains no namespaces');
  const consistency = new DatasetConsistency();
  for (const [index, record] of records.entries()) {
    if (!validateDatasetNamespace(record)) {
      const errors = validateDatasetNamespace.errors ?? [];
      // Without allErrors there is one error, except for anyOf, whose own error comes after its branches'.
      const error = errors[errors.length - 1];
      throw new ImportFormatError(`${label(record, index)}: ${error ? describeSchemaError(error) : 'is invalid'}`);
    }
    const problem = consistency.check(record, `namespaces[${index}]`);
    if (problem) throw new ImportFormatError(`${label(record, index)}: ${problem}`);
  }
  return records as DatasetNamespace[];
}
