import { buildSnapshot } from '../../src/core/registry-snapshot.js';
import { buildReverseIndex } from '../../src/core/reverse-index.js';
import { guessAccession, reverseByPrefix, type ReverseLookupQuery, type ReverseMatch } from '../../src/core/reverse-lookup.js';
import { parseReverseLookupPayload, ReverseLookupPayloadError, reverseMatchJson } from '../../src/resolver/reverse.routes.js';
import {
  buildReverseSnapshot,
  reverseNamespace,
  reverseNamespaces,
  reverseResource,
} from '../factories/reverse-snapshot.factory.js';

const RESOLVER = 'https://resolver.example.org';
const index = buildReverseIndex(buildReverseSnapshot());
const byPrefix = (query: ReverseLookupQuery) => reverseByPrefix(index, query, { publicResolverUrl: RESOLVER });

describe('guessAccession', () => {
  it.each([
    ['https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?mode=Info&id=9606', '9606'],
    ['https://pubmed.ncbi.nlm.nih.gov/16333295/', '16333295'],
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=3s', '3s'],
    ['http://ftp.ebi.ac.uk/pub/databases/lrgex/LRG_1.xml', 'LRG_1.xml'],
    ['https://www.uniprot.org/uniprotkb/P0DP23/entry', 'entry'],
    ['https://example.org/page#section', 'section'],
  ])('takes the text after the last =, / or # of %s', (url, accession) => {
    expect(guessAccession(url)).toBe(accession);
  });

  it('gives null when the URL has none of =, / and #', () => {
    expect(guessAccession('httpexample')).toBeNull();
  });

  it('gives an empty text when the URL ends with the separator', () => {
    expect(guessAccession('https://example.org/search?id=')).toBe('');
  });
});

describe('reverseByPrefix', () => {
  it('finds the CURIE of a provider URL with a score of 100', () => {
    expect(byPrefix({ url: 'https://www.ncbi.nlm.nih.gov/gene/100010' })).toEqual({
      prefix: 'ncbigene',
      possible_resolver_url: `${RESOLVER}/ncbigene:100010`,
      possible_resolver_curie: 'ncbigene:100010',
      lui_pattern_match: true,
      similarity_score: 100,
    });
  });

  it('writes the match fields in the order of the wire format', () => {
    const match = byPrefix({ url: 'https://pubmed.ncbi.nlm.nih.gov/16333295/' });
    expect(Object.keys(match ?? {})).toEqual([
      'prefix',
      'possible_resolver_url',
      'possible_resolver_curie',
      'lui_pattern_match',
      'similarity_score',
    ]);
    expect(JSON.stringify(match)).toBe(
      '{"prefix":"pubmed","possible_resolver_url":"https://resolver.example.org/pubmed:16333295",' +
        '"possible_resolver_curie":"pubmed:16333295","lui_pattern_match":true,"similarity_score":100}',
    );
  });

  it('finds an id given as a query parameter', () => {
    const match = byPrefix({ url: 'https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?mode=Info&id=9606' });
    expect(match?.possible_resolver_curie).toBe('taxonomy:9606');
    expect(match?.similarity_score).toBe(100);
  });

  it.each([
    'http://www.ncbi.nlm.nih.gov/gene/100010',
    'https://ncbi.nlm.nih.gov/gene/100010',
    'http://ncbi.nlm.nih.gov/gene/100010/',
    'HTTPS://WWW.NCBI.NLM.NIH.GOV/gene/100010',
    'Https://Www.Ncbi.Nlm.Nih.Gov/gene/100010',
  ])('matches %s whatever its scheme, www. and host case', (url) => {
    const match = byPrefix({ url });
    expect(match?.possible_resolver_curie).toBe('ncbigene:100010');
    expect(match?.similarity_score).toBe(100);
  });

  it('chooses among namespaces sharing a key the one whose pattern accepts the id', () => {
    expect(byPrefix({ url: 'https://www.kegg.jp/entry/C00001' })?.prefix).toBe('kegg.compound');
    expect(byPrefix({ url: 'https://www.kegg.jp/entry/D00001' })?.prefix).toBe('kegg.drug');
  });

  it('gives the same answer whatever order the registry lists namespaces in', () => {
    const reversed = buildReverseIndex(buildSnapshot(1, reverseNamespaces().reverse()));
    for (const url of ['https://www.kegg.jp/entry/C00001', 'https://www.kegg.jp/entry/X1']) {
      expect(reverseByPrefix(reversed, { url }, { publicResolverUrl: RESOLVER })).toEqual(byPrefix({ url }));
    }
  });

  it('lets the longest key win and drops the pattern text after the id', () => {
    expect(byPrefix({ url: 'https://www.uniprot.org/uniprotkb/P0DP23/entry' })).toEqual({
      prefix: 'uniprot',
      possible_resolver_url: `${RESOLVER}/uniprot:P0DP23`,
      possible_resolver_curie: 'uniprot:P0DP23',
      lui_pattern_match: true,
      similarity_score: 100,
    });
    expect(byPrefix({ url: 'https://www.uniprot.org/something/else' })?.possible_resolver_curie).toBe(
      'uniprot.any:something/else',
    );
  });

  it('finds an LRG record behind its .xml file name', () => {
    const match = byPrefix({ url: 'http://ftp.ebi.ac.uk/pub/databases/lrgex/LRG_1.xml' });
    expect(match?.possible_resolver_curie).toBe('lrg:LRG_1');
    expect(match?.possible_resolver_url).toBe(`${RESOLVER}/lrg:LRG_1`);
    expect(match?.similarity_score).toBe(100);
  });

  it('gives an embedded namespace its own prefix as the CURIE', () => {
    expect(byPrefix({ url: 'https://www.ebi.ac.uk/chebi/searchId.do?chebiId=CHEBI:36927' })).toEqual({
      prefix: 'chebi',
      possible_resolver_url: `${RESOLVER}/CHEBI:36927`,
      possible_resolver_curie: 'CHEBI:36927',
      lui_pattern_match: true,
      similarity_score: 100,
    });
  });

  it.each([
    ['https://www.ebi.ac.uk/chebi/searchId.do?chebiId=chebi:36927', undefined],
    ['https://www.ebi.ac.uk/chebi/searchId.do?chebiId=36927', undefined],
    ['https://www.ebi.ac.uk/chebi/searchId.do?chebiId=CHEBI:36927', 'CHEBI:36927'],
    ['https://www.ebi.ac.uk/chebi/searchId.do?chebiId=CHEBI:36927', '36927'],
    ['https://www.ebi.ac.uk/ols4/ontologies/chebi/terms?obo_id=CHEBI:36927', undefined],
  ])('restores the embedded prefix for %s (accession %s)', (url, accession) => {
    const match = byPrefix({ url, accession });
    expect(match?.possible_resolver_curie).toBe('CHEBI:36927');
    expect(match?.similarity_score).toBe(100);
  });

  it('puts back the LUI prefix that resolution leaves out of an embedded namespace’s URL', () => {
    const match = byPrefix({ url: 'https://www.geneontology.org/GO_REF/0000041' });
    expect(match?.possible_resolver_curie).toBe('GO_REF:0000041');
    expect(match?.lui_pattern_match).toBe(true);
  });

  it('uses an explicit accession as the reference does', () => {
    const match = byPrefix({ url: 'https://www.ncbi.nlm.nih.gov/gene/100010', accession: '100010' });
    expect(match?.possible_resolver_curie).toBe('ncbigene:100010');
    expect(byPrefix({ url: 'http://ftp.ebi.ac.uk/pub/databases/lrgex/LRG_1.xml', accession: 'LRG_1' })).toEqual(
      byPrefix({ url: 'http://ftp.ebi.ac.uk/pub/databases/lrgex/LRG_1.xml' }),
    );
  });

  it('answers as the reference wherever the reference finds a CURIE, even when a longer key fits', () => {
    const url = 'https://resolver.api.identifiers.org/resolveMirId/MIR:00100005';
    expect(byPrefix({ url })?.possible_resolver_curie).toBe('miriam.resource:MIR:00100005');
    expect(byPrefix({ url, accession: 'MIR:00100005' })?.possible_resolver_curie).toBe('miriam.resource:MIR:00100005');
    const other = byPrefix({ url: 'https://resolver.api.identifiers.org/resolveMirId/MIR:00000005' });
    expect(other?.possible_resolver_curie).toBe('MIR:00000005');
    expect(other?.prefix).toBe('mir');
  });

  it('tries later occurrences of an explicit accession that also occurs earlier in the URL', () => {
    const match = byPrefix({ url: 'http://bigg.ucsd.edu/compartments/c', accession: 'c' });
    expect(match?.possible_resolver_curie).toBe('bigg.compartment:c');
  });

  it('answers null when an explicit accession is not in the URL', () => {
    expect(byPrefix({ url: 'https://www.ncbi.nlm.nih.gov/gene/100010', accession: '999' })).toBeNull();
  });

  it('guesses the accession when the one given is blank', () => {
    const match = byPrefix({ url: 'https://www.ncbi.nlm.nih.gov/gene/100010', accession: '  ' });
    expect(match?.possible_resolver_curie).toBe('ncbigene:100010');
  });

  it('uses an explicit accession found after extra text behind the key', () => {
    const match = byPrefix({ url: 'https://www.kegg.jp/entry/dbget:C00001', accession: 'C00001' });
    expect(match?.possible_resolver_curie).toBe('kegg.compound:C00001');
    expect(match?.similarity_score).toBeLessThan(100);
  });

  it('falls back to the last URL segment when the text after the key does not fit', () => {
    const match = byPrefix({ url: 'https://www.ncbi.nlm.nih.gov/gene/?term=100010' });
    expect(match?.possible_resolver_curie).toBe('ncbigene:100010');
    expect(match?.lui_pattern_match).toBe(true);
  });

  it.each([
    'https://unknown.example.org/gene/100010',
    'https://www.ncbi.nlm.nih.gov/',
    'https://old.example.org/gene/1',
    'https://www.ncbi.nlm.nih.gov/pubmed/16333295',
  ])('answers null for %s, which no active pattern starts', (url) => {
    expect(byPrefix({ url })).toBeNull();
  });

  it('returns the first namespace of the key without CURIE when no pattern accepts the id', () => {
    expect(byPrefix({ url: 'https://www.kegg.jp/entry/X99' })).toEqual({
      prefix: 'kegg.compound',
      possible_resolver_url: null,
      possible_resolver_curie: null,
      lui_pattern_match: false,
      similarity_score: 100,
    });
  });

  it('gives the CURIE anyway with forceUrls', () => {
    const match = byPrefix({ url: 'https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?mode=Info&id=abc', forceUrls: true });
    expect(match).toEqual({
      prefix: 'taxonomy',
      possible_resolver_url: `${RESOLVER}/taxonomy:abc`,
      possible_resolver_curie: 'taxonomy:abc',
      lui_pattern_match: false,
      similarity_score: 100,
    });
  });

  it('never matches a namespace whose pattern does not compile', () => {
    const broken = buildReverseIndex(
      buildSnapshot(1, [reverseNamespace(1, 'broken', '^(unclosed$', [reverseResource(1, 'https://b.example.org/{$id}')])]),
    );
    const match = reverseByPrefix(broken, { url: 'https://b.example.org/1' }, { publicResolverUrl: RESOLVER });
    expect(match?.lui_pattern_match).toBe(false);
  });
});

describe('parseReverseLookupPayload', () => {
  const reject = (payload: unknown, endpoint: 'byPrefix' | 'bySimilarity') => {
    try {
      parseReverseLookupPayload(payload, endpoint);
    } catch (error) {
      expect(error).toBeInstanceOf(ReverseLookupPayloadError);
      expect((error as ReverseLookupPayloadError).status).toBe(400);
      return (error as Error).message;
    }
    throw new Error('payload was accepted');
  };

  it.each([null, undefined, 'text', 42, [], {}, { url: '' }, { url: '   ' }, { url: 7 }, { url: 'ftp://x.org/1' }, { url: ' http://x.org' }])(
    'rejects %p with the reference’s message for each endpoint',
    (payload) => {
      expect(reject(payload, 'byPrefix')).toBe('Invalid payload, HTTP url must be provided');
      expect(reject(payload, 'bySimilarity')).toBe('Invalid payload, url must be provided');
    },
  );

  it('accepts an http URL in any case and defaults the optional fields', () => {
    expect(parseReverseLookupPayload({ url: 'HTTPS://x.org/1' }, 'byPrefix')).toEqual({
      url: 'HTTPS://x.org/1',
      accession: null,
      forceUrls: false,
    });
    expect(parseReverseLookupPayload({ url: 'http://x.org/1', accession: '1', forceUrls: true }, 'bySimilarity')).toEqual({
      url: 'http://x.org/1',
      accession: '1',
      forceUrls: true,
    });
  });

  it('bounds the URL and accession lengths', () => {
    const longUrl = 'https://x.org/' + 'a'.repeat(4096);
    expect(reject({ url: longUrl }, 'byPrefix')).toBe('Invalid payload, url must be at most 4096 characters long');
    expect(reject({ url: 'https://x.org/1', accession: 'a'.repeat(1025) }, 'byPrefix')).toBe(
      'Invalid payload, accession must be at most 1024 characters long',
    );
  });

  it('bounds the URL of a similarity lookup more tightly, as its cost grows with the length (issue 10)', () => {
    const url = (length: number) => 'https://x.org/' + 'a'.repeat(length - 'https://x.org/'.length);
    expect(reject({ url: url(2049) }, 'bySimilarity')).toBe('Invalid payload, url must be at most 2048 characters long for a similarity lookup');
    expect(reject({ url: url(5000) }, 'bySimilarity')).toBe('Invalid payload, url must be at most 2048 characters long for a similarity lookup');
    expect(parseReverseLookupPayload({ url: url(2048) }, 'bySimilarity').url).toHaveLength(2048);
    expect(parseReverseLookupPayload({ url: url(2049) }, 'byPrefix').url).toHaveLength(2049);
  });

  it('rejects fields of the wrong type', () => {
    expect(reject({ url: 'https://x.org/1', accession: 1 }, 'byPrefix')).toBe('Invalid payload, accession must be a string');
    expect(reject({ url: 'https://x.org/1', forceUrls: 'yes' }, 'byPrefix')).toBe(
      'Invalid payload, forceUrls must be true or false',
    );
  });
});

describe('reverseMatchJson', () => {
  it('writes exactly what JSON.stringify writes, field order included', () => {
    const matches: ReverseMatch[] = [
      { prefix: 'taxonomy', possible_resolver_url: 'https://identifiers.org/taxonomy:9606', possible_resolver_curie: 'taxonomy:9606', lui_pattern_match: true, similarity_score: 100 },
      { prefix: 'chebi', possible_resolver_url: null, possible_resolver_curie: null, lui_pattern_match: false, similarity_score: 89.28571 },
      { prefix: 'odd"prefix\\', possible_resolver_url: 'https://x.test/a"b\u2028', possible_resolver_curie: 'odd:é\u0000', lui_pattern_match: true, similarity_score: 0 },
      { prefix: 'tiny', possible_resolver_url: 'u', possible_resolver_curie: 'c', lui_pattern_match: false, similarity_score: 1e-7 },
    ];
    for (const match of matches) expect(reverseMatchJson(match)).toBe(JSON.stringify(match));
  });
});
