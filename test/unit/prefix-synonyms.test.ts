/**
 * Prefix synonyms (issue 15 item 1) in the core: the parser reads a synonym wherever it reads a prefix after
 * a separator or alone (not as the leading provider code), resolution answers as through the prefix with
 * the synonym as written, and the rules that tidy a list of synonyms.
 */
import { parseCompactIdWithNamespace } from '../../src/core/compact-id-parser.js';
import { synonymProblem, tidySynonyms } from '../../src/core/prefix-synonyms.js';
import { buildSnapshot, type RegistrySnapshot } from '../../src/core/registry-snapshot.js';
import { resolveCompactId } from '../../src/core/resolve.js';
import { landingRequestOf } from '../../src/resolver/landing-request.js';
import { presentResolution, resolutionJson } from '../../src/resolver/resolution.presenter.js';
import { sampleNamespaces } from '../factories/snapshot.factory.js';

const SYNONYMS: Record<string, string[]> = { taxonomy: ['NCBITaxon', 'taxon'], chebi: ['chebi.compound'], go: ['gene_ontology'] };

function snapshotWithSynonyms(): RegistrySnapshot {
  return buildSnapshot(1, sampleNamespaces().map((ns) => ({ ...ns, synonyms: SYNONYMS[ns.prefix] ?? [] })));
}

const options = { publicRegistryUrl: 'https://registry.example.org' };

describe('parsing a synonym', () => {
  const snapshot = snapshotWithSynonyms();
  const parse = (raw: string) => parseCompactIdWithNamespace(raw, snapshot);

  it.each([
    ['ncbitaxon:9606', 'ncbitaxon', null, '9606'],
    ['NCBITAXON/9606', 'NCBITAXON', null, '9606'],
    ['ebi/taxon:9606', 'taxon', 'ebi', '9606'],
    ['ebi/taxon/9606', 'taxon', 'ebi', '9606'],
    ['gene_ontology:0006915', 'gene_ontology', null, 'GO:0006915'],
    ['chebi.compound:36927', 'chebi.compound', null, 'CHEBI:36927'],
  ])('reads %s as the namespace of synonym %s', (raw, synonym, providerCode, localId) => {
    const { parsed, synonym: used, namespace } = parse(raw);
    expect(used).toBe(synonym);
    expect(parsed.namespace).toBe(namespace!.prefix);
    expect(parsed.providerCode).toBe(providerCode);
    expect(parsed.localId).toBe(localId);
    expect(parsed.rawRequest).toBe(raw);
  });

  it('reads a bare synonym as its namespace, named by its prefix', () => {
    const { parsed, synonym } = parse('Taxon');
    expect(parsed).toMatchObject({ namespace: 'taxonomy', localId: null });
    expect(synonym).toBe('Taxon');
  });

  it('reads a synonym before a slash and a prefix as a provider code, as the reference reads any non-prefix there', () => {
    const { parsed, synonym } = parse('taxon/taxonomy:9606');
    expect(parsed.providerCode).toBe('taxon');
    expect(parsed.namespace).toBe('taxonomy');
    expect(synonym).toBeNull();
  });

  it('leaves a request written with the prefix as it was', () => {
    expect(parse('taxonomy:9606').synonym).toBeNull();
    expect(parseCompactIdWithNamespace('taxonomy:9606', snapshot).parsed).toEqual(
      parseCompactIdWithNamespace('taxonomy:9606', buildSnapshot(1, sampleNamespaces())).parsed,
    );
  });
});

describe('resolving through a synonym', () => {
  const snapshot = snapshotWithSynonyms();

  it('answers the resources of the prefix, and prefixSynonym last, in both writers', () => {
    const viaSynonym = resolveCompactId('taxon:9606', snapshot, options);
    const viaPrefix = resolveCompactId('taxonomy:9606', snapshot, options);
    const body = presentResolution(viaSynonym).body;
    expect(body.payload.resolvedResources).toEqual(presentResolution(viaPrefix).body.payload.resolvedResources);
    expect(Object.keys(body.payload)).toEqual(['resolvedResources', 'parsedCompactIdentifier', 'prefixSynonym']);
    expect(resolutionJson(viaSynonym)).toBe(JSON.stringify(body));
    expect(resolutionJson(viaSynonym).endsWith(',"prefixSynonym":"taxon"}}')).toBe(true);
    expect(resolutionJson(viaPrefix)).not.toMatch(/prefixSynonym/);
  });

  it('keeps the messages of a failed resolution, which name the canonical prefix', () => {
    const mismatch = resolveCompactId('taxon:abc', snapshot, options);
    expect(mismatch).toMatchObject({ kind: 'unresolved', reason: 'lui-mismatch' });
    expect((mismatch as { message: string }).message).toMatch(/For namespace 'taxonomy'/);
  });

  it('sends a landing page the identifier written with the prefix', () => {
    const viaSynonym = resolveCompactId('ebi/taxon:9606', snapshot, options);
    if (viaSynonym.kind !== 'resolved') throw new Error('not resolved');
    expect(landingRequestOf('ebi/taxon:9606', viaSynonym)).toBe('ebi/taxonomy:9606');
    const embedded = resolveCompactId('gene_ontology:0006915', snapshot, options);
    if (embedded.kind !== 'resolved') throw new Error('not resolved');
    expect(landingRequestOf('gene_ontology:0006915', embedded)).toBe('GO:0006915');
    const plain = resolveCompactId('taxonomy:9606', snapshot, options);
    if (plain.kind !== 'resolved') throw new Error('not resolved');
    expect(landingRequestOf('taxonomy:9606', plain)).toBe('taxonomy:9606');
  });
});

describe('tidying a list of synonyms', () => {
  it('keeps the first spelling of a name, drops the prefix itself and blanks, keeps the order', () => {
    expect(tidySynonyms('taxonomy', [' ncbitaxon ', 'NCBITaxon', 'Taxonomy', '', 'taxon'])).toEqual({
      synonyms: ['ncbitaxon', 'taxon'],
      folded: ['NCBITaxon', 'Taxonomy'],
    });
  });

  it('refuses texts a compact identifier cannot carry in its prefix', () => {
    expect(synonymProblem('ncbi.taxon')).toBeNull();
    expect(synonymProblem('NCBI-Taxon_2')).toBeNull();
    for (const bad of ['tax:on', 'tax/on', 'tax on', '', 'x'.repeat(256)]) expect(synonymProblem(bad)).not.toBeNull();
  });

  it('takes what real synonyms hold (letters of both cases, digits, dots, underscores, hyphens) and refuses what a prefix map cannot publish, saying which character', () => {
    for (const real of ['NCBITaxon', 'ncbi.taxon', 'gene_ontology', 'go.term', 'ec-code', '3dmet.compound', '_private']) expect(synonymProblem(real)).toBeNull();
    expect(synonymProblem('tax"on')).toBe(`'tax"on' holds '"': a synonym is made of letters, digits, dots, underscores and hyphens, and starts with a letter, a digit or an underscore`);
    expect(synonymProblem('bad name')).toMatch(/^'bad name' holds a space: /);
    expect(synonymProblem('tax\u0007on')).toMatch(/^'tax\?on' holds U\+0007: /);
    expect(synonymProblem('-taxon')).toMatch(/^'-taxon' starts with '-': /);
    for (const bad of ['<taxon>', 'tax|on', "tax'on", 'tax#on', 'tax%20on', 'tax?on', 'tax&on', 'tax;on', 'tax=on', 'tax\\on', 'taxón', '.taxon']) {
      expect(synonymProblem(bad)).not.toBeNull();
    }
  });
});
