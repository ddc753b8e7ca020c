/**
 * The JSON Schema of the registration payload (payload.ts reads it by hand, with a message per field), for
 * the OpenAPI document. Texts may come as numbers or booleans (Jackson coerced them into the reference's
 * Strings); flags as booleans or "true"/"false". A unit test (test/unit/request-schemas.test.ts) gives the
 * same payloads to normaliseRegistrationPayload and to this schema and expects the same verdicts.
 */

const TEXT = { type: ['string', 'number', 'boolean', 'null'] };
const FLAG = { anyOf: [{ type: ['boolean', 'null'] }, { enum: ['true', 'false'] }] };
const TEXT_LIST = { anyOf: [{ type: 'string' }, { type: ['array', 'null'], items: TEXT }] };

const text = (description: string) => ({ ...TEXT, description });
const flag = (description: string) => ({ ...FLAG, description });

/** Every field of a prefix or a resource registration request; unknown fields are ignored. */
export const REGISTRATION_PAYLOAD_SCHEMA = {
  type: 'object',
  properties: {
    name: text('Prefix requests: the namespace\'s name'),
    description: text('Prefix requests: the namespace\'s description'),
    requestedPrefix: text('Prefix requests: the prefix asked for'),
    namespacePrefix: text('Resource requests: the namespace the provider joins'),
    providerHomeUrl: text('The provider\'s home page'),
    providerName: text('The provider\'s name'),
    providerDescription: text('The provider\'s description'),
    providerLocation: text('The provider\'s country (ISO 3166-1 alpha-2)'),
    providerCode: text('A short code naming the provider among the namespace\'s'),
    providerUrlPattern: text('The provider URL with {$id} where the local id goes'),
    sampleId: text('A local id that resolves'),
    idRegexPattern: text('Prefix requests: the local id pattern'),
    institutionName: text('The institution\'s name'),
    institutionHomeUrl: text('The institution\'s home page'),
    institutionDescription: text('The institution\'s description'),
    institutionLocation: text('The institution\'s country (ISO 3166-1 alpha-2)'),
    institutionRorId: text('The institution\'s ROR id'),
    references: { ...TEXT_LIST, description: 'Prefix requests: supporting references (the reference service calls them supportingReferences, also read)' },
    supportingReferences: { ...TEXT_LIST, description: 'The reference service\'s name for references' },
    additionalInformation: { anyOf: [TEXT, { type: 'array', items: TEXT }], description: 'A text, or lines of text' },
    requester: {
      type: ['object', 'null'],
      properties: { name: text('Your name'), email: text('Your e-mail address') },
      description: 'Who asks: the curators write to this address',
    },
    namespaceEmbeddedInLui: flag('Prefix requests: whether local ids carry the prefix (GO:0006915)'),
    protectedUrls: flag('Whether the provider\'s pages need a sign-in'),
    renderProtectedLanding: flag('Whether the resolver shows a landing page before protected pages'),
    authHelpUrl: text('Where to learn how to get access'),
    authHelpDescription: text('How to get access'),
  },
};

const API_VERSION = { description: 'Not checked: clients send "1.0" or 1' };

/** The envelope `{apiVersion, payload}` of registerPrefix, registerResource and the field validators. */
export const REGISTRATION_REQUEST_SCHEMA = {
  type: 'object',
  required: ['payload'],
  properties: { apiVersion: API_VERSION, payload: REGISTRATION_PAYLOAD_SCHEMA },
};
