import { resolveCompactId } from '../../src/core/resolve.js';
import { presentResolution, type ResolutionAnswer as ResolveResult } from '../../src/resolver/resolution.presenter.js';
import { buildSnapshot } from '../../src/core/registry-snapshot.js';
import { buildSampleSnapshot, DEPRECATION_DATE, EBI_INSTITUTION, sampleNamespaces } from '../factories/snapshot.factory.js';

const snapshot = buildSampleSnapshot();
const REGISTRY = 'https://registry.example.org';
const resolve = (raw: string): ResolveResult => presentResolution(resolveCompactId(raw, snapshot, { publicRegistryUrl: REGISTRY }));
const urls = (result: ResolveResult) => result.body.payload.resolvedResources?.map((r) => r.compactIdentifierResolvedUrl);
const ids = (result: ResolveResult) => result.body.payload.resolvedResources?.map((r) => r.id);

const RESOLVED_RESOURCE_KEYS = [
  'id',
  'mirId',
  'providerCode',
  'compactIdentifierResolvedUrl',
  'description',
  'institution',
  'location',
  'official',
  'resourceHomeUrl',
  'recommendation',
  'namespacePrefix',
  'deprecatedNamespace',
  'namespaceDeprecationDate',
  'deprecatedResource',
  'resourceDeprecationDate',
  'renderDeprecatedLanding',
  'protectedUrls',
  'renderProtectedLanding',
  'authHelpUrl',
  'authHelpDescription',
];

function expectBadRequest(raw: string, errorMessage: string): void {
  expect(resolve(raw)).toEqual({
    status: 400,
    body: { apiVersion: '1.0', errorMessage, payload: { resolvedResources: null, parsedCompactIdentifier: null } },
  });
}

function expectNotFound(raw: string, errorMessage: string): void {
  expect(resolve(raw)).toEqual({
    status: 404,
    body: { apiVersion: '1.0', errorMessage, payload: { resolvedResources: null, parsedCompactIdentifier: null } },
  });
}

describe('resolveCompactId', () => {
  describe('successful resolution', () => {
    it('answers the reference body for ebi/CHEBI:36927', () => {
      const result = resolve('ebi/CHEBI:36927');
      expect(result.status).toBe(200);
      expect(JSON.parse(JSON.stringify(result.body))).toEqual({
        apiVersion: '1.0',
        errorMessage: null,
        payload: {
          resolvedResources: [
            {
              id: 3,
              mirId: 'MIR:00100009',
              providerCode: 'ebi',
              compactIdentifierResolvedUrl: 'https://www.ebi.ac.uk/chebi/searchId.do?chebiId=CHEBI:36927',
              description: 'ChEBI (Chemical Entities of Biological Interest)',
              institution: {
                id: 2,
                name: 'European Bioinformatics Institute',
                homeUrl: 'https://www.ebi.ac.uk',
                description: EBI_INSTITUTION.description,
                rorId: 'https://ror.org/02catss52',
                location: { countryCode: 'GB', countryName: 'United Kingdom' },
              },
              location: { countryCode: 'GB', countryName: 'United Kingdom' },
              official: true,
              resourceHomeUrl: 'https://www.ebi.ac.uk/chebi/',
              recommendation: { recommendationIndex: 100, recommendationExplanation: 'Only resource available for this CID' },
              namespacePrefix: 'chebi',
              deprecatedNamespace: false,
              namespaceDeprecationDate: null,
              deprecatedResource: false,
              resourceDeprecationDate: null,
              renderDeprecatedLanding: false,
              protectedUrls: false,
              renderProtectedLanding: false,
              authHelpUrl: null,
              authHelpDescription: null,
            },
          ],
          parsedCompactIdentifier: {
            providerCode: 'ebi',
            namespace: 'chebi',
            localId: 'CHEBI:36927',
            rawRequest: 'ebi/CHEBI:36927',
            namespaceEmbeddedInLui: true,
            deprecatedNamespace: false,
            renderDeprecatedLanding: false,
            namespaceDeprecationDate: null,
          },
        },
      });
    });

    it('writes every object with the reference key order', () => {
      const { body } = resolve('ebi/CHEBI:36927');
      expect(Object.keys(body)).toEqual(['apiVersion', 'errorMessage', 'payload']);
      expect(Object.keys(body.payload)).toEqual(['resolvedResources', 'parsedCompactIdentifier']);
      const [resource] = body.payload.resolvedResources ?? [];
      expect(Object.keys(resource ?? {})).toEqual(RESOLVED_RESOURCE_KEYS);
      expect(Object.keys(resource?.recommendation ?? {})).toEqual(['recommendationIndex', 'recommendationExplanation']);
      expect(Object.keys(body.payload.parsedCompactIdentifier ?? {})).toEqual([
        'providerCode',
        'namespace',
        'localId',
        'rawRequest',
        'namespaceEmbeddedInLui',
        'deprecatedNamespace',
        'renderDeprecatedLanding',
        'namespaceDeprecationDate',
      ]);
      const [namespacePage] = resolve('taxonomy').body.payload.resolvedResources ?? [];
      expect(Object.keys(namespacePage ?? {})).toEqual(RESOLVED_RESOURCE_KEYS);
    });

    it('resolves taxonomy:9606 to every resource in dataset order', () => {
      const result = resolve('taxonomy:9606');
      expect(result.status).toBe(200);
      expect(result.body.errorMessage).toBeNull();
      expect(ids(result)).toEqual([29, 31, 32]);
      expect(urls(result)).toEqual([
        'https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?mode=Info&id=9606',
        'https://www.ebi.ac.uk/ena/data/view/Taxon:9606',
        'http://purl.bioontology.org/ontology/NCBITAXON/9606',
      ]);
      expect(result.body.payload.parsedCompactIdentifier).toMatchObject({ namespace: 'taxonomy', localId: '9606' });
    });

    it('resolves the prefix in any case and the old slash form', () => {
      for (const raw of ['Taxonomy:9606', 'taxonomy/9606', 'TAXONOMY/9606']) {
        const result = resolve(raw);
        expect(result.status).toBe(200);
        expect(ids(result)).toEqual([29, 31, 32]);
        expect(result.body.payload.resolvedResources?.[0]?.namespacePrefix).toBe('taxonomy');
      }
    });

    it('scores several resources with the recommender formula, without sorting them', () => {
      const indices = (raw: string) => resolve(raw).body.payload.resolvedResources?.map((r) => r.recommendation.recommendationIndex);
      // official non-EBI, unofficial EBI, unofficial other
      expect(indices('taxonomy:9606')).toEqual([75, 25, 20]);
      // official EBI, unofficial EBI, unofficial other
      expect(indices('CHEBI:36927')).toEqual([80, 25, 20]);
      // Issue 12: the explanation says what went into the index (the reference's is 'Function based recommendation').
      expect(resolve('taxonomy:9606').body.payload.resolvedResources?.map((r) => r.recommendation.recommendationExplanation)).toEqual([
        'official 100, no availability measured yet (counted as 50), not hosted at EBI',
        'official 0, no availability measured yet (counted as 50), hosted at EBI',
        'official 0, no availability measured yet (counted as 50), not hosted at EBI',
      ]);
    });

    it('ranks by the measured reliability the snapshot was built with', () => {
      const measured = (up: number, counted: number) => ({ up, counted, uncounted: 0, notFoundStreak: false });
      const withChecks = buildSnapshot(1, sampleNamespaces(), new Map([[29, measured(0, 4)], [31, measured(0, 4)], [32, measured(4, 4)]]));
      const result = presentResolution(resolveCompactId('taxonomy:9606', withChecks, { publicRegistryUrl: REGISTRY }));
      expect(result.body.payload.resolvedResources?.map((r) => r.recommendation.recommendationIndex)).toEqual([55, 5, 40]);
      expect(result.body.payload.resolvedResources?.[2]?.recommendation.recommendationExplanation).toBe(
        'official 0, measured availability 100 % over 7 days (4 checks), not hosted at EBI',
      );
    });

    it('answers the canonical LUI for an embedded prefix typed in lower case (improvement)', () => {
      const result = resolve('chebi:36927');
      expect(result.status).toBe(200);
      expect(result.body.payload.parsedCompactIdentifier).toMatchObject({
        namespace: 'chebi',
        localId: 'CHEBI:36927',
        rawRequest: 'chebi:36927',
      });
      expect(urls(result)?.[0]).toBe('https://www.ebi.ac.uk/chebi/searchId.do?chebiId=CHEBI:36927');
      expect(urls(resolve('go:0006915'))).toEqual(['http://amigo.geneontology.org/amigo/term/GO:0006915']);
    });

    it('resolves the legacy prefix/PREFIX:lui form', () => {
      const result = resolve('chebi/CHEBI:36927');
      expect(result.status).toBe(200);
      expect(ids(result)).toEqual([3, 4, 6]);
      expect(result.body.payload.parsedCompactIdentifier).toMatchObject({ providerCode: null, localId: 'CHEBI:36927' });
    });

    it('reads a provider code equal to a prefix as the legacy form and returns every resource', () => {
      const result = resolve('CorrDB/corrdb:37232');
      expect(result.status).toBe(200);
      expect(ids(result)).toEqual([2721, 2722]);
      expect(result.body.payload.parsedCompactIdentifier?.providerCode).toBeNull();
      expect(urls(result)?.[0]).toBe('https://www.animalgenome.org/CorrDB/q/?id=CorrID:37232');
    });

    it('keeps only the resources of the given provider code', () => {
      const result = resolve('ncbi/taxonomy:9606');
      expect(ids(result)).toEqual([29]);
      expect(result.body.payload.resolvedResources?.[0]?.recommendation.recommendationIndex).toBe(100);
      expect(ids(resolve('ncbi/taxonomy/9606'))).toEqual([29]);
    });

    it('does not filter on an empty provider code', () => {
      const result = resolve('/taxonomy:9606');
      expect(result.status).toBe(200);
      expect(ids(result)).toEqual([29, 31, 32]);
      expect(result.body.payload.parsedCompactIdentifier?.providerCode).toBe('');
    });

    it('treats a whitespace provider code as none, but a no-break space as a code, like Spring hasText', () => {
      expect(ids(resolve(' /taxonomy:9606'))).toEqual([29, 31, 32]);
      expect(resolve('\u00a0/taxonomy:9606').status).toBe(404);
    });

    it('resolves a DOI whose LUI contains a slash', () => {
      const result = resolve('doi:10.1038/nbt1156');
      expect(result.status).toBe(200);
      expect(urls(result)).toEqual(['https://doi.org/10.1038/nbt1156']);
    });

    it('resolves m4i: with an empty id because its pattern accepts it', () => {
      const result = resolve('m4i:');
      expect(result.status).toBe(200);
      expect(result.body.payload.parsedCompactIdentifier?.localId).toBe('');
      expect(urls(result)).toEqual(['http://w3id.org/nfdi4ing/metadata4ing#']);
    });

    it('resolves a lower-case embedded namespace, cutting the prefix for the URL', () => {
      const result = resolve('did:sov:WRfXPg8dantKVubE3HX8pw');
      expect(result.status).toBe(200);
      expect(urls(result)).toEqual(['https://uniresolver.io/#did:sov:WRfXPg8dantKVubE3HX8pw']);
    });

    it('resolves a numeric prefix', () => {
      const result = resolve('4503:0a1b2c3d-0000-1111-2222-333344445555');
      expect(result.status).toBe(200);
      expect(urls(result)).toEqual(['https://gen3.example.org/ga4gh/drs/v1/objects/0a1b2c3d-0000-1111-2222-333344445555']);
    });

    it('resolves a deprecated namespace and copies its flags onto the resources', () => {
      const result = resolve('3dmet:B00162');
      expect(result.status).toBe(200);
      expect(result.body.payload.parsedCompactIdentifier).toMatchObject({
        deprecatedNamespace: true,
        renderDeprecatedLanding: true,
        namespaceDeprecationDate: DEPRECATION_DATE,
      });
      expect(result.body.payload.resolvedResources?.[0]).toMatchObject({
        deprecatedNamespace: true,
        renderDeprecatedLanding: true,
        namespaceDeprecationDate: DEPRECATION_DATE,
        deprecatedResource: false,
        recommendation: { recommendationIndex: 100, recommendationExplanation: 'Only resource available for this CID' },
      });
    });

    it('gives every resource of a deprecated namespace index 0 when there are several', () => {
      const result = resolve('oldns:1');
      expect(result.body.payload.resolvedResources?.map((r) => r.recommendation.recommendationIndex)).toEqual([0, 0]);
    });

    it('includes deprecated resources, with index 0 and their own landing flag', () => {
      const result = resolve('ec-code:1.1.1.1');
      expect(result.status).toBe(200);
      expect(result.body.payload.resolvedResources).toEqual([
        expect.objectContaining({
          id: 300,
          deprecatedResource: true,
          resourceDeprecationDate: DEPRECATION_DATE,
          renderDeprecatedLanding: true,
          recommendation: { recommendationIndex: 0, recommendationExplanation: 'deprecated resource' },
        }),
        expect.objectContaining({ id: 301, deprecatedResource: false, renderDeprecatedLanding: false }),
      ]);
    });

    it('copies the protection fields of a resource', () => {
      const [resource] = resolve('protectedns:1').body.payload.resolvedResources ?? [];
      expect(resource).toMatchObject({
        protectedUrls: true,
        renderProtectedLanding: true,
        authHelpUrl: 'https://vault.example.org/access',
        authHelpDescription: 'Request access first.',
      });
    });
  });

  describe('bare namespace', () => {
    it('resolves to the registry page of the namespace', () => {
      const result = resolve('taxonomy');
      expect(result).toEqual({
        status: 200,
        body: {
          apiVersion: '1.0',
          errorMessage: null,
          payload: {
            resolvedResources: [
              {
                id: 0,
                mirId: null,
                providerCode: 'ebi',
                compactIdentifierResolvedUrl: 'https://registry.example.org/registry/taxonomy',
                description: 'Namespace resolution to identifiers.org Central Registry',
                institution: {
                  id: 0,
                  name: 'EMBL-EBI',
                  homeUrl: 'https://www.ebi.ac.uk/',
                  description: 'Identifiers.org Central Registry',
                  rorId: null,
                  location: { countryCode: 'GB', countryName: 'United Kingdom' },
                },
                location: { countryCode: 'GB', countryName: 'United Kingdom' },
                official: true,
                resourceHomeUrl: 'https://registry.example.org',
                recommendation: {
                  recommendationIndex: 100,
                  recommendationExplanation: 'Namespace resolution to identifiers.org Central Registry',
                },
                namespacePrefix: null,
                deprecatedNamespace: false,
                namespaceDeprecationDate: null,
                deprecatedResource: false,
                resourceDeprecationDate: null,
                renderDeprecatedLanding: false,
                protectedUrls: false,
                renderProtectedLanding: false,
                authHelpUrl: null,
                authHelpDescription: null,
              },
            ],
            parsedCompactIdentifier: {
              providerCode: null,
              namespace: 'taxonomy',
              localId: null,
              rawRequest: 'taxonomy',
              namespaceEmbeddedInLui: false,
              deprecatedNamespace: false,
              renderDeprecatedLanding: false,
              namespaceDeprecationDate: null,
            },
          },
        },
      });
    });

    it('echoes the namespace as typed but links to the registry prefix', () => {
      const result = resolve('Taxonomy');
      expect(result.status).toBe(200);
      expect(result.body.payload.parsedCompactIdentifier?.namespace).toBe('Taxonomy');
      expect(urls(result)).toEqual(['https://registry.example.org/registry/taxonomy']);
    });

    it('does not double the slash when the registry URL ends with one', () => {
      const result = presentResolution(resolveCompactId('taxonomy', snapshot, { publicRegistryUrl: 'https://registry.example.org/' }));
      expect(urls(result)).toEqual(['https://registry.example.org/registry/taxonomy']);
      expect(result.body.payload.resolvedResources?.[0]?.resourceHomeUrl).toBe('https://registry.example.org');
    });

    it('resolves a namespace that has no resources to its page', () => {
      expect(resolve('emptyns').status).toBe(200);
    });
  });

  describe('not resolved (400)', () => {
    it('answers an unknown prefix with both messages', () => {
      expectBadRequest(
        'foo:bar',
        "Resolution request 'foo:bar' is NOT A NAMESPACE; INVALID Compact Identifier resolution request for 'foo:bar'",
      );
    });

    it('answers a LUI that does not match the pattern with the pattern verbatim', () => {
      expectBadRequest(
        'taxonomy:abc',
        "Resolution request 'taxonomy:abc' is NOT A NAMESPACE; For namespace 'taxonomy', provided local ID 'abc' DOES NOT MATCH local IDs definition pattern '^\\d+$'",
      );
    });

    it('serialises the mismatch error like the reference example', () => {
      expect(JSON.stringify(resolve('taxonomy:abc').body)).toBe(
        '{"apiVersion":"1.0","errorMessage":"Resolution request \'taxonomy:abc\' is NOT A NAMESPACE; For namespace \'taxonomy\', provided local ID \'abc\' DOES NOT MATCH local IDs definition pattern \'^\\\\d+$\'","payload":{"resolvedResources":null,"parsedCompactIdentifier":null}}',
      );
    });

    it('rejects a trailing slash, which becomes part of the LUI', () => {
      expectBadRequest(
        'taxonomy:9606/',
        "Resolution request 'taxonomy:9606/' is NOT A NAMESPACE; For namespace 'taxonomy', provided local ID '9606/' DOES NOT MATCH local IDs definition pattern '^\\d+$'",
      );
    });

    it('rejects an embedded LUI written with a slash', () => {
      expectBadRequest(
        'CHEBI/36927',
        "Resolution request 'CHEBI/36927' is NOT A NAMESPACE; For namespace 'chebi', provided local ID 'CHEBI/36927' DOES NOT MATCH local IDs definition pattern '^CHEBI:\\d+$'",
      );
      expectBadRequest(
        'provider/go/0006915',
        "Resolution request 'provider/go/0006915' is NOT A NAMESPACE; For namespace 'go', provided local ID 'go/0006915' DOES NOT MATCH local IDs definition pattern '^GO:\\d{7}$'",
      );
    });

    it('rejects URN forms', () => {
      expectBadRequest(
        'urn:miriam:uniprot:P12345',
        "Resolution request 'urn:miriam:uniprot:P12345' is NOT A NAMESPACE; INVALID Compact Identifier resolution request for 'urn:miriam:uniprot:P12345'",
      );
    });

    it('rejects an empty LUI when the pattern does', () => {
      expect(resolve('uniprot:').status).toBe(400);
      expect(resolve('uniprot/').status).toBe(400);
    });

    it('validates the whole LUI against an alternation pattern', () => {
      expect(resolve('uniprot:P0DP23').status).toBe(200);
      expect(resolve('uniprot:A1BCD2junk').status).toBe(400);
    });

    it('rejects a word that is no namespace', () => {
      expectBadRequest(
        'nothing',
        "Resolution request 'nothing' is NOT A NAMESPACE; INVALID Compact Identifier resolution request for 'nothing'",
      );
    });

    it('answers 400 instead of throwing when the registry pattern does not compile', () => {
      expect(() => resolve('broken:unclosed')).not.toThrow();
      expect(resolve('broken:unclosed').status).toBe(400);
    });

    it('rejects an overlong LUI without running the pattern', () => {
      expect(resolve('taxonomy:' + '9'.repeat(5000)).status).toBe(400);
    });
  });

  describe('resolved without resources (404)', () => {
    it('names the provider code that matched no resource, case-sensitively', () => {
      expectNotFound(
        'NCBI/taxonomy:9606',
        "For Compact ID 'NCBI/taxonomy:9606', prefix 'taxonomy', NO RESOURCES FOUND with PROVIDER CODE 'NCBI'",
      );
    });

    it('reports a namespace without resources', () => {
      expectNotFound('emptyns:1', "No providers found for Compact ID 'emptyns:1'");
    });
  });
});
