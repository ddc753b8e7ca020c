/**
 * The registry exports the dataset build writes beside the dataset (one file each, plus its gzip sibling)
 * and `GET /resolutionApi/export/{format}` serves. The name is the format's path segment and the file name a
 * download is saved under; the order is the index's.
 */
export const EXPORT_FORMATS = [
  {
    name: 'context.jsonld',
    mediaType: 'application/ld+json',
    description: 'JSON-LD context: every prefix as a term for its URI prefix at the resolver',
  },
  {
    name: 'prefixmap.json',
    mediaType: 'application/json; charset=utf-8',
    description: 'Extended prefix map (curies/prefixmaps records: prefix, uri_prefix, prefix_synonyms, uri_prefix_synonyms, pattern)',
  },
  {
    name: 'namespaces.tsv',
    mediaType: 'text/tab-separated-values; charset=utf-8',
    description: 'Namespaces, one a line, with a header line; tab, newline, carriage return and backslash escaped as \\t, \\n, \\r, \\\\; a text starting with = + - @, tab or carriage return starts with a \' (never a spreadsheet formula)',
  },
  {
    name: 'namespaces.csv',
    mediaType: 'text/csv; charset=utf-8; header=present',
    description: "Namespaces, one a record (RFC 4180), with a header record; a text starting with = + - @, tab or carriage return starts with a ' (never a spreadsheet formula)",
  },
  {
    name: 'resources.tsv',
    mediaType: 'text/tab-separated-values; charset=utf-8',
    description: 'Resources (providers), one a line, with a header line; escaped as namespaces.tsv',
  },
  {
    name: 'resources.csv',
    mediaType: 'text/csv; charset=utf-8; header=present',
    description: 'Resources (providers), one a record (RFC 4180), with a header record; formulas neutralised as in namespaces.csv',
  },
  {
    name: 'registry.ttl',
    mediaType: 'text/turtle; charset=utf-8',
    description: 'RDF (Turtle) describing every namespace, resource and institution (dcterms, idot, void, foaf)',
  },
  {
    name: 'registry.nt',
    mediaType: 'application/n-triples; charset=utf-8',
    description: 'The same RDF as registry.ttl, as N-Triples',
  },
] as const;

export type ExportFormat = (typeof EXPORT_FORMATS)[number]['name'];
export type ExportFormatInfo = (typeof EXPORT_FORMATS)[number];

const byName = new Map<string, ExportFormatInfo>(EXPORT_FORMATS.map((format) => [format.name, format]));

/** The format of this name, or undefined for a name that is none. */
export function exportFormatNamed(name: string): ExportFormatInfo | undefined {
  return byName.get(name);
}
