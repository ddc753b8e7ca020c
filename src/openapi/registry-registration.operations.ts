/**
 * Registration (registry-behaviour.md §2): the requests, the requester's status and replies
 * (submission.routes.ts), the field validators (validation.routes.ts, from the same endpoint lists) and the
 * ROR lookup the forms use.
 */
import { PREFIX_VALIDATION_ENDPOINTS, RESOURCE_VALIDATION_ENDPOINTS, type ValidationEndpoint } from '../registry/registration/validation/endpoints.js';
import { REFERENCE_DATE_EXAMPLE } from './examples.js';
import { errorAnswer, jsonAnswer, jsonBody, pathParam, type OperationSpec, type ParameterSpec } from './operation.js';
import { ref } from './schema-kit.js';

const TAG = 'Registration';

const PROVIDER = {
  providerHomeUrl: 'https://www.example.org/',
  providerName: 'Example provider',
  providerDescription: 'An example provider of records, with a description long enough for the rules',
  providerLocation: 'GB',
  providerCode: 'example',
  sampleId: '12345',
  institutionName: 'Example Institute',
  institutionHomeUrl: 'https://www.example.org/institute',
  institutionDescription: 'An example institute that hosts the example provider of records',
  institutionLocation: 'GB',
  requester: { name: 'A. Requester', email: 'requester@example.org' },
};

/** A prefix request the sample registry takes (with checks that reach the URLs). */
export const PREFIX_REQUEST_EXAMPLE = {
  apiVersion: '1.0',
  payload: {
    name: 'Example records',
    description: 'Records of an example database of things, each with a stable numeric accession',
    requestedPrefix: 'examplerecords',
    idRegexPattern: '^\\d+$',
    providerUrlPattern: 'https://www.example.org/records/{$id}',
    references: ['https://doi.org/10.1000/182'],
    additionalInformation: 'Nothing more',
    ...PROVIDER,
  },
};

export const RESOURCE_REQUEST_EXAMPLE = {
  apiVersion: '1.0',
  payload: { namespacePrefix: 'taxonomy', providerUrlPattern: 'https://www.example.org/taxa/{$id}', ...PROVIDER, sampleId: '9606' },
};

const AREAS = [
  { kind: 'prefix', base: '/prefixRegistrationApi', submit: 'registerPrefix', example: PREFIX_REQUEST_EXAMPLE, validation: PREFIX_VALIDATION_ENDPOINTS },
  { kind: 'resource', base: '/resourceManagementApi', submit: 'registerResource', example: RESOURCE_REQUEST_EXAMPLE, validation: RESOURCE_VALIDATION_ENDPOINTS },
] as const;

const token: ParameterSpec = pathParam('token', 'The requester\'s token, from the answer to their request', 'Xc1pYt0aRlC0VbQ2KQm0rX4vZ8yJm3wq5Tn7hL6dE2s', {
  type: 'string',
  pattern: '^[A-Za-z0-9_-]{1,64}$',
  maxLength: 64,
});

function submissionOperations(area: (typeof AREAS)[number]): OperationSpec[] {
  const statusHead = area.kind === 'prefix' ? { requestedPrefix: 'examplerecords' } : { namespacePrefix: 'taxonomy' };
  return [
    {
      methods: ['post'],
      path: `${area.base}/${area.submit}`,
      tag: TAG,
      summary: `Request a new ${area.kind === 'prefix' ? 'prefix (namespace)' : 'resource (provider) of a namespace'}`,
      description:
        'Every validation chain runs; a valid request starts a registration session for the curators. With an Idempotency-Key header, sending the same request again answers the first answer again (Idempotent-Replayed: true). One client address may have at most REGISTRATION_REQUESTS_PER_DAY (20) requests of both kinds stored per day; the next is refused 429 with Retry-After before any check (curators exempt).',
      parameters: [
        {
          name: 'Idempotency-Key',
          in: 'header',
          description: 'A key of the client\'s choosing (at most 255 characters) that makes a retry safe',
          schema: { type: 'string', maxLength: 255 },
          example: 'e5a2c1a4-6f0b-4b7e-9d43-2f7f3b8a9c10',
        },
      ],
      requestBody: jsonBody('The request in the envelope', ref('RegistrationRequest'), area.example),
      responses: {
        200: jsonAnswer('Taken: the token is the requester\'s handle on it', ref('SubmissionAnswer'), {
          apiVersion: '1.0',
          errorMessage: null,
          payload: { comment: 'No comments on your prefix registration request', token: 'Xc1pYt0aRlC0VbQ2KQm0rX4vZ8yJm3wq5Tn7hL6dE2s' },
        }),
        400: jsonAnswer('Refused: every failing check, one per line (or no payload: the error envelope)', { anyOf: [ref('SubmissionAnswer'), ref('ErrorEnvelope')] }, {
          apiVersion: '1.0',
          errorMessage: "INVALID Prefix registration request due to 'The requested prefix 'go' is already in use'",
          payload: { comment: 'No comments on your prefix registration request', token: '' },
        }),
        422: errorAnswer('The Idempotency-Key was used with another request', 'This Idempotency-Key was used with a different request'),
      },
    },
    {
      methods: ['get'],
      path: `${area.base}/status/{token}`,
      tag: TAG,
      summary: `The state and public history of a ${area.kind} request`,
      addition: 'the requester\'s view of their request',
      parameters: [token],
      responses: {
        200: jsonAnswer('The request\'s state', ref('RegistrationStatus'), {
          apiVersion: '1.0',
          errorMessage: null,
          payload: { ...statusHead, status: 'open', created: REFERENCE_DATE_EXAMPLE, events: [{ eventName: 'START', created: REFERENCE_DATE_EXAMPLE }] },
        }),
        404: errorAnswer('No request has this token', 'No registration request has this token'),
      },
    },
    {
      methods: ['post'],
      path: `${area.base}/status/{token}/comment`,
      tag: TAG,
      summary: 'Answer the curators (a comment by the requester)',
      addition: 'the requester\'s replies to the curators',
      parameters: [token],
      requestBody: jsonBody(
        'The comment in the envelope',
        {
          type: 'object',
          required: ['payload'],
          properties: {
            apiVersion: { description: 'Not checked' },
            payload: { type: 'object', properties: { comment: { type: 'string', description: 'The reply (checked by the service: not blank, bounded)' } } },
          },
        },
        { apiVersion: '1.0', payload: { comment: 'The sample id 12345 resolves now.' } },
      ),
      responses: {
        200: jsonAnswer('Taken', ref('CommentPayload'), { apiVersion: '1.0', errorMessage: null, payload: { comment: null } }),
        400: errorAnswer('No comment', 'Payload is required'),
        404: errorAnswer('No request has this token', 'No registration request has this token'),
        409: errorAnswer('The request is closed', 'This registration request is closed'),
      },
    },
  ];
}

function validationOperation(area: (typeof AREAS)[number], endpoint: ValidationEndpoint): OperationSpec {
  const prefix = area.kind === 'prefix';
  const answer = prefix ? 'PrefixValidationAnswer' : 'ResourceValidationAnswer';
  const ok = prefix ? { comment: 'VALIDATION OK', token: '' } : { comment: 'VALIDATION OK' };
  const failed = prefix ? { comment: 'VALIDATION FAILED', token: '' } : { comment: 'VALIDATION FAILED' };
  return {
    methods: ['post'],
    path: `${area.base}/${endpoint.name}`,
    tag: TAG,
    summary: `Check ${endpoint.name.replace(/^validate/, '')} of a ${area.kind} request as it is typed`,
    description: 'Runs the field\'s checks (and those of the fields it needs beside it) on the request\'s payload; the other fields may be absent.',
    requestBody: jsonBody('The request (the fields concerned at least) in the envelope', ref('RegistrationRequest'), area.example),
    responses: {
      200: jsonAnswer('The field passes', ref(answer), { apiVersion: '1.0', errorMessage: null, payload: ok }),
      400: jsonAnswer('The field fails: the first failing message (or no payload: the error envelope)', { anyOf: [ref(answer), ref('ErrorEnvelope')] }, { apiVersion: '1.0', errorMessage: 'Provider name is required', payload: failed }),
    },
  };
}

export const REGISTRATION_OPERATIONS: readonly OperationSpec[] = [
  ...AREAS.flatMap((area) => [...submissionOperations(area), ...area.validation.map((endpoint) => validationOperation(area, endpoint))]),
  {
    methods: ['post'],
    path: '/rorIdApi/getInstitutionForRorId',
    tag: TAG,
    summary: 'The institution with a ROR id, to fill in a request\'s institution fields',
    description: 'From the registry, else from the ROR API (answered as the reference builds it: id 0, rorId null).',
    requestBody: jsonBody(
      'The ROR id in the envelope',
      {
        type: 'object',
        required: ['payload'],
        properties: { apiVersion: { description: 'Not checked' }, payload: { type: 'object', required: ['rorId'], properties: { rorId: { type: 'string', minLength: 1, description: 'Not blank' } } } },
      },
      { apiVersion: '1.0', payload: { rorId: 'https://ror.org/02meqm098' } },
    ),
    responses: {
      200: jsonAnswer('The institution (no envelope, as the reference)', ref('RorInstitution'), {
        id: 26,
        name: 'National Center for Biotechnology Information',
        homeUrl: 'https://www.ncbi.nlm.nih.gov/',
        description: 'The National Center for Biotechnology Information advances science and health by providing access to biomedical and genomic information.',
        rorId: 'https://ror.org/02meqm098',
        location: { countryCode: 'US', countryName: 'United States' },
      }),
      400: errorAnswer('No ROR id', 'ROR ID is required'),
      404: errorAnswer('Neither the registry nor ROR knows it', "No institution with ROR ID 'https://ror.org/000000000' in the registry or at ROR"),
    },
  },
];
