/**
 * The desk's forms and the values they carry: the fields of a namespace, resource and institution a
 * curator edits (each a field of the maintenance PATCH, or its location association), a stored request
 * as the amendment form's values, and the posted forms back as a RecordPatch or a registration payload.
 */
import type { DomainError } from '../../core/domain-error.js';
import type { InstitutionRow, NamespaceRow, ResourceRow } from '../../db/tables.js';
import type { EditableCollection, EditFailure, RecordPatch } from '../model/record-maintenance.js';
import { formFields, REQUEST_FORMS, type FormValues } from '../model/registration-fields.js';
import type { RequestKind, RequestRow } from '../model/registration-records.js';
import { NO_ADDITIONAL_INFORMATION } from '../model/registration-records.js';

export type DeskInput = 'text' | 'url' | 'textarea' | 'checkbox' | 'country';

/** A namespace's synonyms (issue 15 item 1): a list, shown one per line, sent as the PATCH's `synonyms`. */
const SYNONYMS_FIELD = 'synonyms';

/** The synonyms typed in the form: one per line, commas and spaces also separating them. */
export function readSynonymsText(text: string): string[] {
  return text.split(/[\s,]+/u).filter((synonym) => synonym !== '');
}

export interface DeskField {
  /** The PATCH property (or `location`, the association by country code). */
  name: string;
  label: string;
  input: DeskInput;
  required: boolean;
  hint?: string;
}

const NAMESPACE_FIELDS: readonly DeskField[] = [
  { name: 'prefix', label: 'Prefix', input: 'text', required: true },
  { name: 'name', label: 'Name', input: 'text', required: true },
  { name: 'description', label: 'Description', input: 'textarea', required: true },
  { name: 'pattern', label: 'Identifier pattern', input: 'text', required: true, hint: 'A regular expression every identifier matches, e.g. ^\\d{7}$.' },
  { name: 'sampleId', label: 'Sample identifier', input: 'text', required: true },
  { name: 'namespaceEmbeddedInLui', label: 'The identifiers start with the prefix (as in GO:0006915)', input: 'checkbox', required: false },
  {
    name: SYNONYMS_FIELD,
    label: 'Synonyms',
    input: 'textarea',
    required: false,
    hint: 'Other prefixes the namespace answers to (ncbitaxon for taxonomy), one per line; the resolver takes each in place of the prefix.',
  },
  {
    name: 'suffixPassthrough',
    label: 'Pass suffixes through to the providers',
    input: 'checkbox',
    required: false,
    hint: 'For versioned or path-like identifiers (dandi:000027/0.210831.2033): what follows the part the pattern matches, from a / . ; # or ?, is appended to each provider URL.',
  },
  { name: 'deprecationStatement', label: 'Deprecation statement', input: 'textarea', required: false, hint: 'Shown on the landing page of a deprecated namespace.' },
  { name: 'infoOnPostmortemAccess', label: 'How to reach the data after the end', input: 'textarea', required: false },
];

const RESOURCE_FIELDS: readonly DeskField[] = [
  { name: 'name', label: 'Name', input: 'text', required: true },
  { name: 'description', label: 'Description', input: 'textarea', required: false },
  { name: 'urlPattern', label: 'URL pattern', input: 'url', required: true, hint: 'With {$id} where the identifier goes.' },
  { name: 'resourceHomeUrl', label: 'Home page', input: 'url', required: true },
  { name: 'providerCode', label: 'Provider code', input: 'text', required: true },
  { name: 'sampleId', label: 'Sample identifier', input: 'text', required: false, hint: 'Empty: the namespace’s.' },
  { name: 'location', label: 'Country', input: 'country', required: true, hint: 'Two-letter ISO 3166 code, e.g. GB.' },
  { name: 'official', label: 'The namespace’s official provider', input: 'checkbox', required: false },
  { name: 'protectedUrls', label: 'The pages need a login', input: 'checkbox', required: false },
  { name: 'renderProtectedLanding', label: 'Show a landing page before sending people to the provider', input: 'checkbox', required: false },
  { name: 'authHelpUrl', label: 'Address of the login instructions', input: 'url', required: false },
  { name: 'authHelpDescription', label: 'Login instructions', input: 'textarea', required: false },
  { name: 'deprecationStatement', label: 'Deprecation statement', input: 'textarea', required: false },
];

const INSTITUTION_FIELDS: readonly DeskField[] = [
  { name: 'name', label: 'Name', input: 'text', required: true },
  { name: 'description', label: 'Description', input: 'textarea', required: true },
  { name: 'homeUrl', label: 'Home page', input: 'url', required: true },
  { name: 'rorId', label: 'ROR id', input: 'text', required: false, hint: 'e.g. https://ror.org/02catss52.' },
  { name: 'location', label: 'Country', input: 'country', required: true, hint: 'Two-letter ISO 3166 code, e.g. GB.' },
];

export const RECORD_FIELDS: Readonly<Record<EditableCollection, readonly DeskField[]>> = {
  namespaces: NAMESPACE_FIELDS,
  resources: RESOURCE_FIELDS,
  institutions: INSTITUTION_FIELDS,
};

type EditedRecord = NamespaceRow | ResourceRow | InstitutionRow;

/** A record as its edit form shows it. */
export function recordFormValues(collection: EditableCollection, row: EditedRecord): FormValues {
  const values: Record<string, string> = {};
  const columns = row as unknown as Record<string, unknown>;
  for (const field of RECORD_FIELDS[collection]) {
    const value = field.name === 'location' ? columns.locationCountryCode : columns[field.name];
    if (field.name === SYNONYMS_FIELD) values[field.name] = Array.isArray(value) ? value.join('\n') : '';
    else if (field.input === 'checkbox') {
      if (value === true) values[field.name] = 'on';
    } else values[field.name] = typeof value === 'string' ? value : '';
  }
  return values;
}

/** The posted values of the form's own fields. */
export function readRecordForm(collection: EditableCollection, posted: Readonly<Record<string, string>>): FormValues {
  const values: Record<string, string> = {};
  for (const field of RECORD_FIELDS[collection]) {
    const value = posted[field.name];
    if (value !== undefined) values[field.name] = value;
  }
  return values;
}

/**
 * The maintenance patch a posted edit form asks for: every field of the form (the edit changes only those
 * that differ, and checks only those), blank optional texts as null, the country as the location's href.
 */
export function patchFromRecordForm(collection: EditableCollection, values: FormValues, publicRegistryUrl: string): RecordPatch {
  const patch: RecordPatch = { fields: {}, associations: {} };
  for (const field of RECORD_FIELDS[collection]) {
    const value = values[field.name] ?? '';
    if (field.name === SYNONYMS_FIELD) patch.synonyms = readSynonymsText(value);
    else if (field.input === 'checkbox') patch.fields[field.name] = value === 'on';
    else if (field.name === 'location') patch.associations.location = `${publicRegistryUrl}/restApi/locations/${encodeURIComponent(value.trim().toUpperCase())}`;
    else if (!field.required && value.trim() === '') patch.fields[field.name] = null;
    else patch.fields[field.name] = value;
  }
  return patch;
}

/** What a refused edit says, next to the fields it is about and, for the rest, above the form. */
export interface FormProblems {
  errors: Record<string, string>;
  problems: string[];
}

/**
 * Places a refused edit's messages, as `word` puts them (the pages' plain words): EditRefused names its
 * fields; other messages quote the property.
 */
export function placeEditRefusal(
  collection: EditableCollection,
  error: DomainError & { failures?: readonly EditFailure[] },
  word: (message: string) => string = (message) => message,
): FormProblems {
  const names = new Set(RECORD_FIELDS[collection].map((field) => field.name));
  const errors: Record<string, string> = {};
  const problems: string[] = [];
  const failures = error.failures ?? [{ field: quotedProperty(error.message) ?? '', message: error.message }];
  for (const failure of failures) {
    const { field } = failure;
    const message = word(failure.message);
    const name = field === 'locationCountryCode' ? 'location' : field;
    if (names.has(name) && errors[name] === undefined) errors[name] = message;
    else problems.push(message);
  }
  return { errors, problems };
}

function quotedProperty(message: string): string | undefined {
  if (/\bROR ID\b/.test(message)) return 'rorId';
  return /^'([A-Za-z]+)'/.exec(message)?.[1];
}

/** A stored request version as the amendment form's values (the request forms' fields). */
export function requestFormValues(kind: RequestKind, row: RequestRow): FormValues {
  const values: Record<string, string> = {};
  const columns = row as unknown as Record<string, unknown>;
  for (const field of formFields(REQUEST_FORMS[kind])) {
    const value = field.name === 'references' ? columns.supportingReferences : columns[field.name];
    if (field.input === 'checkbox') {
      if (value === true) values[field.name] = 'on';
    } else if (Array.isArray(value)) values[field.name] = value.join('\n');
    else if (typeof value === 'string' && !(field.name === 'additionalInformation' && value === NO_ADDITIONAL_INFORMATION)) values[field.name] = value;
  }
  return values;
}
