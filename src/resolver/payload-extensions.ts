/**
 * The resolution payload's fields that the reference does not have: each follows parsedCompactIdentifier,
 * in the order listed here, and is written only when it applies, so an answer to a request the reference
 * would understand the same way is byte for byte the reference's. Both writers of the payload
 * (resolution.presenter.ts: the object, and the hot path's JSON text) read this list; a new field is one
 * more entry.
 */
import type { Resolved } from '../core/resolve.js';

export interface PayloadExtension {
  name: string;
  /** The field's value for this resolution; null when the field does not apply (it is then left out). */
  valueOf: (resolution: Resolved) => string | null;
}

export const PAYLOAD_EXTENSIONS: readonly PayloadExtension[] = [
  // Issue 15 item 2: the compact identifier a non-canonical LUI was resolved as (core/lui-rules.ts).
  { name: 'canonicalCompactIdentifier', valueOf: (resolution) => resolution.canonicalCompactIdentifier ?? null },
  // Issue 15 item 1: the synonym the request named its namespace by, as written.
  { name: 'prefixSynonym', valueOf: (resolution) => resolution.prefixSynonym },
  // Issue 25 item 5: the part of the LUI passed through to the providers (core/lui-suffix.ts), as typed.
  { name: 'luiSuffix', valueOf: (resolution) => resolution.luiSuffix ?? null },
];

// Precomputed keys: `,"name":` per extension.
const KEYS = PAYLOAD_EXTENSIONS.map((extension) => `,${JSON.stringify(extension.name)}:`);

/** The fields that apply, as JSON text to append after parsedCompactIdentifier ('' when none does). */
export function payloadExtensionsJson(resolution: Resolved): string {
  let json = '';
  for (let i = 0; i < PAYLOAD_EXTENSIONS.length; i++) {
    const value = PAYLOAD_EXTENSIONS[i]!.valueOf(resolution);
    if (value !== null) json += KEYS[i]! + JSON.stringify(value);
  }
  return json;
}

/** The same fields as object entries, for the payload object (presentResolution). */
export function payloadExtensions(resolution: Resolved): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const extension of PAYLOAD_EXTENSIONS) {
    const value = extension.valueOf(resolution);
    if (value !== null) fields[extension.name] = value;
  }
  return fields;
}
