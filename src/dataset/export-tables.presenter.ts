import type { DatasetNamespaceRow, DatasetResourceRow } from './dataset.presenter.js';

type Cell = string | number | boolean | null;

/** A namespace as the tables see it: its row, its URI prefix at the resolver and its synonyms. */
export interface TableNamespace {
  row: DatasetNamespaceRow;
  uriPrefix: string;
  synonyms: readonly string[];
}

const isoDate = (date: Date | null): string | null => (date ? date.toISOString() : null);

/**
 * The columns of namespaces.csv/.tsv, in their order (a contract: append, never reorder). Names are the
 * dataset's field names; `uriPrefix` is the context's and the prefix map's, `synonyms` are separated by `|`
 * (a prefix never holds one), `successor` is the successor's prefix. Dates are ISO 8601 in UTC.
 */
export const NAMESPACE_TABLE: readonly (readonly [string, (ns: TableNamespace) => Cell])[] = [
  ['id', (ns) => ns.row.id],
  ['prefix', (ns) => ns.row.prefix],
  ['mirId', (ns) => ns.row.mirId],
  ['name', (ns) => ns.row.name],
  ['description', (ns) => ns.row.description],
  ['pattern', (ns) => ns.row.pattern],
  ['sampleId', (ns) => ns.row.sampleId],
  ['namespaceEmbeddedInLui', (ns) => ns.row.namespaceEmbeddedInLui],
  ['uriPrefix', (ns) => ns.uriPrefix],
  ['synonyms', (ns) => ns.synonyms.join('|')],
  ['deprecated', (ns) => ns.row.deprecated],
  ['deprecationDate', (ns) => isoDate(ns.row.deprecationDate)],
  ['successor', (ns) => ns.row.successorPrefix],
  ['created', (ns) => isoDate(ns.row.created)],
  ['modified', (ns) => isoDate(ns.row.modified)],
];

/**
 * The columns of resources.csv/.tsv, in their order (a contract as above). `prefix` is the namespace's;
 * `countryCode` the resource's location, `institutionCountryCode` its institution's.
 */
export const RESOURCE_TABLE: readonly (readonly [string, (r: DatasetResourceRow, prefix: string) => Cell])[] = [
  ['id', (r) => r.id],
  ['mirId', (r) => r.mirId],
  ['prefix', (_r, prefix) => prefix],
  ['providerCode', (r) => r.providerCode],
  ['name', (r) => r.name],
  ['description', (r) => r.description],
  ['urlPattern', (r) => r.urlPattern],
  ['sampleId', (r) => r.sampleId],
  ['resourceHomeUrl', (r) => r.resourceHomeUrl],
  ['official', (r) => r.official],
  ['countryCode', (r) => r.locationCountryCode],
  ['institutionName', (r) => r.institutionName],
  ['institutionHomeUrl', (r) => r.institutionHomeUrl],
  ['institutionRorId', (r) => r.institutionRorId],
  ['institutionCountryCode', (r) => r.institutionCountryCode],
  ['protectedUrls', (r) => r.protectedUrls],
  ['deprecated', (r) => r.deprecated],
  ['deprecationDate', (r) => isoDate(r.deprecationDate)],
];

const text = (cell: Cell): string => (cell === null ? '' : String(cell));

// What a spreadsheet reads as the start of a formula (OWASP "CSV injection"): `=`, `+`, `-`, `@`, and tab
// and carriage return, which some spreadsheets skip before such a character.
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A cell's text as the tables write it: a text that a spreadsheet would run as a formula (a request's
 * `=HYPERLINK(...)` or `+cmd|' /C calc'!A0`) gets a leading `'`, which spreadsheets read as "this is text"
 * and do not show. Only texts are touched: numbers and booleans are the registry's own values (ids, flags),
 * never a requester's. The `-` is neutralised too although a negative number starts with one: no column of
 * these tables holds a number as text (ids are numbers, sample ids and patterns never start with `-` in the
 * registry), while real descriptions do start with `- DEPRECATION NOTE -`, which a spreadsheet would read as
 * a formula and show as #NAME?. A program reading the tables sees the `'` and can drop it.
 */
export function spreadsheetSafe(cell: Cell): string {
  const value = text(cell);
  return typeof cell === 'string' && FORMULA_START.test(value) ? `'${value}` : value;
}

const CSV_QUOTED = /[",\r\n]/;

/**
 * One CSV record (RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled; CRLF), each
 * cell spreadsheetSafe.
 */
export function csvRecord(cells: readonly Cell[]): string {
  return `${cells
    .map((cell) => {
      const value = spreadsheetSafe(cell);
      return CSV_QUOTED.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
    })
    .join(',')}\r\n`;
}

const TSV_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/**
 * One TSV line: a tab cannot be quoted in TSV (IANA text/tab-separated-values), so tab, line breaks and the
 * backslash are written as the escapes PostgreSQL's COPY and most TSV readers understand; quotes are plain;
 * each cell spreadsheetSafe.
 */
export function tsvLine(cells: readonly Cell[]): string {
  return `${cells.map((cell) => spreadsheetSafe(cell).replace(/[\\\t\n\r]/g, (c) => TSV_ESCAPES[c]!)).join('\t')}\n`;
}
