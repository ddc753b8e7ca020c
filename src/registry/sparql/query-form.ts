/**
 * The form of a SPARQL request read from its first keyword after the prologue (BASE and PREFIX
 * declarations, comments): which media types its answer can take is decided before a worker thread
 * parses it, and an update is refused with a message saying why rather than with the query parser's
 * "expected SELECT". A text that starts with none of the keywords is left to the parser's message.
 */
export type QueryForm = 'select' | 'ask' | 'construct' | 'describe' | 'update' | 'unknown';

const QUERY_FORMS: Readonly<Record<string, QueryForm>> = {
  SELECT: 'select',
  ASK: 'ask',
  CONSTRUCT: 'construct',
  DESCRIBE: 'describe',
};
// The first keywords of SPARQL 1.1 Update's operations (WITH starts a DELETE/INSERT ... WHERE).
const UPDATE_KEYWORDS = new Set(['INSERT', 'DELETE', 'LOAD', 'CLEAR', 'CREATE', 'DROP', 'COPY', 'MOVE', 'ADD', 'WITH']);

/** Skips whitespace and `#` comments from `at`; the position of the next token. */
function skipBlank(text: string, at: number): number {
  let i = at;
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (text[i] !== '#') return i;
    while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
  }
}

function wordAt(text: string, at: number): string {
  return /^[A-Za-z]+/.exec(text.slice(at, at + 16))?.[0] ?? '';
}

/** The position after an IRI `<...>` starting at `at`, or -1 when there is none. */
function afterIri(text: string, at: number): number {
  if (text[at] !== '<') return -1;
  const end = text.indexOf('>', at);
  return end === -1 ? -1 : end + 1;
}

export function queryFormOf(text: string): QueryForm {
  let at = skipBlank(text, 0);
  for (;;) {
    const word = wordAt(text, at).toUpperCase();
    if (word === 'BASE') {
      at = afterIri(text, skipBlank(text, at + 4));
    } else if (word === 'PREFIX') {
      at = skipBlank(text, at + 6);
      // PNAME_NS: an optional name and a colon.
      const name = /^[^\s:<]*:/.exec(text.slice(at, at + 256));
      if (!name) return 'unknown';
      at = afterIri(text, skipBlank(text, at + name[0].length));
    } else {
      if (word in QUERY_FORMS) return QUERY_FORMS[word]!;
      return UPDATE_KEYWORDS.has(word) ? 'update' : 'unknown';
    }
    if (at === -1) return 'unknown';
    at = skipBlank(text, at);
  }
}

/** SELECT and ASK answer variable bindings or a boolean; CONSTRUCT and DESCRIBE answer a graph. */
export function answersGraph(form: QueryForm): boolean {
  return form === 'construct' || form === 'describe';
}
