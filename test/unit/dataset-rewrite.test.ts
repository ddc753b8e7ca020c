import { rewriteForEmbeddedPrefix } from '../../src/dataset/dataset-rewrite.js';
import { namespaceJson, type DatasetNamespaceRow, type DatasetResourceRow } from '../../src/dataset/dataset.presenter.js';

describe('rewriteForEmbeddedPrefixes', () => {
  it('cuts ark: before the placeholder and prefixes the sample id', () => {
    expect(rewriteForEmbeddedPrefix('ark', { urlPattern: 'https://n2t.net/ark:{$id}', sampleId: '/53355/cl010066723' })).toEqual({
      urlPattern: 'https://n2t.net/{$id}',
      sampleId: 'ark:/53355/cl010066723',
    });
  });

  it("uses the URL's spelling of the prefix for the sample id (BTO:, CHEBI:)", () => {
    expect(
      rewriteForEmbeddedPrefix('bto', { urlPattern: 'https://www.ebi.ac.uk/ols4/ontologies/bto/terms?obo_id=BTO:{$id}', sampleId: '0000146' }),
    ).toEqual({ urlPattern: 'https://www.ebi.ac.uk/ols4/ontologies/bto/terms?obo_id={$id}', sampleId: 'BTO:0000146' });
    expect(
      rewriteForEmbeddedPrefix('chebi', { urlPattern: 'https://www.ebi.ac.uk/chebi/searchId.do?chebiId=CHEBI:{$id}', sampleId: '36927' }),
    ).toEqual({ urlPattern: 'https://www.ebi.ac.uk/chebi/searchId.do?chebiId={$id}', sampleId: 'CHEBI:36927' });
  });

  it('keeps a sample id that already starts with the prefix, whatever its case', () => {
    expect(rewriteForEmbeddedPrefix('chebi', { urlPattern: 'https://x.example/CHEBI:{$id}', sampleId: 'chebi:36927' })).toEqual({
      urlPattern: 'https://x.example/{$id}',
      sampleId: 'chebi:36927',
    });
  });

  it('rewrites a pattern that is nothing but the prefix and the placeholder', () => {
    expect(rewriteForEmbeddedPrefix('go', { urlPattern: 'GO:{$id}', sampleId: '0006915' })).toEqual({ urlPattern: '{$id}', sampleId: 'GO:0006915' });
  });

  it('only looks at the first placeholder', () => {
    expect(rewriteForEmbeddedPrefix('go', { urlPattern: 'https://x.example/{$id}/GO:{$id}', sampleId: '1' })).toBeNull();
  });

  it.each([
    ['an underscore instead of the colon', 'gsso', 'http://purl.obolibrary.org/obo/GSSO_{$id}', '000551'],
    ['no prefix before the placeholder', 'go_ref', 'https://geneontology.org/GO_REF/{$id}', '0000041'],
    ['the prefix glued to other text', 'fma', 'https://bioportal.bioontology.org/ontologies/FMA/fma:fma{$id}', '67112'],
  ])('leaves the resource alone with %s', (_, prefix, urlPattern, sampleId) => {
    expect(rewriteForEmbeddedPrefix(prefix, { urlPattern, sampleId })).toBeNull();
  });

  it('leaves the resource alone where the reference would fail the whole answer', () => {
    // No placeholder, or one too close to the start for "PREFIX:" to precede it: Java's substring throws.
    expect(rewriteForEmbeddedPrefix('chebi', { urlPattern: 'https://x.example/CHEBI:', sampleId: '1' })).toBeNull();
    expect(rewriteForEmbeddedPrefix('chebi', { urlPattern: '{$id}', sampleId: '1' })).toBeNull();
    expect(rewriteForEmbeddedPrefix('chebi', { urlPattern: 'HEBI:{$id}', sampleId: '1' })).toBeNull();
  });

  it('leaves a resource without a sample id alone instead of writing PREFIX:null', () => {
    expect(rewriteForEmbeddedPrefix('bto', { urlPattern: 'https://x.example/BTO:{$id}', sampleId: null })).toBeNull();
  });
});

describe('the dataset JSON of a namespace', () => {
  const date = new Date('2019-06-11T14:15:50.652Z');
  const namespace: DatasetNamespaceRow = {
    id: 1, prefix: 'chebi', mirId: 'MIR:00000002', name: 'ChEBI', pattern: '^CHEBI:\\d+$', description: 'd', created: date,
    modified: date, sampleId: '36927', namespaceEmbeddedInLui: true, deprecated: false, deprecationDate: null,
    deprecationOfflineDate: null, renderDeprecatedLanding: false, deprecationStatement: null, infoOnPostmortemAccess: null,
    successorPrefix: null,
  };
  const resource = (id: number, urlPattern: string, sampleId: string | null): DatasetResourceRow => ({
    id, namespaceId: 1, mirId: `MIR:0010000${id}`, urlPattern, name: 'n', description: null, official: false, providerCode: '',
    sampleId, resourceHomeUrl: 'https://x.example', deprecated: false, deprecationDate: null, deprecationOfflineDate: null,
    renderDeprecatedLanding: false, deprecationStatement: null, protectedUrls: false, renderProtectedLanding: false,
    authHelpUrl: null, authHelpDescription: null, locationCountryCode: 'GB', locationCountryName: 'United Kingdom',
    institutionId: 9, institutionName: 'EBI', institutionHomeUrl: 'https://ebi.example', institutionDescription: 'i',
    institutionRorId: null, institutionCountryCode: 'GB', institutionCountryName: 'United Kingdom',
  });

  it('rewrites the resources it can and keeps the others as stored, in the same answer', () => {
    const json = namespaceJson(namespace, [
      resource(1, 'https://x.example/CHEBI:{$id}', '36927'),
      resource(2, 'https://x.example/no-placeholder', '36927'),
      resource(3, 'https://x.example/CHEBI:{$id}', null),
    ]);
    const rewritten = JSON.parse(json.rewritten) as { resources: { urlPattern: string; sampleId: string | null }[] };
    expect(json.rewrittenResources).toBe(1);
    expect(rewritten.resources.map((r) => [r.urlPattern, r.sampleId])).toEqual([
      ['https://x.example/{$id}', 'CHEBI:36927'],
      ['https://x.example/no-placeholder', '36927'],
      ['https://x.example/CHEBI:{$id}', null],
    ]);
    expect((JSON.parse(json.plain) as { resources: { urlPattern: string }[] }).resources[0]?.urlPattern).toBe('https://x.example/CHEBI:{$id}');
  });

  it('does not touch namespaces whose LUIs do not embed the prefix', () => {
    const json = namespaceJson({ ...namespace, namespaceEmbeddedInLui: false }, [resource(1, 'https://x.example/CHEBI:{$id}', '1')]);
    expect(json.rewritten).toBe(json.plain);
    expect(json.rewrittenResources).toBe(0);
  });
});
