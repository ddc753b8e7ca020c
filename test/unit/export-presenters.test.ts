import { parse as parseCsv } from 'csv-parse/sync';
import { csvRecord, tsvLine } from '../../src/dataset/export-tables.presenter.js';
import { isWritableIri, uriPrefixOf } from '../../src/dataset/export-uris.js';

const RESOLVER = 'https://id.example.org';
const ns = (prefix: string, pattern: string, sampleId: string, namespaceEmbeddedInLui = true) => ({ prefix, pattern, sampleId, namespaceEmbeddedInLui });

describe('uriPrefixOf', () => {
  it('is the resolver URL of `prefix:` for a namespace whose LUIs do not embed the prefix', () => {
    expect(uriPrefixOf(ns('taxonomy', '^\\d+$', '9606', false), RESOLVER)).toBe(`${RESOLVER}/taxonomy:`);
  });

  it.each([
    ['go', '^GO:\\d{7}$', '0006915', 'GO'],
    ['vario', '^VariO:\\d+$', '0294', 'VariO'],
    ['mge', '^mge:\\d+$', '2', 'mge'],
    ['ark', '^(ark\\:)/*[0-9A-Za-z]+(?:/[\\w/.=*+@\\$-]*)?(?:\\?.*)?$', '/53355/cl010066723', 'ark'],
    // The pattern spells no single prefix; upper case makes the sample valid.
    ['eo', '^(P)?EO\\:\\d{7}$', '0007404', 'EO'],
    // Nothing makes the sample valid: the prefix as registered.
    ['odd', '^(X|Y):\\d+$', '1', 'odd'],
  ])('carries the LUI spelling for embedded namespace %s (%s)', (prefix, pattern, sample, spelled) => {
    expect(uriPrefixOf(ns(prefix, pattern, sample), RESOLVER)).toBe(`${RESOLVER}/${spelled}:`);
  });
});

describe('isWritableIri', () => {
  it.each([
    ['https://www.ebi.ac.uk/chebi/', true],
    ['http://example.org/a?b=c&d=%20#f', true],
    ['https://example.org/a b', false],
    ['https://example.org/{$id}', false],
    ['https://example.org/a\u0007', false],
    ['https://example.org/<script>', false],
    ['ftp://example.org/', false],
    ['www.example.org', false],
    ['', false],
  ])('%j: %s', (value, writable) => {
    expect(isWritableIri(value)).toBe(writable);
  });

  it('refuses null', () => {
    expect(isWritableIri(null)).toBe(false);
  });
});

describe('the table writers', () => {
  it('quote a CSV field only when it needs it, doubling quotes, and end records with CRLF', () => {
    expect(csvRecord(['plain', 1, true, null, 'a,b', 'say "hi"', 'two\nlines'])).toBe('plain,1,true,,"a,b","say ""hi""","two\nlines"\r\n');
  });

  it('escape tab, line breaks and backslash in TSV and leave quotes as they are', () => {
    expect(tsvLine(['a\tb', 'c\nd\re', 'back\\slash', '"quoted"', null, false])).toBe('a\\tb\tc\\nd\\re\tback\\\\slash\t"quoted"\t\tfalse\n');
  });

  it("start a cell a spreadsheet would run as a formula with a ', in CSV and TSV alike, and leave other cells and numbers as they are", () => {
    const hostile = ['=HYPERLINK("https://evil.example/","click")', "+cmd|' /C calc'!A0", '-2+3+cmd|calc', '@SUM(A1:A9)', '\t=1+1', '\r=1+1'];
    const harmless = ['a=b', 'taxonomy', ' =not at the start', 'MIR:00000001', ''];
    const cells = [...hostile, ...harmless, 42, true];
    const expected = [...hostile.map((value) => `'${value}`), ...harmless, '42', 'true'];

    const [csv] = parseCsv(csvRecord(cells)) as string[][];
    expect(csv).toEqual(expected);
    const [tsv] = parseCsv(tsvLine(cells), { delimiter: '\t', quote: false }) as string[][];
    expect(tsv!.map((cell) => cell.replace(/\\([\\tnr])/g, (_, c: string) => ({ '\\': '\\', t: '\t', n: '\n', r: '\r' })[c]!))).toEqual(expected);
  });
});
