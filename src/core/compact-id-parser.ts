/**
 * The reference's default compact-identifier parser (`CompactIdParsingHelperV2`), step for step, plus two
 * improvements: an embedded namespace typed in another case (`go:0006915`) answers with the canonical LUI,
 * and a namespace may be named by one of its synonyms (`ncbitaxon:9606`) wherever the parser looks for a
 * namespace after a separator or alone. A synonym reads exactly as its namespace's prefix typed in its
 * place: the parse names the canonical prefix, and `synonym` keeps what the request wrote. Synonyms are
 * looked up only after the prefix lookup failed, so a request written with a real prefix pays nothing.
 * The leading provider code of `code/prefix:lui` is not read as a synonym: the reference reads any
 * non-prefix there as a provider code, and so does this parser.
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
  /** The synonym the request named the namespace by, as written; null when it used the prefix (or none). */
  synonym: string | null;
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
    synonym: null,
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
    } else {
      const named = findBySynonym(snapshot, raw);
      if (named !== undefined) {
        outcome.parsed.namespace = named.prefix;
        outcome.namespace = named;
        outcome.synonym = raw;
      }
    }
  } else if (slash === -1) {
    takeIfValid(outcome, snapshot, raw, colon);
  } else if (colon === -1) {
    parseSlashOnly(outcome, snapshot, raw, slash);
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
    findValid(outcome, snapshot, rest);
    // A provider code is only believed once the rest named a namespace.
    if (outcome.parsed.namespace !== null) outcome.parsed.providerCode = provider;
  }
  return outcome;
}

type PrefixIndex = RegistrySnapshot['namespacesByPrefix'];

function findByPrefix(byPrefix: PrefixIndex, candidate: string): NamespaceEntry | undefined {
  return byPrefix.get(candidate.toLowerCase());
}

/** The namespace `candidate` is a synonym of; asked only once the prefix lookup failed. */
function findBySynonym(snapshot: RegistrySnapshot, candidate: string): NamespaceEntry | undefined {
  const bySynonym = snapshot.namespacesBySynonym;
  return bySynonym.size === 0 ? undefined : bySynonym.get(candidate.toLowerCase());
}

function parseSlashOnly(outcome: ParseOutcome, snapshot: RegistrySnapshot, raw: string, slash: number): void {
  if (takeIfValid(outcome, snapshot, raw, slash)) return;
  const secondSlash = raw.indexOf('/', slash + 1);
  if (secondSlash === -1) return;
  const src = raw.slice(slash + 1);
  const separator = secondSlash - slash - 1;
  const second = findByPrefix(snapshot.namespacesByPrefix, src.slice(0, separator));
  if (second !== undefined) {
    // Provider code kept as typed: it is compared case-sensitively with the resources' codes later.
    outcome.parsed.providerCode = raw.slice(0, slash);
    take(outcome, second, src, separator);
    return;
  }
  const named = findBySynonym(snapshot, src.slice(0, separator));
  if (named !== undefined) {
    outcome.parsed.providerCode = raw.slice(0, slash);
    takeSynonym(outcome, named, src, separator);
  }
}

/** The namespace before the colon, else the one before the slash. */
function findValid(outcome: ParseOutcome, snapshot: RegistrySnapshot, rest: string): void {
  const colon = rest.indexOf(':');
  if (colon !== -1 && takeIfValid(outcome, snapshot, rest, colon)) return;
  const slash = rest.indexOf('/');
  if (slash !== -1) takeIfValid(outcome, snapshot, rest, slash);
}

/** Takes the namespace `src` names (by prefix, else by synonym) before `separator`; false when it names none. */
function takeIfValid(outcome: ParseOutcome, snapshot: RegistrySnapshot, src: string, separator: number): boolean {
  const name = src.slice(0, separator);
  const entry = findByPrefix(snapshot.namespacesByPrefix, name);
  if (entry !== undefined) {
    take(outcome, entry, src, separator);
    return true;
  }
  const named = findBySynonym(snapshot, name);
  if (named === undefined) return false;
  takeSynonym(outcome, named, src, separator);
  return true;
}

/**
 * Takes a namespace named by a synonym as if its prefix had been typed in the synonym's place; an embedded
 * LUI (`gene_ontology:0006915`) is built on the prefix as the pattern spells it (`GO:0006915`).
 */
function takeSynonym(outcome: ParseOutcome, entry: NamespaceEntry, src: string, separator: number): void {
  outcome.synonym = src.slice(0, separator);
  if (!entry.namespaceEmbeddedInLui) return take(outcome, entry, src, separator);
  const spelling = embeddedSpelling(entry);
  take(outcome, entry, spelling + src.slice(separator), spelling.length);
}

// Per namespace entry, as canonicalPrefixes.
const embeddedSpellings = new WeakMap<NamespaceEntry, string>();

/**
 * How an embedded LUI spells the prefix: as the pattern requires it (deriveCanonicalPrefix), else as the
 * pattern writes it anywhere before a `:` (`EO` in `^(P)?EO\:\d{7}$`), else the prefix. A request written
 * with the prefix must spell it so itself; one written with a synonym cannot, so it gets this spelling.
 */
function embeddedSpelling(entry: NamespaceEntry): string {
  let spelling = embeddedSpellings.get(entry);
  if (spelling === undefined) {
    spelling = deriveCanonicalPrefix(entry.pattern, entry.prefix) ?? spellingInPattern(entry.pattern, entry.prefix) ?? entry.prefix;
    embeddedSpellings.set(entry, spelling);
  }
  return spelling;
}

function spellingInPattern(pattern: string, prefix: string): string | null {
  const lowerPattern = pattern.toLowerCase();
  const lowerPrefix = prefix.toLowerCase();
  for (let at = lowerPattern.indexOf(lowerPrefix); at !== -1; at = lowerPattern.indexOf(lowerPrefix, at + 1)) {
    const after = at + lowerPrefix.length;
    if (pattern.startsWith(':', after) || pattern.startsWith('\\:', after)) return pattern.slice(at, after);
  }
  return null;
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
