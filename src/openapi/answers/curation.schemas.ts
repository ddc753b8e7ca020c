/**
 * The curators' answers: registration sessions, requests and events as the reference's Spring Data REST
 * writes them (fields from curation.presenter.ts, in its order), curation warnings, the dashboard summary
 * and the lifecycle reports.
 */
import { CURATION_NAMES, eventRel, PREFIX_REQUEST_FIELDS, RESOURCE_REQUEST_FIELDS } from '../../registry/curation/curation.presenter.js';
import type { RequestKind } from '../../registry/model/registration-records.js';
import { arrayOf, flag, integer, NULLABLE_DATE, object, orNull, REFERENCE_DATE, ref, text, type Schema } from '../schema-kit.js';
import { envelopeOf, envelopeWithMessage } from './envelope.schemas.js';
import { halLinksOf, halPageSchema } from './hal.schemas.js';

const REQUEST_FIELD_TYPES: Readonly<Record<string, Schema>> = {
  name: text(),
  description: text(),
  requestedPrefix: text(),
  namespacePrefix: text(),
  idRegexPattern: text(),
  supportingReferences: orNull(arrayOf(text())),
  additionalInformation: orNull(text()),
  institutionRorId: orNull(text()),
  namespaceEmbeddedInLui: flag(),
  protectedUrls: flag(),
  renderProtectedLanding: flag(),
  authHelpUrl: orNull(text()),
  authHelpDescription: orNull(text()),
  created: REFERENCE_DATE,
};

function requestSchema(kind: RequestKind, fields: readonly string[]): Schema {
  const names = CURATION_NAMES[kind];
  const properties: Record<string, Schema> = {};
  for (const field of fields) properties[field] = REQUEST_FIELD_TYPES[field] ?? text();
  properties._links = halLinksOf(['self', names.requestRel]);
  return object(properties, { referenceOrder: true, description: `A version of a ${kind} registration request (an amendment adds one)` });
}

function sessionSchema(kind: RequestKind): Schema {
  const names = CURATION_NAMES[kind];
  return object({ closed: flag(), created: REFERENCE_DATE, _links: halLinksOf(['self', names.sessionRel, names.requestRel]) }, { referenceOrder: true });
}

const EVENT_TEXTS = ['comment', 'rejectionReason', 'acceptanceReason'];

function eventSchema(kind: RequestKind): Schema {
  const names = CURATION_NAMES[kind];
  return object(
    {
      eventName: { enum: ['START', 'AMEND', 'COMMENT', 'REJECT', 'ACCEPT'] },
      actor: orNull(text()),
      additionalInformation: orNull(text()),
      created: REFERENCE_DATE,
      comment: orNull(text('COMMENT events')),
      rejectionReason: orNull(text('REJECT events')),
      acceptanceReason: orNull(text('ACCEPT events')),
      _links: {
        type: 'object',
        required: ['self', names.sessionRel],
        properties: { self: ref('HalLink'), [names.sessionRel]: ref('HalLink'), [names.requestRel]: ref('HalLink') },
        additionalProperties: ref('HalLink'),
        description: `self, the event type's own rel (e.g. ${eventRel(kind, 'COMMENT')}), the session and the request version`,
      },
    },
    { referenceOrder: true, optional: EVENT_TEXTS },
  );
}

function eventsSchema(kind: RequestKind, event: string): Schema {
  const types = (['START', 'AMEND', 'COMMENT', 'REJECT', 'ACCEPT'] as const).map((name) => `${eventRel(kind, name)}s`);
  return object(
    {
      _embedded: object(Object.fromEntries(types.map((key) => [key, arrayOf(ref(event))])), {
        optional: types,
        description: 'The events grouped by type, each under its collection rel',
      }),
      _links: halLinksOf(['self']),
    },
    { referenceOrder: true },
  );
}

const KINDS: readonly [RequestKind, string, readonly string[]][] = [
  ['prefix', 'Prefix', PREFIX_REQUEST_FIELDS],
  ['resource', 'Resource', RESOURCE_REQUEST_FIELDS],
];

export const CURATION_SCHEMAS: Record<string, Schema> = {
  CurationWarning: object(
    {
      globalId: text(),
      type: text(),
      open: flag(),
      created: NULLABLE_DATE,
      modified: NULLABLE_DATE,
      lastNotification: NULLABLE_DATE,
      latestEvent: object({ type: text(), created: NULLABLE_DATE }, { referenceOrder: true }),
      moreDetails: { type: 'object', additionalProperties: text(), description: 'The warning\'s details as {label: value}' },
      _links: object({ self: ref('HalLink'), target: ref('HalLink'), events: ref('HalLink') }, {
        referenceOrder: true,
        optional: ['self', 'events'],
        description: 'self and events only for a stored warning (one computed on request has no item of its own)',
      }),
    },
    { referenceOrder: true, description: 'The reference\'s CurationWarning' },
  ),
  CurationWarningList: object(
    { _embedded: object({ curationWarnings: arrayOf(ref('CurationWarning')) }), _links: halLinksOf(['self']) },
    { referenceOrder: true },
  ),
  CurationWarningEvents: object(
    {
      _embedded: object({
        curationWarningEvents: arrayOf(
          object({ type: text(), actor: text(), created: REFERENCE_DATE, _links: halLinksOf(['curationWarning']) }, { referenceOrder: true }),
        ),
      }),
      _links: halLinksOf(['self']),
    },
    { referenceOrder: true },
  ),
  WarningsSummary: envelopeOf(
    object({
      namespaceUsage: { type: 'object', additionalProperties: integer(), description: 'Recent resolutions per prefix' },
      summaryEntries: arrayOf(
        object({
          targetInfo: object({ type: { enum: ['Institution', 'Prefix'] }, identifier: text(), label: text() }),
          failingInstitutionUrl: integer(),
          lowAvailabilityResources: integer(),
          hasCurationValues: flag(),
          hasPossibleWikidataError: flag(),
          allDisabled: flag(),
        }),
      ),
    }, { referenceOrder: true }),
  ),
  CommentPayload: envelopeOf(object({ comment: { type: 'null' } }), 'Done: the reference\'s envelope with a null comment'),
  LifecycleReport: envelopeWithMessage(object({ comment: text() }), 'The report of a lifecycle change, or of its refusal (with errorMessage)'),
};

for (const [kind, name, fields] of KINDS) {
  const names = CURATION_NAMES[kind];
  CURATION_SCHEMAS[`${name}RegistrationRequest`] = requestSchema(kind, fields);
  CURATION_SCHEMAS[`${name}RegistrationSession`] = sessionSchema(kind);
  CURATION_SCHEMAS[`${name}RegistrationSessionPage`] = halPageSchema(names.sessions, ref(`${name}RegistrationSession`));
  CURATION_SCHEMAS[`${name}RegistrationSessionEvent`] = eventSchema(kind);
  CURATION_SCHEMAS[`${name}RegistrationSessionEvents`] = eventsSchema(kind, `${name}RegistrationSessionEvent`);
}
