/**
 * The fields of the two request forms (every field of the interface's registerPrefix and registerResource
 * payloads), what each is checked with as it is typed (its validator endpoint and the fields that endpoint
 * needs beside it), which validation chain's message goes next to it on submit, and how the posted form
 * becomes the payload the JSON API takes.
 */
import type { ChainKey, RequestFailure } from './request-validation.js';
import type { RequestKind } from './registration-records.js';

import type { FieldInput } from '../../web/form-field.js';

export type { FieldInput };

export interface FormField {
  /** The form field's name: the payload's key, but for the requester's two (requester.name, requester.email). */
  name: string;
  label: string;
  hint?: string;
  input: FieldInput;
  required: boolean;
  /** The validator endpoint (of the JSON API, and of the form's field check) that checks it as it is typed. */
  validate?: string;
  /** Fields sent along to the validator (the sample id with the URL pattern, say). */
  with?: readonly string[];
  /** Of those, the ones without which the check waits (its message would be about the other field). */
  needs?: readonly string[];
  /** The browser's autofill hint. */
  autocomplete?: string;
  /** Enhancements of the form's script: the ROR lookup, the namespace suggestions. */
  enhance?: 'ror-lookup' | 'prefix-suggest';
}

export interface FieldGroup {
  legend: string;
  hint?: string;
  fields: readonly FormField[];
}

const requester: FieldGroup = {
  legend: 'You',
  hint: 'The curators write to this address about the request. It is never shown on the registry’s pages.',
  fields: [
    { name: 'requesterName', label: 'Your name', input: 'text', required: true, validate: 'validateRequesterName', autocomplete: 'name' },
    { name: 'requesterEmail', label: 'Your e-mail address', input: 'email', required: true, validate: 'validateRequesterEmail', autocomplete: 'email' },
  ],
};

function providerGroup(kind: RequestKind): FieldGroup {
  const inNamespace = kind === 'resource' ? ['namespacePrefix'] : [];
  return {
    legend: 'Provider',
    hint: 'The resource that serves the pages of the identifiers.',
    fields: [
      { name: 'providerName', label: 'Provider name', input: 'text', required: true, validate: 'validateProviderName' },
      { name: 'providerDescription', label: 'Provider description', input: 'textarea', required: true, validate: 'validateProviderDescription' },
      {
        name: 'providerHomeUrl',
        label: 'Provider home page',
        hint: 'An http:// or https:// address.',
        input: 'url',
        required: true,
        validate: 'validateProviderHomeUrl',
        autocomplete: 'url',
      },
      {
        name: 'providerUrlPattern',
        label: 'Provider URL pattern',
        hint: 'The address of an identifier’s page, with {$id} where the identifier goes, e.g. https://example.org/items/{$id}.',
        input: 'url',
        required: true,
        validate: 'validateProviderUrlPattern',
        with: ['sampleId', ...inNamespace],
      },
      {
        name: 'providerCode',
        label: 'Provider code',
        hint: 'A short code for this provider, different from every prefix, e.g. ebi.',
        input: 'text',
        required: true,
        validate: 'validateProviderCode',
        with: inNamespace,
      },
      {
        name: 'providerLocation',
        label: 'Provider country',
        hint: 'The two-letter ISO 3166 code of the country it is run from, e.g. GB.',
        input: 'country',
        required: true,
        validate: 'validateProviderLocation',
      },
    ],
  };
}

const institution: FieldGroup = {
  legend: 'Institution',
  hint: 'The institution that runs the provider. Give its ROR id to fill the fields from the registry or from ROR.',
  fields: [
    {
      name: 'institutionRorId',
      label: 'ROR id (optional)',
      hint: 'e.g. https://ror.org/02catss52 or 02catss52.',
      input: 'text',
      required: false,
      validate: 'validateInstitutionRorId',
      enhance: 'ror-lookup',
    },
    { name: 'institutionName', label: 'Institution name', input: 'text', required: true, validate: 'validateInstitutionName', autocomplete: 'organization' },
    { name: 'institutionDescription', label: 'Institution description', input: 'textarea', required: true, validate: 'validateInstitutionDescription' },
    {
      name: 'institutionHomeUrl',
      label: 'Institution home page',
      input: 'url',
      required: true,
      validate: 'validateInstitutionHomeUrl',
      // The home page of the registry's institution with this ROR id is not fetched again.
      with: ['institutionRorId'],
    },
    {
      name: 'institutionLocation',
      label: 'Institution country',
      hint: 'Two-letter ISO 3166 code, e.g. GB.',
      input: 'country',
      required: true,
      validate: 'validateInstitutionLocation',
    },
  ],
};

const access: FieldGroup = {
  legend: 'Access',
  hint: 'Only for providers whose pages need a login.',
  fields: [
    { name: 'protectedUrls', label: 'The provider’s pages need a login', input: 'checkbox', required: false },
    { name: 'renderProtectedLanding', label: 'Show a landing page before sending people to the provider', input: 'checkbox', required: false },
    {
      name: 'authHelpUrl',
      label: 'Address of the login instructions',
      hint: 'Required when the pages need a login.',
      input: 'url',
      required: false,
      validate: 'validateAuthHelpUrl',
      with: ['protectedUrls'],
    },
    {
      name: 'authHelpDescription',
      label: 'Login instructions',
      hint: 'Required when the pages need a login.',
      input: 'textarea',
      required: false,
      validate: 'validateAuthHelpDescription',
      with: ['protectedUrls'],
    },
  ],
};

const additionalInformation: FormField = {
  name: 'additionalInformation',
  label: 'Anything else the curators should know (optional)',
  input: 'textarea',
  required: false,
};

const PREFIX_GROUPS: readonly FieldGroup[] = [
  {
    legend: 'Namespace',
    fields: [
      { name: 'name', label: 'Name', hint: 'The name of the collection of identifiers, e.g. Gene Ontology.', input: 'text', required: true, validate: 'validateName' },
      { name: 'description', label: 'Description', input: 'textarea', required: true, validate: 'validateDescription' },
      {
        name: 'requestedPrefix',
        label: 'Requested prefix',
        hint: 'Lowercase letters, digits, underscores and dots, e.g. go.',
        input: 'text',
        required: true,
        validate: 'validateRequestedPrefix',
      },
      {
        name: 'sampleId',
        label: 'Sample identifier',
        hint: 'An identifier that has a page at the provider, e.g. 0006915; where identifiers start with the prefix (GO:0006915), with or without it.',
        input: 'text',
        required: true,
        validate: 'validateSampleId',
        with: ['providerUrlPattern'],
        needs: ['providerUrlPattern'],
      },
      {
        name: 'idRegexPattern',
        label: 'Identifier pattern',
        hint: 'A regular expression every identifier matches, e.g. ^\\d{7}$.',
        input: 'text',
        required: true,
        validate: 'validateIdRegexPattern',
        with: ['sampleId'],
        needs: ['sampleId'],
      },
      { name: 'namespaceEmbeddedInLui', label: 'The identifiers start with the prefix (as in GO:0006915)', input: 'checkbox', required: false },
      {
        name: 'references',
        label: 'Supporting references (optional)',
        hint: 'Publications or pages about the collection, one per line.',
        input: 'textarea',
        required: false,
      },
    ],
  },
  providerGroup('prefix'),
  institution,
  access,
  { legend: 'Anything else', fields: [additionalInformation] },
  requester,
];

const RESOURCE_GROUPS: readonly FieldGroup[] = [
  {
    legend: 'Namespace',
    fields: [
      {
        name: 'namespacePrefix',
        label: 'Prefix of the namespace',
        hint: 'The namespace this provider serves identifiers of, e.g. taxonomy.',
        input: 'text',
        required: true,
        validate: 'validateNamespacePrefix',
        enhance: 'prefix-suggest',
      },
      {
        name: 'sampleId',
        label: 'Sample identifier',
        hint: 'An identifier of the namespace that has a page at this provider; where its identifiers start with the prefix (CHEBI:36927), with or without it.',
        input: 'text',
        required: true,
        validate: 'validateSampleId',
        with: ['providerUrlPattern', 'namespacePrefix'],
        needs: ['providerUrlPattern'],
      },
    ],
  },
  providerGroup('resource'),
  institution,
  access,
  { legend: 'Anything else', fields: [additionalInformation] },
  requester,
];

export interface RequestForm {
  kind: RequestKind;
  /** The page's path, where the form posts too; its field checks are under `{path}/check/`. */
  path: string;
  title: string;
  groups: readonly FieldGroup[];
}

export const REQUEST_FORMS: Readonly<Record<RequestKind, RequestForm>> = {
  prefix: { kind: 'prefix', path: '/prefixregistrationrequest', title: 'Request a prefix', groups: PREFIX_GROUPS },
  resource: {
    kind: 'resource',
    path: '/resourceregistrationrequest',
    title: 'Request a new provider for a namespace',
    groups: RESOURCE_GROUPS,
  },
};

export function formFields(form: RequestForm): FormField[] {
  return form.groups.flatMap((group) => group.fields);
}

/** The label of a field of the form of `kind` (the status page names what was sent as the form did). */
export function fieldLabel(kind: RequestKind, name: string): string {
  const field = formFields(REQUEST_FORMS[kind]).find((f) => f.name === name);
  if (!field) throw new Error(`No field ${name} in the ${kind} request form`);
  return field.label;
}

/** What the form shows in its fields: texts, and 'on' for a ticked box. */
export type FormValues = Readonly<Record<string, string>>;

/** The posted values of the form's own fields (anything else posted is dropped). */
export function readFormValues(form: RequestForm, posted: Readonly<Record<string, string>>): FormValues {
  const values: Record<string, string> = {};
  for (const field of formFields(form)) {
    const value = posted[field.name];
    if (value !== undefined) values[field.name] = value;
  }
  return values;
}

const TICKED = 'on';

/** The form's values as the JSON API's registration payload (interface.md §2.3). */
export function payloadFromForm(form: RequestForm, values: FormValues): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  for (const field of formFields(form)) {
    const value = values[field.name];
    if (field.input === 'checkbox') payload[field.name] = value === TICKED;
    else if (field.name === 'references') payload.references = (value ?? '').split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '');
    else if (field.name !== 'requesterName' && field.name !== 'requesterEmail') payload[field.name] = value ?? '';
  }
  payload.requester = { name: values.requesterName ?? '', email: values.requesterEmail ?? '' };
  return payload;
}

const FIELD_OF_CHAIN: Readonly<Record<string, string>> = {
  namespaceName: 'name',
  namespaceDescription: 'description',
  supportingReferences: 'references',
};

/** The form field a validation chain checks (the chains are named as the reference's payload, the form less so). */
export function fieldOfChain(kind: RequestKind, chain: ChainKey): string {
  if (chain === 'prefix') return kind === 'prefix' ? 'requestedPrefix' : 'namespacePrefix';
  return FIELD_OF_CHAIN[chain] ?? chain;
}

/** Each failure's message keyed by the form field it belongs next to (a field keeps its first message). */
export function messagesByField(form: RequestForm, failures: readonly RequestFailure[]): Record<string, string> {
  const byField: Record<string, string> = {};
  for (const { field, message } of failures) byField[fieldOfChain(form.kind, field)] ??= message;
  return byField;
}
