/**
 * A namespace's LUI pattern in plain words, for people who do not read regular expressions (the resolver's
 * failure page): `^\d+$` is "numbers", `^\d{7}$` "7-digit numbers", `^C\d+$` "“C” followed by digits",
 * `^[A-Za-z0-9]+$` "made of letters and digits". Only simple shapes are put in words (at most three parts,
 * each a literal text or one class of characters with a count); anything else (alternations, groups,
 * negated classes, lists of single letters) gives null, and the page shows the sample alone. Wrong words
 * would mislead, so the reading refuses whatever it does not know.
 */

const MAX_PARTS = 3;

type Member = 'digit' | 'hex' | 'upper' | 'lower' | 'any' | string;

interface ClassPart {
  kind: 'class';
  members: Set<Member>;
  min: number;
  /** Infinity: no upper bound. */
  max: number;
}

interface LiteralPart {
  kind: 'literal';
  text: string;
}

type Part = ClassPart | LiteralPart;

/** Punctuation a class may hold, by the name it is written with. */
const PUNCTUATION_NAMES: Readonly<Record<string, [singular: string, plural: string]>> = {
  _: ['underscore', 'underscores'],
  '-': ['hyphen', 'hyphens'],
  '.': ['dot', 'dots'],
  ':': ['colon', 'colons'],
};

/** The pattern's shape in words (what its identifiers "are"), or null when it is not a simple one. */
export function describeLuiPattern(pattern: string): string | null {
  const parts = readParts(unwrap(pattern));
  if (parts === null || parts.length === 0 || parts.length > MAX_PARTS) return null;
  if (parts.length === 1) {
    const only = parts[0]!;
    if (only.kind === 'literal') return null;
    return describeAlone(only);
  }
  const words = parts.map(describePart);
  return words.some((w) => w === null) ? null : words.join(' followed by ');
}

/** The pattern without its anchors and one group around it all; alternations stay (and are refused). */
function unwrap(pattern: string): string {
  let body = pattern;
  if (body.startsWith('^')) body = body.slice(1);
  if (body.endsWith('$') && !body.endsWith('\\$')) body = body.slice(0, -1);
  if (body.startsWith('(?:') && body.endsWith(')') && closingOf(body, 0) === body.length - 1) body = body.slice(3, -1);
  else if (body.startsWith('(') && body[1] !== '?' && body.endsWith(')') && closingOf(body, 0) === body.length - 1) body = body.slice(1, -1);
  return body;
}

/** Where the group opened at `at` closes (-1 when it does not). */
function closingOf(body: string, at: number): number {
  let depth = 0;
  for (let i = at; i < body.length; i++) {
    const ch = body[i];
    if (ch === '\\') i++;
    else if (ch === '[') i = classEnd(body, i);
    else if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return i;
  }
  return -1;
}

function classEnd(body: string, at: number): number {
  for (let i = at + 1; i < body.length; i++) {
    if (body[i] === '\\') i++;
    else if (body[i] === ']') return i;
  }
  return body.length;
}

function readParts(body: string): Part[] | null {
  const parts: Part[] = [];
  let i = 0;
  while (i < body.length) {
    const atom = readAtom(body, i);
    if (atom === null) return null;
    const count = readCount(body, atom.next);
    if (count === null) return null;
    i = count.next;
    if (atom.literal !== null) {
      // An optional or repeated literal has no fixed text to quote.
      if (count.min !== 1 || count.max !== 1) return null;
      const last = parts[parts.length - 1];
      if (last?.kind === 'literal') last.text += atom.literal;
      else parts.push({ kind: 'literal', text: atom.literal });
    } else {
      parts.push({ kind: 'class', members: atom.members!, min: count.min, max: count.max });
    }
    if (parts.length > MAX_PARTS) return null;
  }
  return parts;
}

interface Atom {
  literal: string | null;
  members: Set<Member> | null;
  next: number;
}

const SYNTAX = '^$|?*+{}()[]';

function readAtom(body: string, at: number): Atom | null {
  const ch = body[at]!;
  if (ch === '\\') {
    const escaped = body[at + 1];
    if (escaped === undefined) return null;
    const members = escapeMembers(escaped);
    if (members !== undefined) return members === null ? null : { literal: null, members, next: at + 2 };
    return /[A-Za-z0-9]/.test(escaped) ? null : { literal: escaped, members: null, next: at + 2 };
  }
  if (ch === '[') {
    const end = classEnd(body, at);
    if (end >= body.length) return null;
    const members = classMembers(body.slice(at + 1, end));
    return members === null ? null : { literal: null, members, next: end + 1 };
  }
  if (ch === '.') return { literal: null, members: new Set(['any']), next: at + 1 };
  if (SYNTAX.includes(ch)) return null;
  return { literal: ch, members: null, next: at + 1 };
}

/** The members of a class escape; null for one not put in words; undefined when it is not a class. */
function escapeMembers(escaped: string): Set<Member> | null | undefined {
  if (escaped === 'd') return new Set(['digit']);
  if (escaped === 'w') return new Set(['upper', 'lower', 'digit', '_']);
  return /[A-Za-z]/.test(escaped) ? null : undefined;
}

/** What a class's text (between `[` and `]`) holds, or null when it is more than ranges and known punctuation. */
function classMembers(text: string): Set<Member> | null {
  if (text === '' || text.startsWith('^')) return null;
  const members = new Set<Member>();
  let i = 0;
  while (i < text.length) {
    let ch = text[i]!;
    if (ch === '\\') {
      const escaped = text[i + 1];
      if (escaped === undefined) return null;
      const escapeClass = escapeMembers(escaped);
      if (escapeClass === null) return null;
      if (escapeClass !== undefined) {
        for (const member of escapeClass) members.add(member);
        i += 2;
        continue;
      }
      ch = escaped;
      i += 2;
    } else {
      i += 1;
    }
    if (text[i] === '-' && i + 1 < text.length) {
      const range = rangeMember(ch, text[i + 1]!);
      if (range === null) return null;
      members.add(range);
      i += 2;
      continue;
    }
    if (!(ch in PUNCTUATION_NAMES)) return null;
    members.add(ch);
  }
  return members;
}

function rangeMember(first: string, last: string): Member | null {
  const range = `${first}-${last}`;
  // Not `1-9`: "digits" would let a reader write the leading 0 the pattern refuses.
  if (range === '0-9') return 'digit';
  if (range === 'A-Z') return 'upper';
  if (range === 'a-z') return 'lower';
  if (range === 'a-f' || range === 'A-F') return 'hex';
  return null;
}

interface Count {
  min: number;
  max: number;
  next: number;
}

function readCount(body: string, at: number): Count | null {
  const ch = body[at];
  let count: Count;
  if (ch === '+') count = { min: 1, max: Infinity, next: at + 1 };
  else if (ch === '*') count = { min: 0, max: Infinity, next: at + 1 };
  else if (ch === '?') count = { min: 0, max: 1, next: at + 1 };
  else if (ch === '{') {
    const braces = /^\{(\d{1,3})(,(\d{1,3})?)?\}/.exec(body.slice(at, at + 10));
    if (!braces) return null;
    const min = Number(braces[1]);
    const max = braces[2] === undefined ? min : braces[3] === undefined ? Infinity : Number(braces[3]);
    if (max < min) return null;
    count = { min, max, next: at + braces[0].length };
  } else return { min: 1, max: 1, next: at };
  // A lazy or possessive count matches the same whole strings, but is a sign of a pattern not meant simply.
  return body[count.next] === '?' || body[count.next] === '+' ? null : count;
}

/** The class's members in words: [singular, plural]. */
function nounsOf(members: Set<Member>): [string, string] | null {
  if (members.has('any')) return members.size === 1 ? ['character', 'characters'] : null;
  const letters = members.has('upper') && members.has('lower') ? 'letter' : members.has('upper') ? 'capital letter' : members.has('lower') ? 'lower-case letter' : null;
  const hex = members.has('hex');
  if (hex && (!members.has('digit') || letters !== null)) return null;
  const names: [string, string][] = [];
  if (letters !== null) names.push([letters, `${letters}s`]);
  if (members.has('digit')) names.push(hex ? ['hexadecimal digit', 'hexadecimal digits'] : ['digit', 'digits']);
  for (const [mark, words] of Object.entries(PUNCTUATION_NAMES)) if (members.has(mark)) names.push(words);
  if (names.length === 0) return null;
  return [listed(names.map((n) => n[0]), 'or'), listed(names.map((n) => n[1]), 'and')];
}

function listed(words: string[], conjunction: string): string {
  if (words.length === 1) return words[0]!;
  return `${words.slice(0, -1).join(', ')} ${conjunction} ${words[words.length - 1]}`;
}

/** A class with its count: "a digit", "digits", "7 digits", "2 to 4 letters", "any number of digits". */
function counted(part: ClassPart): string | null {
  const nouns = nounsOf(part.members);
  if (nouns === null) return null;
  const [singular, plural] = nouns;
  const { min, max } = part;
  if (min === 1 && max === 1) return `a ${singular}`;
  if (min === 1 && max === Infinity) return plural;
  if (min === 0 && max === Infinity) return `any number of ${plural}`;
  if (min === 0 && max === 1) return `an optional ${singular}`;
  if (min === max) return `${min} ${plural}`;
  if (max === Infinity) return `${min} or more ${plural}`;
  return `${min} to ${max} ${plural}`;
}

function describePart(part: Part): string | null {
  return part.kind === 'literal' ? `“${part.text}”` : counted(part);
}

/** A pattern of one class: "numbers", "7-digit numbers", else "made of …". */
function describeAlone(part: ClassPart): string | null {
  if (part.members.has('any')) return part.min === 1 && part.max === Infinity ? 'any text that is not empty' : null;
  const digitsOnly = part.members.size === 1 && part.members.has('digit');
  if (digitsOnly && part.min === 1 && part.max === Infinity) return 'numbers';
  if (digitsOnly && part.min === part.max && part.min > 1) return `${part.min}-digit numbers`;
  const words = counted(part);
  return words === null ? null : `made of ${words}`;
}
