/**
 * Example values shared by several operations, taken from the sample registry (seeds/sample-registry.json)
 * so that the route-table test can ask with them and get real answers. Every example is checked against
 * its schema (test/unit/openapi-document.test.ts).
 */

export const PUBLIC_RESOLVER = 'https://resolver.example.org';
export const PUBLIC_REGISTRY = 'https://registry.example.org';

const EBI_LOCATION = { countryCode: 'GB', countryName: 'United Kingdom' };
const EBI = {
  id: 2,
  name: 'European Bioinformatics Institute',
  homeUrl: 'https://www.ebi.ac.uk',
  description: 'At EMBL-EBI, we help scientists realise the potential of big data in biology.',
  rorId: 'https://ror.org/02catss52',
  location: EBI_LOCATION,
};

export const RESOLVED_RESOURCE = {
  id: 3,
  mirId: 'MIR:00100009',
  providerCode: 'ebi',
  compactIdentifierResolvedUrl: 'https://www.ebi.ac.uk/chebi/searchId.do?chebiId=CHEBI:36927',
  description: 'ChEBI (Chemical Entities of Biological Interest)',
  institution: EBI,
  location: EBI_LOCATION,
  official: true,
  resourceHomeUrl: 'https://www.ebi.ac.uk/chebi/',
  recommendation: { recommendationIndex: 80, recommendationExplanation: 'Function based recommendation' },
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
};

export const PARSED_COMPACT_IDENTIFIER = {
  providerCode: 'ebi',
  namespace: 'chebi',
  localId: 'CHEBI:36927',
  rawRequest: 'ebi/CHEBI:36927',
  namespaceEmbeddedInLui: true,
  deprecatedNamespace: false,
  renderDeprecatedLanding: false,
  namespaceDeprecationDate: null,
};

export const RESOLUTION = {
  apiVersion: '1.0',
  errorMessage: null,
  payload: { resolvedResources: [RESOLVED_RESOURCE], parsedCompactIdentifier: PARSED_COMPACT_IDENTIFIER },
};

export const RESOLUTION_FAILED = {
  apiVersion: '1.0',
  errorMessage:
    "Resolution request 'taxonomy:abc' is NOT A NAMESPACE; For namespace 'taxonomy', provided local ID 'abc' DOES NOT MATCH local IDs definition pattern '^\\d+$'",
  payload: { resolvedResources: null, parsedCompactIdentifier: null },
};

export const REVERSE_MATCH = {
  prefix: 'ncbigene',
  possible_resolver_url: `${PUBLIC_RESOLVER}/ncbigene:100010`,
  possible_resolver_curie: 'ncbigene:100010',
  lui_pattern_match: true,
  similarity_score: 100.0,
};

export const REFERENCE_DATE_EXAMPLE = '2019-06-11T14:15:50.652+00:00';

/** Sample-registry values the operations' parameters use. */
export const SAMPLE = {
  namespaceId: 28,
  prefix: 'taxonomy',
  namespaceMirId: 'MIR:00000006',
  resourceId: 29,
  resourceMirId: 'MIR:00100007',
  providerCode: 'ncbi',
  institutionId: 26,
  institutionName: 'National Center for Biotechnology Information',
  countryCode: 'US',
  compactId: 'taxonomy:9606',
  deprecatedCompactId: '3dmet:B00162',
} as const;

export const LINK = (path: string) => ({ href: `${PUBLIC_REGISTRY}/restApi/${path}` });

export const ERROR = (errorMessage: string) => ({ apiVersion: '1.0', errorMessage, payload: null });
