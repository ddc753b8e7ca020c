/**
 * The reference's default compact-identifier parser (`CompactIdParsingHelperV2`), step for step, plus one
 * improvement: an embedded namespace typed in another case (`go:0006915`) answers with the canonical LUI.
 */

import { deriveCanonicalPrefix } from './lui-prefix.js';
import { matchesLuiPattern } from './lui-pattern.js';
import type { NamespaceEntry, RegistrySnapshot } from './registry-snapshot.js';

/** Field order is the reference's `ParsedCompactIdentifier` JSON order; the object is serialised as is. */
export interface ParsedCompactId {
  providerCode: string | null;
  namespace: string | null;
  localId: string | null;
  rawRequest: string;
  namespaceEmbeddedInLui: boolean;
  deprecatedNamespace: boolean;
  renderDeprecatedLanding: boolean;
  namespaceDeprecationDate: string | null;
}

// Where it lived first; the bench's workload and the parser's tests still read it from here.
export { deriveCanonicalPrefix };

export interface ParseOutcome {
  parsed: ParsedCompactId;
  /** The namespace the parse found (also for a bare namespace), so resolution need not look it up again. */
  namespace: NamespaceEntry | null;
}

export function parseCompactId(raw: string, snapshot: RegistrySnapshot): ParsedCompactId {
  return parseCompactIdWithNamespace(raw, snapshot).parsed;
}

export function parseCompactIdWithNamespace(raw: string, snapshot: RegistrySnapshot): ParseOutcome {
  const outcome: ParseOutcome = {
    parsed: {
      providerCode: null,
      namespace: null,
      localId: null,
      rawRequest: raw,
      namespaceEmbeddedInLui: false,
      deprecatedNamespace: false,
      renderDeprecatedLanding: false,
      namespaceDeprecationDate: null,
    },
    namespace: null,
  };
  const byPrefix = snapshot.namespacesByPrefix;
  const colon = raw.indexOf(':');
  const slash = raw.indexOf('/');

  if (colon === -1 && slash === -1) {
    const entry = findByPrefix(byPrefix, raw);
    if (entry !== undefined) {
      // The reference echoes the bare namespace as typed and sets no other flag, not even deprecation.
      outcome.parsed.namespace = raw;
      outcome.namespace = entry;
    }
  } else if (slash === -1) {
    takeIfValid(outcome, byPrefix, raw, colon);
  } else if (colon === -1) {
    parseSlashOnly(outcome, byPrefix, raw, slash);
  } else {
    let provider: string | null = null;
    let rest = raw;
    if (slash < colon) {
      const head = raw.slice(0, slash);
      if (findByPrefix(byPrefix, head) === undefined) {
        provider = head;
        rest = raw.slice(slash + 1);
      } else if (equalsIgnoreCase(head, raw.slice(slash + 1, colon))) {
        // Legacy `prefix/PREFIX:lui` (e.g. `chebi/CHEBI:36927`): the leading copy of the prefix is dropped.
        rest = raw.slice(slash + 1);
      }
    }
    findValid(outcome, byPrefix, rest);
    // A provider code is only believed once the rest named a namespace.
    if (outcome.parsed.namespace !== null) outcome.parsed.providerCode = provider;
  }
  return outcome;
}

type PrefixIndex = RegistrySnapshot['namespacesByPrefix'];

function findByPrefix(byPrefix: PrefixIndex, candidate: string): NamespaceEntry | undefined {
  return byPrefix.get(candidate.toLowerCase());
}

function parseSlashOnly(outcome: ParseOutcome, byPrefix: PrefixIndex, raw: string, slash: number): void {
  if (takeIfValid(outcome, byPrefix, raw, slash)) return;
  const secondSlash = raw.indexOf('/', slash + 1);
  if (secondSlash === -1) return;
  const second = findByPrefix(byPrefix, raw.slice(slash + 1, secondSlash));
  if (second !== undefined) {
    // Provider code kept as typed: it is compared case-sensitively with the resources' codes later.
    outcome.parsed.providerCode = raw.slice(0, slash);
    take(outcome, second, raw.slice(slash + 1), secondSlash - slash - 1);
  }
}

/** The namespace before the colon, else the one before the slash. */
function findValid(outcome: ParseOutcome, byPrefix: PrefixIndex, rest: string): void {
  const colon = rest.indexOf(':');
  if (colon !== -1 && takeIfValid(outcome, byPrefix, rest, colon)) return;
  const slash = rest.indexOf('/');
  if (slash !== -1) takeIfValid(outcome, byPrefix, rest, slash);
}

/** Takes the namespace `src` names before `separator`; false when it names none. */
function takeIfValid(outcome: ParseOutcome, byPrefix: PrefixIndex, src: string, separator: number): boolean {
  const entry = findByPrefix(byPrefix, src.slice(0, separator));
  if (entry === undefined) return false;
  take(outcome, entry, src, separator);
  return true;
}

function take(outcome: ParseOutcome, entry: NamespaceEntry, src: string, separator: number): void {
  const parsed = outcome.parsed;
  outcome.namespace = entry;
  parsed.namespace = entry.prefix;
  parsed.namespaceEmbeddedInLui = entry.namespaceEmbeddedInLui;
  parsed.renderDeprecatedLanding = entry.renderDeprecatedLanding;
  parsed.localId = entry.namespaceEmbeddedInLui ? embeddedLocalId(entry, src, separator) : src.slice(separator + 1);
  if (entry.deprecated) {
    parsed.deprecatedNamespace = true;
    parsed.namespaceDeprecationDate = entry.deprecationDate;
  }
}

/**
 * An embedded LUI keeps its prefix as typed, and registry patterns spell that prefix in one case
 * (`^GO:\d{7}$`), so the reference rejects `go:0006915`. We re-case the prefix to the pattern's spelling, but
 * only when that turns a mismatch into a match, so every LUI the reference accepts comes out unchanged.
 */
function embeddedLocalId(entry: NamespaceEntry, src: string, separator: number): string {
  if (src.charCodeAt(separator) !== 0x3a /* ':' */) return src;
  const canonical = canonicalEmbeddedPrefix(entry, separator);
  if (canonical === null || src.startsWith(canonical)) return src;
  const recased = canonical + src.slice(separator);
  return !matchesLuiPattern(entry.pattern, src) && matchesLuiPattern(entry.pattern, recased) ? recased : src;
}

// Per namespace entry, so a new snapshot (new entries, possibly new patterns) derives its own.
const canonicalPrefixes = new WeakMap<NamespaceEntry, string | null>();

function canonicalEmbeddedPrefix(entry: NamespaceEntry, typedLength: number): string | null {
  let canonical = canonicalPrefixes.get(entry);
  if (canonical === undefined) {
    canonical = deriveCanonicalPrefix(entry.pattern, entry.prefix);
    canonicalPrefixes.set(entry, canonical);
  }
  return canonical !== null && canonical.length === typedLength ? canonical : null;
}

/** Java `String.equalsIgnoreCase` for the ASCII prefixes the registry uses. */
function equalsIgnoreCase(a: string, b: string): boolean {
  return a.length === b.length && a.toLowerCase() === b.toLowerCase();
}
