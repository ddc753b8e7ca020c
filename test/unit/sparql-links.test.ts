import { buildSnapshot } from '../../src/core/registry-snapshot.js';
import { buildReverseIndex } from '../../src/core/reverse-index.js';
import { asIri, irisInQuery, sameAsLinks } from '../../src/core/same-as-links.js';
import { queryFormOf } from '../../src/registry/sparql/query-form.js';
import { sampleNamespaces } from '../factories/snapshot.factory.js';

const options = { publicResolverUrl: 'https://resolver.test', publicRegistryUrl: 'https://registry.test' };

describe('the form of a SPARQL request', () => {
  it('reads the first keyword after the prologue and comments', () => {
    expect(queryFormOf('SELECT * WHERE { ?s ?p ?o }')).toBe('select');
    expect(queryFormOf('# a comment <with> an IRI\nPREFIX ex: <http://example.org/#x> BASE <http://b/>\n  construct { } where { }')).toBe('construct');
    expect(queryFormOf('PREFIX : <http://example.org/> ASK { :a :b :c }')).toBe('ask');
    expect(queryFormOf('DESCRIBE <http://example.org/a>')).toBe('describe');
  });

  it('recognises every SPARQL Update operation', () => {
    for (const update of ['INSERT DATA { }', 'delete where { ?s ?p ?o }', 'PREFIX ex: <http://e/> WITH ex:g DELETE { } WHERE { }', 'LOAD <http://x/>', 'CLEAR ALL', 'DROP GRAPH <http://g/>']) {
      expect(queryFormOf(update)).toBe('update');
    }
  });

  it('leaves anything else to the parser', () => {
    expect(queryFormOf('')).toBe('unknown');
    expect(queryFormOf('PREFIX broken')).toBe('unknown');
    expect(queryFormOf('{ ?s ?p ?o }')).toBe('unknown');
  });
});

describe('the owl:sameAs links of a query', () => {
  const snapshot = buildSnapshot(1, sampleNamespaces());
  const index = buildReverseIndex(snapshot);

  it('finds the distinct http(s) IRIs a query writes out, up to a count', () => {
    const query = 'SELECT * { <https://a.example/1> ?p <http://b.example/2> . <urn:x:y> ?q <https://a.example/1> }';
    expect(irisInQuery(query, 10)).toEqual(['https://a.example/1', 'http://b.example/2']);
    expect(irisInQuery(query, 1)).toEqual(['https://a.example/1']);
  });

  it('links every resolver URI form of an identifier to each provider URL', () => {
    const links = sameAsLinks(['http://identifiers.org/taxonomy:9606'], snapshot, index, options);
    const subjects = new Set(links.map(([subject]) => subject));
    expect(subjects).toEqual(new Set(['http://identifiers.org/taxonomy:9606', 'https://identifiers.org/taxonomy:9606', 'https://resolver.test/taxonomy:9606']));
    expect(links).toContainEqual(['https://identifiers.org/taxonomy:9606', 'http://purl.bioontology.org/ontology/NCBITAXON/9606']);
  });

  it("links a provider URL to the identifier's resolver URIs", () => {
    expect(sameAsLinks(['http://purl.uniprot.org/uniprot/P0DP23'], snapshot, index, options)).toEqual([
      ['http://purl.uniprot.org/uniprot/P0DP23', 'https://identifiers.org/uniprot:P0DP23'],
      ['http://purl.uniprot.org/uniprot/P0DP23', 'http://identifiers.org/uniprot:P0DP23'],
      ['http://purl.uniprot.org/uniprot/P0DP23', 'https://resolver.test/uniprot:P0DP23'],
    ]);
  });

  it('links nothing for an unknown prefix, a LUI the namespace refuses, or a URL of no provider', () => {
    expect(sameAsLinks(['https://identifiers.org/nonsense:1', 'https://identifiers.org/taxonomy:abc', 'https://example.org/page'], snapshot, index, options)).toEqual([]);
  });
});

describe('a provider URL as an IRI', () => {
  it('percent-encodes what an IRI may not hold, and every # after the first', () => {
    expect(asIri('http://crispr.example.fr/db.cgi?Taxon_id[]=551115')).toBe('http://crispr.example.fr/db.cgi?Taxon_id%5B%5D=551115');
    expect(asIri('https://dashr.example.org/entry/x#x#table')).toBe('https://dashr.example.org/entry/x#x%23table');
    expect(asIri('https://www.ncbi.nlm.nih.gov/gene/100010')).toBe('https://www.ncbi.nlm.nih.gov/gene/100010');
  });
});
