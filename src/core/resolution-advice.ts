/**
 * What a person needs after a failed resolution (the resolver's failure page for browsers): the namespace
 * the request named with its sample and the shape of its identifiers, the request repaired where the
 * canonical-LUI rules or an obvious slip (a stray space or trailing `/`, `go/0006915` for `GO:0006915`, a
 * provider code in the wrong case) give one that resolves, and the prefixes close to an unknown one. The API
 * answers keep the reference's messages; only the page uses this.
 *
 * It runs only for a failed resolution a browser asked for, on the in-memory snapshot, and its work is
 * bounded whatever the request: one parse, one pass over the prefixes with edit distances of at most
 * MAX_ASKED_PREFIX_LENGTH characters, and at most CLOSE_PREFIX_LIMIT + 2 resolutions of mended requests
 * (each one namespace's resources, with LUIs capped by the pattern engine's MAX_TESTED_LUI_LENGTH).
 */
import { closestPrefixes } from './close-prefixes.js';
import { parseCompactIdWithNamespace } from './compact-id-parser.js';
import { embeddedLuiPrefix, writtenCompactId } from './lui-prefix.js';
import { matchesLuiPattern, MAX_TESTED_LUI_LENGTH } from './lui-pattern.js';
import { describeLuiPattern } from './lui-pattern-words.js';
import { canonicalCompactId, canonicalLocalId } from './lui-rules.js';
import type { NamespaceEntry, RegistrySnapshot } from './registry-snapshot.js';
import { resolveCompactId, type Resolution, type ResolveOptions, type UnresolvedReason } from './resolve.js';

/** Most provider codes listed for a request whose code no provider has. */
export const MAX_LISTED_PROVIDER_CODES = 20;

/** The namespace a failed request named, as the page shows it. */
export interface NamespaceHint {
  prefix: string;
  name: string;
  pattern: string;
  /** Its sample identifier as its community writes it (`taxonomy:9606`, `GO:0006915`); null without one. */
  sample: string | null;
  /** What its identifiers are, in plain words (lui-pattern-words.ts); null for a pattern not put in words. */
  shape: string | null;
}

export interface ClosePrefix {
  prefix: string;
  name: string;
  /** The request written with this prefix instead, when that resolves; null otherwise. */
  compactId: string | null;
}

export interface FailureAdvice {
  reason: UnresolvedReason;
  /** The namespace the request named; null when it named none (an unknown prefix). */
  namespace: NamespaceHint | null;
  /** The prefix the request wrote when it names no namespace (`''`: none before the separator); else null. */
  unknownPrefix: string | null;
  /** The local id as the resolver read it (null when the request named no namespace). */
  localId: string | null;
  providerCode: string | null;
  /** A compact identifier that resolves, mended from the request, written as its community does; or null. */
  repaired: string | null;
  /** For an unknown prefix: a compact identifier of the registry to show what one looks like (exampleCompactId). */
  example: string | null;
  /** For an unknown prefix: the close ones (close-prefixes.ts). */
  closePrefixes: ClosePrefix[];
  /** For a provider code no provider has: the codes its namespace's providers have, in dataset order. */
  providerCodes: string[];
}

/** The advice for a request that did not resolve for `reason`. */
export function adviseOnFailure(raw: string, reason: UnresolvedReason, snapshot: RegistrySnapshot, options: ResolveOptions): FailureAdvice {
  const { parsed, namespace } = parseCompactIdWithNamespace(raw, snapshot);
  const advice: FailureAdvice = {
    reason,
    namespace: namespace === null ? null : namespaceHint(namespace),
    unknownPrefix: null,
    localId: parsed.localId,
    providerCode: parsed.providerCode,
    repaired: null,
    example: null,
    closePrefixes: [],
    providerCodes: [],
  };
  const resolvesAs = (request: string) => writtenForm(resolveCompactId(request, snapshot, options));
  if (namespace === null) {
    const slot = prefixSlot(raw);
    advice.unknownPrefix = raw.slice(slot.start, slot.end);
    advice.example = exampleCompactId(snapshot);
    const bare = slot.start === 0 && slot.end === raw.length;
    advice.closePrefixes = closestPrefixes(advice.unknownPrefix, snapshot.namespacesByPrefix.keys()).map((key) => {
      const entry = snapshot.namespacesByPrefix.get(key)!;
      const compactId = bare ? null : resolvesAs(`${raw.slice(0, slot.start)}${entry.prefix}${raw.slice(slot.end)}`);
      return { prefix: entry.prefix, name: entry.name, compactId };
    });
    return advice;
  }
  const localId = parsed.localId;
  if (localId === null) return advice;
  const code = parsed.providerCode;
  if (reason === 'lui-mismatch') {
    for (const lui of mendedLocalIds(namespace, localId)) {
      const written = resolvesAs(withCode(code, canonicalCompactId(namespace.prefix, lui, namespace.namespaceEmbeddedInLui)));
      if (written !== null) {
        advice.repaired = written;
        break;
      }
    }
  } else if (reason === 'no-provider-with-code') {
    const codes = providerCodesOf(namespace);
    advice.providerCodes = codes.slice(0, MAX_LISTED_PROVIDER_CODES);
    const lui = validLocalId(namespace, localId);
    if (lui !== null) {
      const curie = canonicalCompactId(namespace.prefix, lui, namespace.namespaceEmbeddedInLui);
      const sameCodeInOtherCase = code === null ? undefined : codes.find((c) => c.toLowerCase() === code.toLowerCase());
      advice.repaired = (sameCodeInOtherCase !== undefined ? resolvesAs(withCode(sameCodeInOtherCase, curie)) : null) ?? resolvesAs(curie);
    }
  }
  return advice;
}

/** The namespace examples are taken from when the registry has it (else the first with a sample and a provider). */
const EXAMPLE_PREFIX = 'taxonomy';

/** A compact identifier of this registry, as its community writes it, to show what one looks like; null for an empty registry. */
export function exampleCompactId(snapshot: RegistrySnapshot): string | null {
  const preferred = snapshot.namespacesByPrefix.get(EXAMPLE_PREFIX);
  if (preferred?.sampleId) return writtenCompactId(preferred, preferred.sampleId);
  for (const namespace of snapshot.namespacesByPrefix.values()) {
    if (namespace.sampleId && !namespace.deprecated && namespace.resources.length > 0) return writtenCompactId(namespace, namespace.sampleId);
  }
  return null;
}

function namespaceHint(namespace: NamespaceEntry): NamespaceHint {
  const { prefix, name, pattern, sampleId } = namespace;
  return {
    prefix,
    name,
    pattern,
    sample: sampleId ? writtenCompactId(namespace, sampleId) : null,
    shape: describeLuiPattern(pattern),
  };
}

/**
 * Where the request wrote the prefix no namespace has: before its first `:` or `/`, or between them in the
 * `provider/prefix:lui` form (the parser reads an unknown first part there as a provider code).
 */
function prefixSlot(raw: string): { start: number; end: number } {
  const colon = raw.indexOf(':');
  const slash = raw.indexOf('/');
  if (colon === -1 && slash === -1) return { start: 0, end: raw.length };
  if (colon === -1) return { start: 0, end: slash };
  if (slash !== -1 && slash < colon) return { start: slash + 1, end: colon };
  return { start: 0, end: colon };
}

/** The request as its community writes it, with its provider code; null when it did not resolve to identifiers. */
function writtenForm(resolution: Resolution): string | null {
  if (resolution.kind !== 'resolved' || resolution.namespace === undefined) return null;
  const { providerCode, localId } = resolution.parsedCompactIdentifier;
  if (localId === null) return null;
  const entry = resolution.namespace;
  return withCode(providerCode, canonicalCompactId(entry.prefix, localId, entry.namespaceEmbeddedInLui));
}

function withCode(code: string | null, curie: string): string {
  return code === null ? curie : `${code}/${curie}`;
}

/** The LUI its pattern accepts, as typed or once canonical; null when neither. */
function validLocalId(namespace: NamespaceEntry, localId: string): string | null {
  return matchesLuiPattern(namespace.pattern, localId) ? localId : canonicalLocalId(namespace, localId);
}

/**
 * LUIs the request may have meant, each accepted by the pattern (as it is, or once canonical): without the
 * spaces and trailing punctuation a copy from a sentence brings, and for a namespace whose LUIs embed its
 * prefix, that prefix as the pattern spells it with a `:` (`go/0006915`, `Go:0006915` → `GO:0006915`).
 */
function mendedLocalIds(namespace: NamespaceEntry, localId: string): string[] {
  if (localId.length > MAX_TESTED_LUI_LENGTH) return [];
  const trimmed = withoutTrailingSlips(localId.trim());
  const tried = [trimmed];
  if (namespace.namespaceEmbeddedInLui) {
    const separator = /^([^:/]*)[:/]/.exec(trimmed);
    if (separator !== null && separator[1]!.toLowerCase() === namespace.prefix.toLowerCase()) {
      tried.push(`${embeddedLuiPrefix(namespace)}:${trimmed.slice(separator[0].length)}`);
    }
  }
  const mended: string[] = [];
  for (const lui of tried) {
    if (lui === localId || lui === '') continue;
    const valid = validLocalId(namespace, lui);
    if (valid !== null && !mended.includes(valid)) mended.push(valid);
  }
  return mended;
}

// A loop, not a regex: `[\s/.,;]+$` would rescan each run of these characters from every position in it.
function withoutTrailingSlips(lui: string): string {
  let end = lui.length;
  while (end > 0 && ' \t/.,;'.includes(lui[end - 1]!)) end--;
  return lui.slice(0, end);
}

function providerCodesOf(namespace: NamespaceEntry): string[] {
  const codes: string[] = [];
  for (const resource of namespace.resources) {
    if (resource.providerCode !== '' && !codes.includes(resource.providerCode)) codes.push(resource.providerCode);
  }
  return codes;
}
