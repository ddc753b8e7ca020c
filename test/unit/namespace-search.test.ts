import { buildSnapshot } from '../../src/core/registry-snapshot.js';
import { MAX_NAMESPACE_SEARCH_LENGTH, searchNamespaces } from '../../src/core/namespace-search.js';
import { aNamespace } from '../factories/snapshot.factory.js';

const snapshot = buildSnapshot(1, [
  aNamespace({ id: 1, prefix: 'go', pattern: '^GO:\\d{7}$', name: 'Gene Ontology' }),
  aNamespace({ id: 2, prefix: 'ncbigene', pattern: '^\\d+$', name: 'NCBI Gene' }),
  aNamespace({ id: 3, prefix: 'GOA', pattern: '^\\d+$', name: 'Gene Ontology Annotation' }),
  aNamespace({ id: 4, prefix: 'cgsc', pattern: '^\\d+$', name: 'Coli Genetic Stock Center' }),
  aNamespace({ id: 5, prefix: 'sgd', pattern: '^\\d+$', name: 'Saccharomyces Genome Database' }),
]);
const prefixes = (query: string, limit = 10) => searchNamespaces(snapshot, query, limit).namespaces.map((n) => n.prefix);

describe('searching the snapshot for namespaces', () => {
  it('ranks the prefix that is the text, then prefixes starting with it, then prefixes and names holding it', () => {
    expect(prefixes('go')).toEqual(['go', 'GOA']);
    // Holding it, in a prefix or a name, is one rank: by prefix within it (Coli Genetic Stock Center holds it too).
    expect(prefixes('GENE')).toEqual(['cgsc', 'go', 'GOA', 'ncbigene']);
  });

  it('then names with words starting with each word of the text, in any order', () => {
    expect(prefixes('ontol annot')).toEqual(['GOA']);
    expect(prefixes('gen')).toEqual(['cgsc', 'go', 'GOA', 'ncbigene', 'sgd']);
    expect(prefixes('database genome')).toEqual(['sgd']);
  });

  it('puts deprecated namespaces below live ones, except the prefix that is the text', () => {
    const proteins = buildSnapshot(1, [
      aNamespace({ id: 1, prefix: 'aspgd.protein', pattern: '^\\d+$', name: 'AspGD Protein', deprecated: true }),
      aNamespace({ id: 2, prefix: 'proteins', pattern: '^\\d+$', name: 'Old proteins', deprecated: true }),
      aNamespace({ id: 3, prefix: 'tair.protein', pattern: '^\\d+$', name: 'TAIR Protein' }),
      aNamespace({ id: 4, prefix: 'pr', pattern: '^\\d+$', name: 'Protein Ontology' }),
      aNamespace({ id: 5, prefix: 'protein', pattern: '^\\d+$', name: 'Deprecated exact', deprecated: true }),
    ]);
    const found = (query: string) => searchNamespaces(proteins, query, 10).namespaces.map((n) => n.prefix);
    expect(found('protein')).toEqual(['protein', 'pr', 'tair.protein', 'proteins', 'aspgd.protein']);
    expect(found('prot')).toEqual(['pr', 'tair.protein', 'protein', 'proteins', 'aspgd.protein']);
  });

  it('normalises the text, answers nothing for an empty one, and counts every match beyond the limit', () => {
    expect(searchNamespaces(snapshot, '  gene \t ontology ', 10)).toMatchObject({ query: 'gene ontology', total: 2 });
    expect(searchNamespaces(snapshot, '   ', 10)).toEqual({ query: '', total: 0, namespaces: [] });
    const limited = searchNamespaces(snapshot, 'gen', 2);
    expect(limited.total).toBe(5);
    expect(limited.namespaces.map((n) => n.prefix)).toEqual(['cgsc', 'go']);
    expect(searchNamespaces(snapshot, 'x'.repeat(500), 10).query).toHaveLength(MAX_NAMESPACE_SEARCH_LENGTH);
  });
});
