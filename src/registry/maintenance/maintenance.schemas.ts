/**
 * The bodies curators send to maintain the registry (registry-behaviour.md §1.3 "Writes", §5.3 "Lifecycle
 * management"): a PATCH of a namespace, resource or institution is a JSON merge of the item's fields, as
 * Spring Data REST reads it: a field present replaces the stored value (null clears it), associations are
 * given as the self href of their target (`"institution": ".../restApi/institutions/12"`), and fields a
 * client may not change (`mirId`, `created`, `modified`, the institution's `id`, `_links`) or that the item
 * does not have are ignored. Types and lengths are checked here; what the values mean is checked by the
 * registration rules (edit-validation.ts).
 */
import { compileOnFirstUse, type ErrorObject } from '../../lib/json-schema.js';
import { invalid } from '../../core/domain-error.js';
import { MAX_SYNONYM_LENGTH, MAX_SYNONYMS_PER_NAMESPACE } from '../../core/prefix-synonyms.js';
import type { EditableCollection, RecordPatch } from '../model/record-maintenance.js';

type FieldType = 'text' | 'boolean' | 'date' | 'rules';

interface FieldSpec {
  type: FieldType;
  /** The column's size (texts). */
  maxLength?: number;
}

/** An association given by href: the column it sets and the collection its target is in. */
export interface AssociationSpec {
  column: string;
  target: 'namespaces' | 'institutions' | 'locations' | 'persons';
  nullable: boolean;
}

const NAME = { type: 'text', maxLength: 255 } as const;
const TEXT = { type: 'text', maxLength: 2000 } as const;
const FLAG = { type: 'boolean' } as const;
const DATE = { type: 'date' } as const;

/** Per collection: the JSON properties a PATCH may change (column = property) and its associations. */
export const EDITABLE: Readonly<Record<EditableCollection, { fields: Record<string, FieldSpec>; associations: Record<string, AssociationSpec> }>> = {
  namespaces: {
    fields: {
      prefix: NAME,
      name: NAME,
      pattern: { type: 'text', maxLength: 1000 },
      description: TEXT,
      deprecated: FLAG,
      deprecationDate: DATE,
      deprecationOfflineDate: DATE,
      renderDeprecatedLanding: FLAG,
      deprecationStatement: TEXT,
      infoOnPostmortemAccess: TEXT,
      sampleId: NAME,
      namespaceEmbeddedInLui: FLAG,
      // Canonical-LUI rules (core/lui-rules.ts): an object of rules, or null for those the pattern calls for.
      luiRules: { type: 'rules' },
      // Issue 25 item 5: pass what follows the matching part of a LUI through to the providers (core/lui-suffix.ts).
      suffixPassthrough: FLAG,
    },
    associations: {
      successor: { column: 'successorId', target: 'namespaces', nullable: true },
      contactPerson: { column: 'contactPersonId', target: 'persons', nullable: true },
    },
  },
  resources: {
    fields: {
      urlPattern: TEXT,
      name: NAME,
      description: TEXT,
      official: FLAG,
      providerCode: NAME,
      sampleId: NAME,
      resourceHomeUrl: TEXT,
      deprecated: FLAG,
      deprecationDate: DATE,
      deprecationOfflineDate: DATE,
      renderDeprecatedLanding: FLAG,
      deprecationStatement: TEXT,
      protectedUrls: FLAG,
      renderProtectedLanding: FLAG,
      authHelpUrl: TEXT,
      authHelpDescription: TEXT,
    },
    associations: {
      namespace: { column: 'namespaceId', target: 'namespaces', nullable: false },
      institution: { column: 'institutionId', target: 'institutions', nullable: false },
      location: { column: 'locationCountryCode', target: 'locations', nullable: false },
      contactPerson: { column: 'contactPersonId', target: 'persons', nullable: true },
    },
  },
  institutions: {
    fields: { name: NAME, homeUrl: TEXT, description: TEXT, rorId: TEXT },
    associations: { location: { column: 'locationCountryCode', target: 'locations', nullable: false } },
  },
};

const HREF_MAX_LENGTH = 2000;
// Dates as the reference writes them (ISO 8601), or epoch milliseconds as Jackson also reads them.
const DATE_TEXT_MAX_LENGTH = 64;

function fieldSchema(spec: FieldSpec): object {
  switch (spec.type) {
    case 'text':
      return { type: ['string', 'null'], maxLength: spec.maxLength };
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: ['string', 'number', 'null'], maxLength: DATE_TEXT_MAX_LENGTH };
    case 'rules':
      // The rules' own reader (lui-rules.ts readLuiRules) says what is wrong inside.
      return { type: ['object', 'null'], maxProperties: 8 };
  }
}

/** The JSON Schema of a PATCH body of the collection (the OpenAPI document shows these too). */
export function patchSchema(collection: EditableCollection): object {
  const properties: Record<string, object> = {};
  const { fields, associations } = EDITABLE[collection];
  for (const [name, spec] of Object.entries(fields)) properties[name] = fieldSchema(spec);
  for (const [name, spec] of Object.entries(associations)) {
    properties[name] = { type: spec.nullable ? ['string', 'null'] : 'string', maxLength: HREF_MAX_LENGTH };
  }
  // Issue 15 item 1: a namespace's synonyms, the whole list (synonym-edits.ts checks each one's text).
  if (collection === 'namespaces') {
    properties.synonyms = { type: ['array', 'null'], maxItems: MAX_SYNONYMS_PER_NAMESPACE, items: { type: 'string', maxLength: MAX_SYNONYM_LENGTH } };
  }
  // Unknown and read-only properties are ignored, as the reference's Jackson configuration does.
  return { type: 'object', properties };
}

// Every schema compiled once, on its first use, on the one instance; the first problem is reported.
const patchValidators = {
  namespaces: compileOnFirstUse(patchSchema('namespaces')),
  resources: compileOnFirstUse(patchSchema('resources')),
  institutions: compileOnFirstUse(patchSchema('institutions')),
};
/** reactivateResource's body (the OpenAPI document shows it too). */
export const REACTIVATION_SCHEMA = {
  type: ['object', 'null'],
  properties: {
    apiVersion: { type: ['string', 'number'], maxLength: 20 },
    payload: { type: ['object', 'null'], properties: { providerUrlPattern: { type: ['string', 'null'], maxLength: 2000 } } },
  },
};
const validateReactivation = compileOnFirstUse(REACTIVATION_SCHEMA);

function describe(error: ErrorObject | undefined, what: string): string {
  if (!error) return what;
  const property = error.instancePath.split('/').slice(1).join('.');
  if (property === '') return what;
  switch (error.keyword) {
    case 'type':
      return `'${property}' must be ${describeType(String((error.params as { type: string | string[] }).type))}`;
    case 'maxLength':
      return `'${property}' is too long (at most ${(error.params as { limit: number }).limit} characters)`;
    case 'maxItems':
      return `'${property}' has too many items (at most ${(error.params as { limit: number }).limit})`;
    default:
      return `'${property}' ${error.message ?? 'is invalid'}`;
  }
}

function describeType(type: string): string {
  if (type === 'boolean') return 'true or false';
  if (type.includes('number')) return 'a date such as 2024-02-12T09:35:45.473+00:00, or null';
  if (type.includes('object')) return 'an object of rules, or null';
  if (type === 'string') return 'a text';
  return 'a text or null';
}

const PATCH_BODY_MESSAGE = 'The request body must be a JSON object of the fields to change';

/** Reads a PATCH body; refuses (invalid) one that is not a JSON object or has a property of the wrong type. */
export function readRecordPatch(collection: EditableCollection, body: unknown): RecordPatch {
  const validate = patchValidators[collection];
  if (!validate(body)) throw invalid(describe(validate.errors?.[0], PATCH_BODY_MESSAGE));
  const raw = body as Record<string, unknown>;
  const { fields, associations } = EDITABLE[collection];
  const patch: RecordPatch = { fields: {}, associations: {} };
  for (const name of Object.keys(fields)) {
    if (Object.hasOwn(raw, name)) patch.fields[name] = raw[name] as string | boolean | number | object | null;
  }
  for (const name of Object.keys(associations)) {
    if (Object.hasOwn(raw, name)) patch.associations[name] = raw[name] as string | null;
  }
  if (collection === 'namespaces' && Object.hasOwn(raw, 'synonyms')) patch.synonyms = (raw.synonyms as string[] | null) ?? [];
  return patch;
}

/** A date property's value as a Date (null stays null); invalid when it is not a date. */
export function readDate(property: string, value: string | number | null): Date | null {
  if (value === null) return null;
  const date = typeof value === 'number' ? new Date(value) : /^\d{4}-\d{2}-\d{2}/.test(value) ? new Date(value) : new Date(Number.NaN);
  if (Number.isNaN(date.getTime())) throw invalid(`'${property}' must be a date such as 2024-02-12T09:35:45.473+00:00, or null`);
  return date;
}

/** reactivateResource's envelope: the URL pattern the resource is served at again, when one is given. */
export function readReactivation(body: unknown): { providerUrlPattern: string | null } {
  if (!validateReactivation(body)) {
    throw invalid(describe(validateReactivation.errors?.[0], 'The request body must be an envelope: {"apiVersion": "1.0", "payload": {"providerUrlPattern": "..."}}'));
  }
  const payload = (body as { payload?: { providerUrlPattern?: string | null } | null } | null)?.payload;
  return { providerUrlPattern: payload?.providerUrlPattern ?? null };
}

/**
 * The targets of a `text/uri-list` body (RFC 2483): one URI per line, `#` lines are comments.
 */
export function readUriList(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}
