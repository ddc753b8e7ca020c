import type { ParsedCompactIdentifier, Resolution, ResolvedResource, UnresolvedReason } from '../core/resolve.js';
import { envelope, envelopeJson, errorEnvelope, errorEnvelopeJson, type Envelope } from '../http/envelope.js';
import { payloadExtensions, payloadExtensionsJson } from './payload-extensions.js';
import { resolvedResourcesJson } from './resolve-json.js';

/**
 * The reference's `ResponseResolvePayload`, then the fields this resolver adds when they apply
 * (payload-extensions.ts: `canonicalCompactIdentifier`, `prefixSynonym`, `luiSuffix`).
 */
export interface ResolvePayload {
  resolvedResources: ResolvedResource[] | null;
  parsedCompactIdentifier: ParsedCompactIdentifier | null;
  [extension: string]: unknown;
}

export type ResolutionStatus = 200 | 400 | 404;

/** A resolution as the JSON API answers it: the reference's `ServiceResponse<ResponseResolvePayload>`. */
export interface ResolutionAnswer {
  status: ResolutionStatus;
  body: Envelope<ResolvePayload>;
}

// The reference answers 400 when neither resolver of its chain accepts the request, 404 when the
// compact-identifier resolver accepts it and finds nothing to offer.
const STATUS_OF_REASON: Readonly<Record<UnresolvedReason, 400 | 404>> = {
  'not-a-compact-id': 400,
  'lui-mismatch': 400,
  'no-providers': 404,
  'no-provider-with-code': 404,
};

// Every unresolved answer carries this payload; it is frozen so no caller can alter the shared instance.
const EMPTY_PAYLOAD: ResolvePayload = Object.freeze({ resolvedResources: null, parsedCompactIdentifier: null });
const EMPTY_PAYLOAD_JSON = JSON.stringify(EMPTY_PAYLOAD);

export function resolutionStatus(resolution: Resolution): ResolutionStatus {
  return resolution.kind === 'resolved' ? 200 : STATUS_OF_REASON[resolution.reason];
}

/** The answer's `errorMessage`. */
export function resolutionErrorMessage(resolution: Resolution): string | null {
  return resolution.kind === 'resolved' ? null : resolution.message;
}

export function presentResolution(resolution: Resolution): ResolutionAnswer {
  if (resolution.kind !== 'resolved') {
    return { status: STATUS_OF_REASON[resolution.reason], body: errorEnvelope(resolution.message, EMPTY_PAYLOAD) };
  }
  const { resolvedResources, parsedCompactIdentifier } = resolution;
  return { status: 200, body: envelope({ resolvedResources, parsedCompactIdentifier, ...payloadExtensions(resolution) }) };
}

/**
 * The answer's body as JSON text, byte for byte what JSON.stringify(presentResolution(resolution).body)
 * gives, written from cached fragments (resolve-json.ts): this is the resolver's hot path.
 */
export function resolutionJson(resolution: Resolution): string {
  if (resolution.kind !== 'resolved') {
    return errorEnvelopeJson(resolution.message, EMPTY_PAYLOAD_JSON);
  }
  return envelopeJson(
    `{"resolvedResources":${resolvedResourcesJson(resolution)},"parsedCompactIdentifier":${JSON.stringify(resolution.parsedCompactIdentifier)}${payloadExtensionsJson(resolution)}}`,
  );
}
