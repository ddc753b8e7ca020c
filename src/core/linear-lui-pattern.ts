/**
 * LUI patterns matched by a linear-time engine (re2js, a pure-JavaScript port of RE2) with exactly the
 * meaning V8 gives them, so that a pattern switching engines (lui-pattern.ts) matches the same LUIs.
 *
 * The resolver compiles registry patterns as JavaScript regexes without flags (Annex B syntax), and RE2
 * reads the same text differently in many places: `.` and `\s` cover other characters, `\u0041`, `\cA`,
 * `\_`-style identity escapes and legacy octal escapes are errors or mean something else, `{` and `]` need
 * escaping, and RE2 counts code points where JS without the `u` flag counts UTF-16 units. So the pattern is
 * rewritten, atom by atom, into RE2 syntax that spells out each character (`\x{HHHH}`) and each class; the
 * structure (groups, alternation, quantifiers, anchors) carries over unchanged.
 *
 * UTF-16 units: every surrogate unit, in the pattern and in the input, is moved to a private-use code point
 * (SURROGATE_SHIFT above it), so RE2 sees one code point per UTF-16 unit, as V8 does.
 *
 * Refused (the caller keeps the backtracking engine or matches nothing): lookarounds and back references,
 * which no linear-time engine supports; counted repetitions RE2 cannot hold (above 1,000, or nested ones
 * whose product is too large); inline modifier groups `(?i:...)` of newer V8 versions.
 */
import { RE2JS } from 're2js';
import { PatternTranslator } from './pattern-translator.js';

export type LinearTranslation = { source: string } | { error: string };

class Refusal extends Error {}

const SURROGATE_FIRST = 0xd800;
const SURROGATE_LAST = 0xdfff;
/** Surrogate unit U is read by RE2 as the code point U + SURROGATE_SHIFT (plane 15, private use). */
const SURROGATE_SHIFT = 0xf0000 - SURROGATE_FIRST;
const MAX_CODE_POINT = 0x10ffff;
/** RE2's largest repetition count. */
const MAX_REPEAT = 1000;

type Range = readonly [number, number];

// What V8's \s matches (WhiteSpace and LineTerminator of ECMA-262); a unit test compares it with V8 on
// every UTF-16 unit.
export const JS_SPACE: readonly Range[] = [
  [0x09, 0x0d], [0x20, 0x20], [0xa0, 0xa0], [0x1680, 0x1680], [0x2000, 0x200a], [0x2028, 0x2029],
  [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff],
];
// What `.` does not match without the s flag: the four LineTerminators.
const JS_LINE_TERMINATORS: readonly Range[] = [[0x0a, 0x0a], [0x0d, 0x0d], [0x2028, 0x2029]];

function codePoint(code: number): string {
  return `\\x{${code.toString(16).toUpperCase()}}`;
}

/** A range of UTF-16 units as RE2 class items, the surrogate part moved where the input's surrogates go. */
function rangeItems(lo: number, hi: number): string {
  const item = (a: number, b: number) => (a === b ? codePoint(a) : `${codePoint(a)}-${codePoint(b)}`);
  let out = '';
  if (lo < SURROGATE_FIRST) out += item(lo, Math.min(hi, SURROGATE_FIRST - 1));
  if (lo <= SURROGATE_LAST && hi >= SURROGATE_FIRST) {
    out += item(Math.max(lo, SURROGATE_FIRST) + SURROGATE_SHIFT, Math.min(hi, SURROGATE_LAST) + SURROGATE_SHIFT);
  }
  if (hi > SURROGATE_LAST) out += item(Math.max(lo, SURROGATE_LAST + 1), hi);
  return out;
}

function rangesItems(ranges: readonly Range[]): string {
  return ranges.map(([lo, hi]) => rangeItems(lo, hi)).join('');
}

/** Code points outside `ranges`, over all of Unicode (only used for ranges below the surrogates). */
function complementItems(ranges: readonly Range[]): string {
  let out = '';
  let next = 0;
  for (const [lo, hi] of ranges) {
    if (lo > next) out += `${codePoint(next)}-${codePoint(lo - 1)}`;
    next = hi + 1;
  }
  return out + `${codePoint(next)}-${codePoint(MAX_CODE_POINT)}`;
}

const SPACE_ITEMS = rangesItems(JS_SPACE);
const NOT_SPACE_ITEMS = complementItems(JS_SPACE);
const DOT = `[^${rangesItems(JS_LINE_TERMINATORS)}]`;

/** One unit outside a class. */
function unitAtom(code: number): string {
  if ((code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) {
    return String.fromCharCode(code);
  }
  return rangeItems(code, code);
}

/** What an escape or a class atom stands for. */
type Atom = { kind: 'unit'; code: number } | { kind: 'class'; items: string; perl?: string };

const CLASS_ESCAPES: Record<string, Atom> = {
  d: { kind: 'class', items: '\\d', perl: '\\d' },
  D: { kind: 'class', items: '\\D', perl: '\\D' },
  w: { kind: 'class', items: '\\w', perl: '\\w' },
  W: { kind: 'class', items: '\\W', perl: '\\W' },
  s: { kind: 'class', items: SPACE_ITEMS },
  S: { kind: 'class', items: NOT_SPACE_ITEMS },
};

const CONTROL_ESCAPES: Record<string, number> = { f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09, v: 0x0b };

const isDigit = (ch: string | undefined) => ch !== undefined && ch >= '0' && ch <= '9';
const isOctal = (ch: string | undefined) => ch !== undefined && ch >= '0' && ch <= '7';
const isAsciiLetter = (ch: string | undefined) => ch !== undefined && /^[A-Za-z]$/.test(ch);

class Translator extends PatternTranslator {
  private out = '';
  private readonly groups: number;
  private readonly hasNamedGroups: boolean;
  protected readonly dotSource = DOT;
  protected readonly dollarSource = '$';

  constructor(p: string) {
    super(p);
    const counted = countGroups(p);
    this.groups = counted.groups;
    this.hasNamedGroups = counted.named;
  }

  translate(): string {
    this.walk();
    return this.out;
  }

  protected emit(source: string): void {
    this.out += source;
  }

  protected literal(ch: string): void {
    this.out += unitAtom(ch.charCodeAt(0));
  }

  /** After a quantifier: `?` makes it lazy. */
  protected quantifierSuffix(): void {
    if (this.p[this.i] === '?') {
      this.out += '?';
      this.i++;
    }
  }

  /** `{n}`, `{n,}`, `{n,m}` quantify; any other `{` is a literal in Annex B. */
  protected brace(): void {
    const match = /^\{(\d+)(,(\d*))?\}/.exec(this.p.slice(this.i, this.i + 40));
    if (!match) {
      this.out += codePoint(0x7b);
      this.i++;
      return;
    }
    const counts = [match[1], match[3]].filter((n): n is string => n !== undefined && n !== '').map(Number);
    if (counts.some((n) => n > MAX_REPEAT)) throw new Refusal(`a repetition count above ${MAX_REPEAT}`);
    this.out += match[0];
    this.i += match[0].length;
    this.quantifierSuffix();
  }

  protected openGroup(): void {
    const p = this.p;
    if (p[this.i + 1] !== '?') {
      this.out += '(?:';
      this.i++;
      return;
    }
    const next = p[this.i + 2];
    if (next === ':') {
      this.out += '(?:';
      this.i += 3;
      return;
    }
    if (next === '=' || next === '!' || (next === '<' && (p[this.i + 3] === '=' || p[this.i + 3] === '!'))) {
      throw new Refusal('a lookahead or lookbehind');
    }
    const named = next === '<' ? /^\(\?<[^>]*>/.exec(p.slice(this.i)) : null;
    if (!named) throw new Refusal(`the group syntax '${p.slice(this.i, this.i + 4)}'`);
    // Captures play no part in a yes/no match; named groups only matter to \k, refused below.
    this.out += '(?:';
    this.i += named[0].length;
  }

  protected escapeOutsideClass(): void {
    const p = this.p;
    const c = p[this.i + 1];
    if (c === 'b' || c === 'B') {
      // Both engines' \b is about ASCII word characters.
      this.out += '\\' + c;
      this.i += 2;
      return;
    }
    if (c !== undefined && c >= '1' && c <= '9') {
      const digits = /^\d+/.exec(p.slice(this.i + 1))![0];
      if (Number(digits) <= this.groups) throw new Refusal('a back reference');
    }
    if (c === 'k' && this.hasNamedGroups) throw new Refusal('a back reference');
    const atom = this.escape(false);
    if (atom.kind === 'unit') this.out += unitAtom(atom.code);
    else this.out += atom.perl ?? `[${atom.items}]`;
  }

  /** At a backslash (not \b, \B or a back reference outside a class); consumes the escape. */
  private escape(inClass: boolean): Atom {
    const p = this.p;
    const c = p[this.i + 1];
    if (c === undefined) throw new Refusal('a pattern ending in a backslash');
    const classEscape = CLASS_ESCAPES[c];
    if (classEscape) {
      this.i += 2;
      return classEscape;
    }
    const control = CONTROL_ESCAPES[c];
    if (control !== undefined) {
      this.i += 2;
      return { kind: 'unit', code: control };
    }
    if (c === 'b' && inClass) {
      this.i += 2;
      return { kind: 'unit', code: 0x08 };
    }
    if (c === 'c') {
      const letter = p[this.i + 2];
      if (isAsciiLetter(letter) || (inClass && (isDigit(letter) || letter === '_'))) {
        this.i += 3;
        return { kind: 'unit', code: (letter as string).charCodeAt(0) % 32 };
      }
      // Annex B: a backslash before a `c` that starts no control escape is itself; the `c` comes next.
      this.i += 1;
      return { kind: 'unit', code: 0x5c };
    }
    if (c === 'x' || c === 'u') {
      const length = c === 'x' ? 2 : 4;
      const hex = p.slice(this.i + 2, this.i + 2 + length);
      if (hex.length === length && /^[0-9A-Fa-f]+$/.test(hex)) {
        this.i += 2 + length;
        return { kind: 'unit', code: parseInt(hex, 16) };
      }
      this.i += 2;
      return { kind: 'unit', code: c.charCodeAt(0) };
    }
    if (isOctal(c)) {
      // Legacy octal escapes (\0 alone is NUL): up to three digits while the value stays below 0o400.
      let digits = c;
      const most = c <= '3' ? 3 : 2;
      while (digits.length < most && isOctal(p[this.i + 1 + digits.length])) digits += p[this.i + 1 + digits.length];
      this.i += 1 + digits.length;
      return { kind: 'unit', code: parseInt(digits, 8) };
    }
    // Identity escape (\8 and \9 included): the unit itself.
    this.i += 2;
    return { kind: 'unit', code: p.charCodeAt(this.i - 1) };
  }

  private classAtom(): Atom {
    if (this.p[this.i] === '\\') return this.escape(true);
    const code = this.p.charCodeAt(this.i);
    this.i++;
    return { kind: 'unit', code };
  }

  protected characterClass(): void {
    const p = this.p;
    this.i++;
    let negated = false;
    if (p[this.i] === '^') {
      negated = true;
      this.i++;
    }
    let items = '';
    for (;;) {
      const ch = p[this.i];
      if (ch === undefined) throw new Refusal('an unclosed character class');
      if (ch === ']') {
        this.i++;
        break;
      }
      const first = this.classAtom();
      if (p[this.i] === '-' && p[this.i + 1] !== undefined && p[this.i + 1] !== ']') {
        this.i++;
        const last = this.classAtom();
        if (first.kind === 'unit' && last.kind === 'unit') {
          items += rangeItems(first.code, last.code);
        } else {
          // Annex B: a "range" with a class at either end is the union of both ends and '-'.
          items += classItems(first) + codePoint(0x2d) + classItems(last);
        }
      } else {
        items += classItems(first);
      }
    }
    // RE2 has no empty class: `[]` never matches, `[^]` matches any unit.
    if (items === '') this.out += `[${negated ? '' : '^'}${codePoint(0)}-${codePoint(MAX_CODE_POINT)}]`;
    else this.out += `[${negated ? '^' : ''}${items}]`;
  }
}

function classItems(atom: Atom): string {
  return atom.kind === 'unit' ? rangeItems(atom.code, atom.code) : atom.items;
}

/** Capturing groups of the whole pattern (V8 reads \N as a back reference when N is at most this). */
function countGroups(p: string): { groups: number; named: boolean } {
  let groups = 0;
  let named = false;
  let inClass = false;
  for (let i = 0; i < p.length; i++) {
    const ch = p[i];
    if (ch === '\\') i++;
    else if (inClass) inClass = ch !== ']';
    else if (ch === '[') inClass = true;
    else if (ch === '(') {
      if (p[i + 1] !== '?') groups++;
      else if (p[i + 2] === '<' && p[i + 3] !== '=' && p[i + 3] !== '!') {
        groups++;
        named = true;
      }
    }
  }
  return { groups, named };
}

/**
 * RE2 syntax with the meaning `source` has as a JavaScript regex without flags, or why there is none.
 * `source` must compile as such (the caller compiles it natively first).
 */
export function translateToLinearSyntax(source: string): LinearTranslation {
  try {
    return { source: new Translator(source).translate() };
  } catch (error) {
    if (error instanceof Refusal) return { error: `it uses ${error.message}, which a linear-time engine cannot match` };
    throw error;
  }
}

export interface LinearMatcher {
  /** Whether the whole input matches (the source carries its own anchors). */
  test(input: string): boolean;
}

const SURROGATE = /[\uD800-\uDFFF]/;
const SURROGATES = /[\uD800-\uDFFF]/g;

function shiftSurrogates(input: string): string {
  return SURROGATE.test(input) ? input.replace(SURROGATES, (unit) => String.fromCodePoint(unit.charCodeAt(0) + SURROGATE_SHIFT)) : input;
}

/** A linear-time matcher for a flagless JavaScript regex source, or why it cannot have one. */
export function compileLinearMatcher(source: string): LinearMatcher | { error: string } {
  const translation = translateToLinearSyntax(source);
  if ('error' in translation) return translation;
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(translation.source);
  } catch (error) {
    // RE2's own limits, such as nested counted repetitions whose product is too large.
    return { error: `the linear-time engine refuses it (${error instanceof Error ? error.message : String(error)})` };
  }
  return { test: (input) => compiled.matches(shiftSurrogates(input)) };
}
