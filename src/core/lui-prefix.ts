/**
 * The spelling of a namespace's prefix that its LUI pattern requires at the start of a LUI: what the parser
 * re-cases an embedded prefix to (compact-id-parser.ts) and the canonical-LUI rules respell it to
 * (lui-rules.ts).
 */

import { matchesLuiPattern } from './lui-pattern.js';

const REGEX_SYNTAX = '\\^$.|?*+()[]{}';

/**
 * The spelling of `prefix` that `pattern` requires at its start, followed by a literal `:`: `^GO:\d{7}$` gives
 * `GO`, `^(ark\:)/*...` gives `ark`. Null when the pattern does not start with the prefix as plain literals
 * (`^(P)?EO\:...`), in which case nothing is re-cased.
 */
export function deriveCanonicalPrefix(pattern: string, prefix: string): string | null {
  let at = pattern.startsWith('^') ? 1 : 0;
  if (pattern.startsWith('(?:', at)) at += 3;
  else if (pattern[at] === '(' && pattern[at + 1] !== '?') at += 1;
  let spelled = '';
  while (spelled.length < prefix.length) {
    const literal = readLiteral(pattern, at);
    if (literal === null) return null;
    spelled += literal.char;
    at = literal.next;
  }
  const separator = readLiteral(pattern, at);
  if (separator === null || separator.char !== ':') return null;
  return spelled.toLowerCase() === prefix.toLowerCase() ? spelled : null;
}

function readLiteral(pattern: string, at: number): { char: string; next: number } | null {
  const char = pattern[at];
  if (char === undefined) return null;
  if (char === '\\') {
    const escaped = pattern[at + 1];
    // `\d`, `\w`, `\Q`... are classes or constructs, not literals; only escaped punctuation is literal.
    if (escaped === undefined || /[A-Za-z0-9]/.test(escaped)) return null;
    return quantified(pattern, at + 2) ? null : { char: escaped, next: at + 2 };
  }
  if (REGEX_SYNTAX.includes(char)) return null;
  return quantified(pattern, at + 1) ? null : { char, next: at + 1 };
}

/** A literal followed by a quantifier is optional or repeated, so it does not fix the spelling. */
function quantified(pattern: string, at: number): boolean {
  const next = pattern[at];
  return next === '?' || next === '*' || next === '+' || next === '{';
}


/** What of a namespace the written form of its identifiers depends on. */
export interface WrittenFormSource {
  prefix: string;
  pattern: string;
  sampleId: string | null;
  namespaceEmbeddedInLui: boolean;
}

/**
 * The spelling of the prefix an embedded namespace's LUIs start with (`GO` for `go`, whose LUIs are
 * `GO:0006915`): the one the pattern spells, else the first of upper and lower case that makes the sample id
 * a valid LUI (`^(P)?EO\:\d{7}$` spells no single one), else the prefix as registered.
 */
export function embeddedLuiPrefix(source: WrittenFormSource): string {
  const derived = deriveCanonicalPrefix(source.pattern, source.prefix);
  const { sampleId } = source;
  if (sampleId !== null) {
    for (const candidate of new Set([derived ?? source.prefix, source.prefix.toUpperCase(), source.prefix])) {
      if (matchesLuiPattern(source.pattern, `${candidate}:${sampleId}`)) return candidate;
    }
  }
  return derived ?? source.prefix;
}

/**
 * A compact identifier as its community writes it, which the resolver takes as it is: `taxonomy:9606`, and
 * for a namespace whose LUIs embed the prefix the LUI alone, `GO:0006915` (go's sample is stored as
 * `0006915`; `go:0006915` would not match the pattern `^GO:\d{7}$` a reader sees beside it). A local id
 * stored with its prefix already (`did:sov:…`'s is `sov:…`, but some are not) is not prefixed again.
 */
export function writtenCompactId(source: WrittenFormSource, localId: string): string {
  if (!source.namespaceEmbeddedInLui) return `${source.prefix}:${localId}`;
  const spelling = embeddedLuiPrefix(source);
  return localId.toLowerCase().startsWith(`${spelling.toLowerCase()}:`) ? localId : `${spelling}:${localId}`;
}
