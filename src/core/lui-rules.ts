/**
 * Canonical LUIs: per-namespace rules, declared as data, that turn a LUI its namespace's pattern refuses into
 * the one form it accepts: `chebi:CHEBI:36927` → `CHEBI:36927`, `go:6915` → `GO:0006915`, `uniprot:p0dp23`
 * → `P0DP23`. The rules are stored with the namespace (namespaces.lui_rules) and held in the resolver's
 * snapshot; for a namespace without stored rules, and whenever its pattern changes, they are derived from the
 * pattern here (deriveLuiRules), so no rule is code written for one namespace.
 *
 * Resolution applies them only to a LUI that does not match its pattern, and keeps the result only when it
 * matches: every request that resolves as typed resolves exactly as before, and one whose canonical form is
 * not valid either (a trailing `/`, an unknown prefix, an empty LUI) keeps the reference's 400 and message.
 * Applying them is plain string work plus one more match with the namespace's own pattern engine
 * (lui-pattern.ts): no rule carries a regex of its own, so no rule can stall a request.
 */

import { deriveCanonicalPrefix } from './lui-prefix.js';
import { matchesLuiPattern, MAX_TESTED_LUI_LENGTH } from './lui-pattern.js';

/**
 * The rules of one namespace; a rule left out does not apply, so `{}` canonicalises nothing. The JSON shape
 * is what namespaces.lui_rules stores and what a curator PATCHes as `luiRules`.
 */
export interface LuiRules {
  /**
   * Drop a leading copy of the namespace's prefix, any case, and its `:` (`taxonomy:taxonomy:9606` gives the
   * LUI `9606`). Where the LUI itself starts with the prefix (`luiPrefix`), only a doubled one is dropped
   * (`chebi:CHEBI:36927`), so that a canonical LUI never loses its own.
   */
  stripPrefix?: boolean;
  /**
   * The spelling of the prefix the pattern requires at the start of the LUI, before its `:` (`CHEBI` for
   * `^CHEBI:\d+$`): a LUI starting with it in another case and a `:` is given this spelling. The slash form
   * (`CHEBI/36927`) is not rewritten: the reference answers it 400 and so does this resolver.
   */
  luiPrefix?: string;
  /** Fold the LUI's ASCII letters to this case: the pattern accepts letters of this case only. */
  fold?: 'upper' | 'lower';
  /**
   * Left-pad with zeros the digits that follow `head` (exactly as spelt) to `width` digits: the pattern is
   * `head` then exactly `width` digits (`^GO:\d{7}$`: `GO:6915` → `GO:0006915`).
   */
  zeroPad?: { head: string; width: number };
}

/** Longest head and widest padding a rule may declare (curators' rules are checked against these). */
export const MAX_ZERO_PAD_HEAD = 64;
export const MAX_ZERO_PAD_WIDTH = 64;

/** What canonicalisation needs of a namespace. */
export interface CanonicalisedNamespace {
  prefix: string;
  pattern: string;
  /** Null or absent: no rule applies. */
  luiRules?: LuiRules | null;
}

/**
 * The canonical form of a LUI its namespace's pattern refuses: the rules applied, when that gives a different
 * LUI the pattern accepts; null otherwise (then the request fails as the reference fails it). Callers ask
 * only after the LUI as typed failed its pattern, so a valid request never comes here.
 */
export function canonicalLocalId(namespace: CanonicalisedNamespace, localId: string): string | null {
  const rules = namespace.luiRules;
  if (!rules) return null;
  const canonical = applyLuiRules(rules, namespace.prefix, localId);
  if (canonical === localId || canonical.length > MAX_TESTED_LUI_LENGTH) return null;
  return matchesLuiPattern(namespace.pattern, canonical) ? canonical : null;
}

/**
 * The rules applied to a LUI, in order (prefix copy, prefix spelling, case, padding), without asking the
 * pattern. On a canonical LUI every rule is the identity, which the real-registry tests check on every
 * namespace's sample id.
 */
export function applyLuiRules(rules: LuiRules, prefix: string, localId: string): string {
  let lui = localId;
  const { luiPrefix } = rules;
  if (rules.stripPrefix) lui = stripRedundantPrefix(lui, prefix, luiPrefix);
  if (luiPrefix !== undefined) lui = respellLuiPrefix(lui, luiPrefix);
  if (rules.fold === 'upper') lui = asciiUpperCase(lui);
  else if (rules.fold === 'lower') lui = asciiLowerCase(lui);
  if (rules.zeroPad) lui = padDigits(lui, rules.zeroPad.head, rules.zeroPad.width);
  return lui;
}

function startsWithIgnoringCase(text: string, start: string, at = 0): boolean {
  return text.length >= at + start.length && text.slice(at, at + start.length).toLowerCase() === start.toLowerCase();
}

function stripRedundantPrefix(lui: string, prefix: string, luiPrefix: string | undefined): string {
  if (!startsWithIgnoringCase(lui, prefix) || lui.charCodeAt(prefix.length) !== 0x3a /* ':' */) return lui;
  const rest = lui.slice(prefix.length + 1);
  if (luiPrefix === undefined) return rest;
  return startsWithIgnoringCase(rest, luiPrefix) && rest.charCodeAt(luiPrefix.length) === 0x3a ? rest : lui;
}

function respellLuiPrefix(lui: string, luiPrefix: string): string {
  if (!startsWithIgnoringCase(lui, luiPrefix) || lui.charCodeAt(luiPrefix.length) !== 0x3a /* ':' */) return lui;
  return luiPrefix + lui.slice(luiPrefix.length);
}

// Only ASCII letters: a fold that changed a LUI's length (`ß` → `SS`) or touched other scripts would not be
// the case variant the rule is about.
function asciiUpperCase(text: string): string {
  return text.replace(/[a-z]+/g, (letters) => letters.toUpperCase());
}

function asciiLowerCase(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

function padDigits(lui: string, head: string, width: number): string {
  if (!lui.startsWith(head)) return lui;
  const digits = lui.length - head.length;
  if (digits < 1 || digits >= width) return lui;
  for (let i = head.length; i < lui.length; i++) {
    const code = lui.charCodeAt(i);
    if (code < 0x30 || code > 0x39) return lui;
  }
  return head + '0'.repeat(width - digits) + lui.slice(head.length);
}

/** What a namespace's rules are derived from. */
export interface RuleSource {
  prefix: string;
  pattern: string;
}

/**
 * The rules a namespace's pattern calls for: the prefix copy is dropped unless the pattern itself spells the
 * prefix (other than at its start); the prefix spelling when the
 * pattern starts with the prefix and a `:`; the case when the pattern accepts letters of one case only; the
 * padding when the pattern is a fixed head and a fixed number of digits. Each is derived conservatively: a
 * construct the reading below does not know (a class escape, a flag, a negated class) turns the rule off.
 */
export function deriveLuiRules({ prefix, pattern }: RuleSource): LuiRules {
  const rules: LuiRules = {};
  const luiPrefix = deriveCanonicalPrefix(pattern, prefix);
  if (luiPrefix !== null) rules.luiPrefix = luiPrefix;
  // A pattern that spells its prefix and a `:` elsewhere may take them as part of a LUI (vgnc's
  // `^((VGNC|vgnc):)?\d+$`), which dropping them would alter; a leading luiPrefix is kept by the rule itself.
  if (luiPrefix !== null || !spellsPrefixAndColon(pattern, prefix)) rules.stripPrefix = true;
  const letters = lettersAccepted(pattern);
  if (letters === 'upper' || letters === 'lower') rules.fold = letters;
  const zeroPad = fixedWidthDigits(pattern);
  if (zeroPad !== null) rules.zeroPad = zeroPad;
  return rules;
}

/** Whether the pattern has the prefix (any case) followed by a `:`, past any `)`, `\` or `(`. */
function spellsPrefixAndColon(pattern: string, prefix: string): boolean {
  const lowerPattern = pattern.toLowerCase();
  const lowerPrefix = prefix.toLowerCase();
  for (let at = lowerPattern.indexOf(lowerPrefix); at !== -1; at = lowerPattern.indexOf(lowerPrefix, at + 1)) {
    let next = at + lowerPrefix.length;
    while (next < pattern.length && '()\\'.includes(pattern[next]!)) next++;
    if (pattern[next] === ':') return true;
  }
  return false;
}

type LetterCases = 'none' | 'upper' | 'lower' | 'both';

function addCase(seen: LetterCases, added: LetterCases): LetterCases {
  if (seen === added || added === 'none') return seen;
  return seen === 'none' ? added : 'both';
}

function caseOf(ch: string): LetterCases {
  if (ch >= 'A' && ch <= 'Z') return 'upper';
  if (ch >= 'a' && ch <= 'z') return 'lower';
  // Letters beyond ASCII are never folded; whether the pattern takes them does not matter here.
  return 'none';
}

/** Escapes that stand for no letter: digits, spaces, controls, boundaries. */
const LETTERLESS_ESCAPES = new Set(['d', 's', 'b', 'B', 'f', 'n', 'r', 't', 'v', '0']);

/** The letter cases an escape (`\x` at `at`) stands for, and where it ends. */
function escapeCases(pattern: string, at: number): { cases: LetterCases; next: number } {
  const c = pattern[at + 1];
  if (c === undefined) return { cases: 'both', next: at + 1 };
  if (LETTERLESS_ESCAPES.has(c)) return { cases: 'none', next: at + 2 };
  // Punctuation escaped for itself (`\:`, `\.`, `\-`).
  if (!/[A-Za-z0-9]/.test(c)) return { cases: 'none', next: at + 2 };
  // `\w`, `\D`, `\S`, `\W`, `\p{..}`, `\x41`, `\u0041`, back references...: take them as any letter.
  return { cases: 'both', next: at + 2 };
}

/**
 * Which ASCII letter cases `pattern` can accept anywhere: a walk over its literals and classes. It errs
 * towards `both` (no fold): `.`, negated classes, `(?i)`-style flags and letter-class escapes count as both.
 */
export function lettersAccepted(pattern: string): LetterCases {
  let seen: LetterCases = 'none';
  let i = 0;
  while (i < pattern.length && seen !== 'both') {
    const ch = pattern[i]!;
    if (ch === '\\') {
      const escape = escapeCases(pattern, i);
      seen = addCase(seen, escape.cases);
      i = escape.next;
    } else if (ch === '[') {
      const klass = classCases(pattern, i);
      seen = addCase(seen, klass.cases);
      i = klass.next;
    } else if (ch === '(' && pattern[i + 1] === '?') {
      const group = /^\(\?(?::|=|!|<=|<!|<[A-Za-z][A-Za-z0-9]*>)/.exec(pattern.slice(i, i + 40));
      // Flags (`(?i)`, `(?i:`) or a syntax not known here: no fold.
      if (!group) return 'both';
      i += group[0].length;
    } else if (ch === '.') {
      return 'both';
    } else {
      seen = addCase(seen, caseOf(ch));
      i++;
    }
  }
  return seen;
}

/** The letter cases of the class starting at `at` (a `[`), and where it ends. */
function classCases(pattern: string, at: number): { cases: LetterCases; next: number } {
  let i = at + 1;
  if (pattern[i] === '^') return { cases: 'both', next: skipClass(pattern, i) };
  let cases: LetterCases = 'none';
  // A `]` right after `[` is a literal in Java; in JavaScript `[]` is an empty class. Either way no letter.
  if (pattern[i] === ']') i++;
  while (i < pattern.length && pattern[i] !== ']') {
    if (pattern[i] === '[') return { cases: 'both', next: skipClass(pattern, i) };
    const first = classAtom(pattern, i);
    i = first.next;
    if (pattern[i] === '-' && pattern[i + 1] !== undefined && pattern[i + 1] !== ']') {
      const last = classAtom(pattern, i + 1);
      i = last.next;
      cases = addCase(cases, rangeCases(first.char, last.char));
    } else {
      cases = addCase(cases, first.char === null ? first.cases : caseOf(first.char));
    }
  }
  return { cases, next: i + 1 };
}

function classAtom(pattern: string, at: number): { char: string | null; cases: LetterCases; next: number } {
  if (pattern[at] !== '\\') return { char: pattern[at]!, cases: caseOf(pattern[at]!), next: at + 1 };
  const c = pattern[at + 1];
  if (c !== undefined && !/[A-Za-z0-9]/.test(c)) return { char: c, cases: 'none', next: at + 2 };
  const escape = escapeCases(pattern, at);
  return { char: null, cases: escape.cases, next: escape.next };
}

/** The letter cases of a range `first-last`; one with an escape class at an end counts as both. */
function rangeCases(first: string | null, last: string | null): LetterCases {
  if (first === null || last === null) return 'both';
  const lo = first.charCodeAt(0);
  const hi = last.charCodeAt(0);
  let cases: LetterCases = 'none';
  if (lo <= 0x5a && hi >= 0x41) cases = addCase(cases, 'upper');
  if (lo <= 0x7a && hi >= 0x61) cases = addCase(cases, 'lower');
  return cases;
}

/** Where the class (or nested class) containing `at` ends, past its `]`. */
function skipClass(pattern: string, at: number): number {
  let depth = 1;
  let i = at + 1;
  while (i < pattern.length && depth > 0) {
    const ch = pattern[i];
    if (ch === '\\') i += 2;
    else {
      if (ch === '[') depth++;
      else if (ch === ']') depth--;
      i++;
    }
  }
  return i;
}

const DIGITS_RUN = /^(?:\\d|\[0-9\])\{([1-9][0-9]?)\}$/;

/**
 * `{head, width}` when the pattern is, whole, an optional `^`, literal characters, then exactly `width`
 * digits (`\d{7}` or `[0-9]{7}`) and an optional `$`, possibly inside one group; null otherwise. A head
 * ending in a digit is refused: where its digits end and the padded ones start would be a guess.
 */
export function fixedWidthDigits(pattern: string): { head: string; width: number } | null {
  let body = pattern;
  if (body.startsWith('^')) body = body.slice(1);
  if (body.endsWith('$') && !body.endsWith('\\$')) body = body.slice(0, -1);
  if (body.startsWith('(?:') && body.endsWith(')')) body = body.slice(3, -1);
  else if (body.startsWith('(') && body.endsWith(')') && body[1] !== '?') body = body.slice(1, -1);
  let head = '';
  let i = 0;
  for (;;) {
    const run = DIGITS_RUN.exec(body.slice(i));
    if (run) {
      const width = Number(run[1]);
      if (width < 2 || /[0-9]$/.test(head) || head.length > MAX_ZERO_PAD_HEAD) return null;
      return { head, width };
    }
    const ch = body[i];
    if (ch === undefined) return null;
    let literal: string;
    if (ch === '\\') {
      const escaped = body[i + 1];
      if (escaped === undefined || /[A-Za-z0-9]/.test(escaped)) return null;
      literal = escaped;
      i += 2;
    } else if ('^$.|?*+()[]{}'.includes(ch)) {
      return null;
    } else {
      literal = ch;
      i += 1;
    }
    // A quantified literal is optional or repeated: no fixed head.
    const next = body[i];
    if (next === '?' || next === '*' || next === '+' || next === '{') return null;
    head += literal;
  }
}

/**
 * A curator's rules (the PATCH's `luiRules`) checked for shape: the rules as stored, or a message saying
 * what is wrong. Only the fields above are kept.
 */
export function readLuiRules(value: unknown): { rules: LuiRules } | { error: string } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { error: "'luiRules' must be an object of rules, or null" };
  const given = value as Record<string, unknown>;
  const known = new Set(['stripPrefix', 'luiPrefix', 'fold', 'zeroPad']);
  for (const key of Object.keys(given)) if (!known.has(key)) return { error: `'luiRules.${key}' is not a rule (stripPrefix, luiPrefix, fold, zeroPad)` };
  const rules: LuiRules = {};
  const { stripPrefix, luiPrefix, fold, zeroPad } = given;
  if (stripPrefix !== undefined) {
    if (typeof stripPrefix !== 'boolean') return { error: "'luiRules.stripPrefix' must be true or false" };
    if (stripPrefix) rules.stripPrefix = true;
  }
  if (luiPrefix !== undefined) {
    if (typeof luiPrefix !== 'string' || !/^[A-Za-z0-9._-]{1,64}$/.test(luiPrefix)) {
      return { error: "'luiRules.luiPrefix' must be the prefix as the LUI spells it (letters, digits, '.', '_', '-')" };
    }
    rules.luiPrefix = luiPrefix;
  }
  if (fold !== undefined) {
    if (fold !== 'upper' && fold !== 'lower') return { error: "'luiRules.fold' must be \"upper\" or \"lower\"" };
    rules.fold = fold;
  }
  if (zeroPad !== undefined) {
    const pad = zeroPad as { head?: unknown; width?: unknown } | null;
    const head = pad?.head ?? '';
    const width = pad?.width;
    if (
      pad === null || typeof pad !== 'object' || typeof head !== 'string' || head.length > MAX_ZERO_PAD_HEAD ||
      typeof width !== 'number' || !Number.isInteger(width) || width < 2 || width > MAX_ZERO_PAD_WIDTH ||
      Object.keys(pad).some((key) => key !== 'head' && key !== 'width')
    ) {
      return { error: `'luiRules.zeroPad' must be {"head": "<text before the digits>", "width": <2 to ${MAX_ZERO_PAD_WIDTH}>}` };
    }
    rules.zeroPad = { head, width };
  }
  return { rules };
}

/**
 * The rules a snapshot entry holds: the stored ones, else those its pattern calls for; null when none would
 * change anything, so that resolution skips the namespace at once.
 */
export function snapshotLuiRules(stored: LuiRules | null | undefined, source: RuleSource): LuiRules | null {
  const rules = stored ?? deriveLuiRules(source);
  const applies = rules.stripPrefix === true || rules.luiPrefix !== undefined || rules.fold !== undefined || rules.zeroPad !== undefined;
  return applies ? rules : null;
}

/** The canonical compact identifier of a LUI: the LUI itself where it carries the prefix, else `prefix:lui`. */
export function canonicalCompactId(prefix: string, localId: string, namespaceEmbeddedInLui: boolean): string {
  return namespaceEmbeddedInLui ? localId : `${prefix}:${localId}`;
}
