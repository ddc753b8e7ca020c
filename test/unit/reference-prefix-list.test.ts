/** Issue 15 item 6: other registries' prefix lists read from JSON, TSV and CSV. */
import { guessFormat, PrefixListError, readPrefixList } from '../../src/core/reference-prefix-list.js';

describe('reading a prefix list', () => {
  it('reads JSON as an array of objects, an object of names, or an object of records with a name', () => {
    const expected = [
      { prefix: 'ncbitaxon', name: 'NCBI Taxonomy' },
      { prefix: 'go', name: 'Gene Ontology' },
    ];
    expect(readPrefixList('[{"prefix":"ncbitaxon","name":"NCBI Taxonomy"},{"prefix":"go","name":"Gene Ontology"}]')).toEqual(expected);
    expect(readPrefixList('{"ncbitaxon":"NCBI Taxonomy","go":"Gene Ontology"}')).toEqual(expected);
    expect(readPrefixList('{"ncbitaxon":{"name":"NCBI Taxonomy","homepage":"x"},"go":{"name":"Gene Ontology"}}')).toEqual(expected);
  });

  it('reads TSV and CSV by their header, or prefix then name without one', () => {
    expect(readPrefixList('name\tprefix\nNCBI Taxonomy\tncbitaxon\n', 'tsv')).toEqual([{ prefix: 'ncbitaxon', name: 'NCBI Taxonomy' }]);
    expect(readPrefixList('ncbitaxon\tNCBI Taxonomy\r\ngo\tGene Ontology', 'tsv')).toHaveLength(2);
    expect(readPrefixList('prefix,name\r\nchebi,"Chemical Entities of Biological Interest, ""ChEBI"""\n', 'csv')).toEqual([
      { prefix: 'chebi', name: 'Chemical Entities of Biological Interest, "ChEBI"' },
    ]);
    expect(readPrefixList('pr,"A name\nover two lines"\n', 'csv')).toEqual([{ prefix: 'pr', name: 'A name\nover two lines' }]);
  });

  it('keeps one entry per prefix whatever its case, the first', () => {
    expect(readPrefixList('prefix,name\nGO,first\ngo,second\n', 'csv')).toEqual([{ prefix: 'GO', name: 'first' }]);
  });

  it('guesses the format from the file name, else from the text', () => {
    expect(guessFormat('a,b', 'list.TSV')).toBe('tsv');
    expect(guessFormat('  [{"prefix":"x"}]')).toBe('json');
    expect(guessFormat('prefix\tname\nx\ty')).toBe('tsv');
    expect(guessFormat('prefix,name\nx,y')).toBe('csv');
  });

  it('refuses what it cannot read, saying why', () => {
    expect(() => readPrefixList('{not json', 'json')).toThrow(PrefixListError);
    expect(() => readPrefixList('[{"name":"no prefix"}]', 'json')).toThrow(/not an object with a "prefix"/);
    expect(() => readPrefixList('prefix,name\n', 'csv')).toThrow(/holds no prefix/);
    expect(() => readPrefixList('a,"unterminated\n', 'csv')).toThrow(/ends inside a quoted field/);
  });
});
