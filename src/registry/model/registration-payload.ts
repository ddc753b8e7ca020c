/**
 * The registration payload as clients send it, turned into one tidy shape that the validation chains, and
 * later the stored request, read from. Clients differ: the interface says `references`, the reference
 * service `supportingReferences`; `additionalInformation` may be a string or an array of strings; the web
 * UI sends numbers for some texts. Unknown fields are ignored, as the reference's
 * `@JsonIgnoreProperties(ignoreUnknown = true)` does.
 */
import { DomainError } from '../../core/domain-error.js';

/** Spring's StringUtils.hasText: not null and not only whitespace. */
export function hasText(value: string | null | undefined): value is string {
  return value !== null && value !== undefined && /\S/.test(value);
}

export interface RegistrationRequester {
  name: string | null;
  email: string | null;
}

/**
 * Every field of a prefix or a resource registration request. Texts are kept exactly as sent (no trimming:
 * the rules decide what blank means); a field that was absent or null is null.
 */
export interface RegistrationPayload {
  name: string | null;
  description: string | null;
  requestedPrefix: string | null;
  /** Resource requests: the namespace the new provider joins. */
  namespacePrefix: string | null;
  providerHomeUrl: string | null;
  providerName: string | null;
  providerDescription: string | null;
  providerLocation: string | null;
  providerCode: string | null;
  providerUrlPattern: string | null;
  sampleId: string | null;
  idRegexPattern: string | null;
  institutionName: string | null;
  institutionHomeUrl: string | null;
  institutionDescription: string | null;
  institutionLocation: string | null;
  institutionRorId: string | null;
  /** `references` or, from clients of the reference service, `supportingReferences`; never null. */
  references: string[];
  /** An array of strings is joined with line breaks. */
  additionalInformation: string | null;
  /** Null when the request carries no requester object at all. */
  requester: RegistrationRequester | null;
  namespaceEmbeddedInLui: boolean;
  protectedUrls: boolean;
  renderProtectedLanding: boolean;
  authHelpUrl: string | null;
  authHelpDescription: string | null;
}

export interface NormaliseOptions {
  /**
   * validateProviderDescription only: the interface's sample body for that endpoint carries the description
   * text under `providerCode`, so it is taken as the description when `providerDescription` is absent.
   */
  providerCodeAsDescription?: boolean;
}

/** A field of the payload has a type no client sends for it (an object where a text is expected, ...). */
export class InvalidPayloadError extends DomainError {
  override name = 'InvalidPayloadError';

  constructor(message: string) {
    super('invalid', message);
  }
}

type Raw = Record<string, unknown>;

/** True for a JSON object (not null, not an array): what `payload` must be. */
export function isPayloadObject(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Numbers and booleans become their text, as Jackson coerces scalars into the reference's String fields.
function text(raw: Raw, field: string, path = field): string | null {
  const value = raw[field];
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new InvalidPayloadError(`'${path}' must be a string`);
}

function flag(raw: Raw, field: string): boolean {
  const value = raw[field];
  if (value === undefined || value === null) return false;
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new InvalidPayloadError(`'${field}' must be true or false`);
}

function textList(raw: Raw, field: string): string[] | null {
  const value = raw[field];
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value)) throw new InvalidPayloadError(`'${field}' must be an array of strings`);
  const list: string[] = [];
  for (const item of value as unknown[]) {
    if (item === null || item === undefined) continue;
    if (typeof item === 'string') list.push(item);
    else if (typeof item === 'number' || typeof item === 'boolean') list.push(String(item));
    else throw new InvalidPayloadError(`'${field}' must be an array of strings`);
  }
  return list;
}

function additionalInformation(raw: Raw): string | null {
  const value = raw.additionalInformation;
  if (Array.isArray(value)) return (textList(raw, 'additionalInformation') ?? []).join('\n');
  return text(raw, 'additionalInformation');
}

function requester(raw: Raw): RegistrationRequester | null {
  const value = raw.requester;
  if (value === undefined || value === null) return null;
  if (!isPayloadObject(value)) throw new InvalidPayloadError(`'requester' must be an object with name and email`);
  return { name: text(value, 'name', 'requester.name'), email: text(value, 'email', 'requester.email') };
}

/**
 * Reads a registration payload (the envelope's `payload`, already known to be an object) into a
 * RegistrationPayload. Throws InvalidPayloadError, with a message for the client, when a known field has a
 * type that cannot be read as intended.
 */
export function normaliseRegistrationPayload(raw: Raw, options: NormaliseOptions = {}): RegistrationPayload {
  let providerDescription = text(raw, 'providerDescription');
  const providerCode = text(raw, 'providerCode');
  if (options.providerCodeAsDescription && providerDescription === null) {
    providerDescription = providerCode;
  }
  return {
    name: text(raw, 'name'),
    description: text(raw, 'description'),
    requestedPrefix: text(raw, 'requestedPrefix'),
    namespacePrefix: text(raw, 'namespacePrefix'),
    providerHomeUrl: text(raw, 'providerHomeUrl'),
    providerName: text(raw, 'providerName'),
    providerDescription,
    providerLocation: text(raw, 'providerLocation'),
    providerCode,
    providerUrlPattern: text(raw, 'providerUrlPattern'),
    sampleId: text(raw, 'sampleId'),
    idRegexPattern: text(raw, 'idRegexPattern'),
    institutionName: text(raw, 'institutionName'),
    institutionHomeUrl: text(raw, 'institutionHomeUrl'),
    institutionDescription: text(raw, 'institutionDescription'),
    institutionLocation: text(raw, 'institutionLocation'),
    institutionRorId: text(raw, 'institutionRorId'),
    // The interface's name wins when a client sends both.
    references: textList(raw, 'references') ?? textList(raw, 'supportingReferences') ?? [],
    additionalInformation: additionalInformation(raw),
    requester: requester(raw),
    namespaceEmbeddedInLui: flag(raw, 'namespaceEmbeddedInLui'),
    protectedUrls: flag(raw, 'protectedUrls'),
    renderProtectedLanding: flag(raw, 'renderProtectedLanding'),
    authHelpUrl: text(raw, 'authHelpUrl'),
    authHelpDescription: text(raw, 'authHelpDescription'),
  };
}

/**
 * The `payload` of a request envelope `{apiVersion, payload}` (apiVersion is not checked: clients send "1.0"
 * or the number 1). Null when the body or its payload is missing or null; InvalidPayloadError when the
 * payload is not a JSON object.
 */
export function readEnvelopePayload(body: unknown): Raw | null {
  if (!isPayloadObject(body)) return null;
  const payload = body.payload;
  if (payload === undefined || payload === null) return null;
  if (!isPayloadObject(payload)) throw new InvalidPayloadError('Payload must be a JSON object');
  return payload;
}
