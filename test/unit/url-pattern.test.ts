import { buildProviderUrl, trimOut } from '../../src/core/url-pattern.js';

describe('buildProviderUrl', () => {
  it('puts the LUI in place of {$id}', () => {
    expect(buildProviderUrl('https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?mode=Info&id={$id}', '9606', false)).toBe(
      'https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?mode=Info&id=9606',
    );
  });

  it('puts only the part after the first colon of an embedded LUI', () => {
    expect(buildProviderUrl('https://www.ebi.ac.uk/chebi/searchId.do?chebiId=CHEBI:{$id}', 'CHEBI:36927', true)).toBe(
      'https://www.ebi.ac.uk/chebi/searchId.do?chebiId=CHEBI:36927',
    );
    expect(buildProviderUrl('https://uniresolver.io/#did:{$id}', 'did:sov:WRfXPg8dantKVubE3HX8pw', true)).toBe(
      'https://uniresolver.io/#did:sov:WRfXPg8dantKVubE3HX8pw',
    );
  });

  it('replaces every {$id}', () => {
    expect(buildProviderUrl('https://example.org/{$id}/view?id={$id}', 'X1', false)).toBe('https://example.org/X1/view?id=X1');
  });

  it('inserts the LUI literally, without expanding replacement patterns or encoding', () => {
    expect(buildProviderUrl('https://example.org/{$id}', "a$&b$'c$1 d/e", false)).toBe("https://example.org/a$&b$'c$1 d/e");
  });

  it('leaves a pattern without {$id} unchanged', () => {
    expect(buildProviderUrl('https://example.org/', '1', false)).toBe('https://example.org/');
  });

  it('accepts an empty LUI', () => {
    expect(buildProviderUrl('http://w3id.org/nfdi4ing/metadata4ing#{$id}', '', false)).toBe('http://w3id.org/nfdi4ing/metadata4ing#');
  });
});

describe('trimOut', () => {
  it('keeps the text after the first colon, or nothing when there is none', () => {
    expect(trimOut('GO:0006915')).toBe('0006915');
    expect(trimOut('did:sov:abc')).toBe('sov:abc');
    expect(trimOut('CHEBI/36927')).toBe('');
  });
});
