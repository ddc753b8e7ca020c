/**
 * A small registry snapshot for unit tests of resolution. Values follow the public registry where the spec's
 * worked examples depend on them (chebi, taxonomy, corrdb, 3dmet, ...); the rest is invented to reach every
 * rule (empty namespace, broken pattern, protected URLs).
 */

import {
  buildSnapshot,
  UNRANKED,
  type InstitutionView,
  type LocationView,
  type NamespaceEntry,
  type RegistrySnapshot,
  type ResourceEntry,
} from '../../src/core/registry-snapshot.js';

export const DEPRECATION_DATE = '2024-02-12T09:35:45.473+00:00';

const UNITED_KINGDOM: LocationView = { countryCode: 'GB', countryName: 'United Kingdom' };
const UNITED_STATES: LocationView = { countryCode: 'US', countryName: 'United States' };

export const EBI_INSTITUTION: InstitutionView = {
  id: 2,
  name: 'European Bioinformatics Institute',
  homeUrl: 'https://www.ebi.ac.uk',
  description: 'At EMBL-EBI, we make the world’s public biological data freely available.',
  rorId: 'https://ror.org/02catss52',
  location: UNITED_KINGDOM,
};

const NCBI_INSTITUTION: InstitutionView = {
  id: 5,
  name: 'National Center for Biotechnology Information',
  homeUrl: 'https://www.ncbi.nlm.nih.gov',
  description: 'NCBI',
  rorId: null,
  location: UNITED_STATES,
};

/** A resource entry; buildSnapshot ranks it (its recommendation) from the measurements it is given. */
export function aResource(
  overrides: Partial<Omit<ResourceEntry, 'recommendation' | 'recommendationIfEbiHosted'>> & Pick<ResourceEntry, 'id' | 'urlPattern'>,
): ResourceEntry {
  return {
    ...UNRANKED,
    mirId: `MIR:${String(100000 + overrides.id).padStart(8, '0')}`,
    name: `Resource ${overrides.id}`,
    description: `Resource ${overrides.id} description`,
    official: false,
    providerCode: '',
    sampleId: null,
    resourceHomeUrl: `https://provider-${overrides.id}.example.org/`,
    institution: NCBI_INSTITUTION,
    location: UNITED_STATES,
    deprecated: false,
    deprecationDate: null,
    renderDeprecatedLanding: false,
    protectedUrls: false,
    renderProtectedLanding: false,
    authHelpUrl: null,
    authHelpDescription: null,
    ...overrides,
  };
}

export function aNamespace(
  overrides: Partial<NamespaceEntry> & Pick<NamespaceEntry, 'id' | 'prefix' | 'pattern'>,
): NamespaceEntry {
  return {
    mirId: `MIR:${String(overrides.id).padStart(8, '0')}`,
    name: `${overrides.prefix} namespace`,
    sampleId: '1',
    namespaceEmbeddedInLui: false,
    deprecated: false,
    deprecationDate: null,
    renderDeprecatedLanding: false,
    resources: [],
    ...overrides,
  };
}

export function sampleNamespaces(): NamespaceEntry[] {
  return [
    aNamespace({
      id: 6,
      prefix: 'taxonomy',
      pattern: '^\\d+$',
      resources: [
        aResource({
          id: 29,
          providerCode: 'ncbi',
          official: true,
          urlPattern: 'https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?mode=Info&id={$id}',
        }),
        aResource({
          id: 31,
          providerCode: 'ebi',
          urlPattern: 'https://www.ebi.ac.uk/ena/data/view/Taxon:{$id}',
          institution: EBI_INSTITUTION,
          location: UNITED_KINGDOM,
        }),
        aResource({ id: 32, providerCode: 'bptl', urlPattern: 'http://purl.bioontology.org/ontology/NCBITAXON/{$id}' }),
      ],
    }),
    aNamespace({
      id: 5,
      prefix: 'uniprot',
      pattern:
        '^([A-N,R-Z][0-9]([A-Z][A-Z, 0-9][A-Z, 0-9][0-9]){1,2})|([O,P,Q][0-9][A-Z, 0-9][A-Z, 0-9][A-Z, 0-9][0-9])(\\.\\d+)?(-\\d+)?(#PRO_\\d+)?$',
      resources: [
        aResource({ id: 25, official: true, urlPattern: 'http://purl.uniprot.org/uniprot/{$id}' }),
        aResource({ id: 27, providerCode: 'ncbi', urlPattern: 'https://www.ncbi.nlm.nih.gov/protein/{$id}' }),
      ],
    }),
    aNamespace({
      id: 2,
      prefix: 'chebi',
      pattern: '^CHEBI:\\d+$',
      namespaceEmbeddedInLui: true,
      resources: [
        aResource({
          id: 3,
          mirId: 'MIR:00100009',
          providerCode: 'ebi',
          official: true,
          description: 'ChEBI (Chemical Entities of Biological Interest)',
          urlPattern: 'https://www.ebi.ac.uk/chebi/searchId.do?chebiId=CHEBI:{$id}',
          resourceHomeUrl: 'https://www.ebi.ac.uk/chebi/',
          institution: EBI_INSTITUTION,
          location: UNITED_KINGDOM,
        }),
        aResource({
          id: 4,
          providerCode: 'ols',
          urlPattern: 'https://www.ebi.ac.uk/ols4/ontologies/chebi/terms?obo_id=CHEBI:{$id}',
          institution: EBI_INSTITUTION,
          location: UNITED_KINGDOM,
        }),
        aResource({ id: 6, providerCode: 'bptl', urlPattern: 'http://purl.bioontology.org/ontology/CHEBI/CHEBI:{$id}' }),
      ],
    }),
    aNamespace({
      id: 22,
      prefix: 'go',
      pattern: '^GO:\\d{7}$',
      namespaceEmbeddedInLui: true,
      resources: [
        aResource({ id: 90, providerCode: 'amigo', official: true, urlPattern: 'http://amigo.geneontology.org/amigo/term/GO:{$id}' }),
      ],
    }),
    aNamespace({
      id: 19,
      prefix: 'doi',
      pattern: '^10.\\d{2,9}/.*$',
      resources: [aResource({ id: 77, official: true, urlPattern: 'https://doi.org/{$id}' })],
    }),
    aNamespace({
      id: 700,
      prefix: 'corrdb',
      pattern: '^[0-9]+$',
      resources: [
        aResource({ id: 2721, providerCode: 'CorrDB', official: true, urlPattern: 'https://www.animalgenome.org/CorrDB/q/?id=CorrID:{$id}' }),
        aResource({ id: 2722, providerCode: 'mirror', urlPattern: 'https://mirror.example.org/corrdb/{$id}' }),
      ],
    }),
    aNamespace({
      id: 120,
      prefix: '3dmet',
      pattern: '^B\\d{5}$',
      deprecated: true,
      deprecationDate: DEPRECATION_DATE,
      renderDeprecatedLanding: true,
      resources: [
        aResource({ id: 232, providerCode: 'nias', urlPattern: 'http://www.3dmet.dna.affrc.go.jp/cgi/show_data.php?acc={$id}' }),
      ],
    }),
    aNamespace({
      id: 121,
      prefix: 'oldns',
      pattern: '^\\d+$',
      deprecated: true,
      deprecationDate: DEPRECATION_DATE,
      resources: [
        aResource({ id: 240, providerCode: 'first', urlPattern: 'https://first.example.org/{$id}' }),
        aResource({ id: 241, providerCode: 'second', official: true, urlPattern: 'https://second.example.org/{$id}' }),
      ],
    }),
    aNamespace({
      id: 130,
      prefix: 'ec-code',
      pattern: '^\\d+\\.\\d+\\.\\d+\\.\\d+$',
      resources: [
        aResource({
          id: 300,
          providerCode: 'expasy',
          official: true,
          deprecated: true,
          deprecationDate: DEPRECATION_DATE,
          renderDeprecatedLanding: true,
          urlPattern: 'https://enzyme.expasy.org/EC/{$id}',
        }),
        aResource({ id: 301, providerCode: 'intenz', urlPattern: 'https://www.ebi.ac.uk/intenz/query?cmd=SearchEC&ec={$id}' }),
      ],
    }),
    aNamespace({
      id: 131,
      prefix: 'mesh.2012',
      pattern: '^\\d+$',
      resources: [
        aResource({ id: 310, providerCode: 'a', deprecated: true, deprecationDate: DEPRECATION_DATE, urlPattern: 'https://a.example.org/{$id}' }),
        aResource({
          id: 311,
          providerCode: 'b',
          deprecated: true,
          deprecationDate: DEPRECATION_DATE,
          renderDeprecatedLanding: true,
          urlPattern: 'https://b.example.org/{$id}',
        }),
      ],
    }),
    aNamespace({
      id: 800,
      prefix: '4503',
      pattern: '^[0-9a-fA-F]{8}\\-[0-9a-fA-F]{4}\\-[0-9a-fA-F]{4}\\-[0-9a-fA-F]{4}\\-[0-9a-fA-F]{12}$',
      resources: [aResource({ id: 4600, providerCode: 'gen3', urlPattern: 'https://gen3.example.org/ga4gh/drs/v1/objects/{$id}' })],
    }),
    aNamespace({
      id: 900,
      prefix: 'm4i',
      pattern: '[A-Za-z_0-9]*',
      resources: [aResource({ id: 4554, providerCode: 'rwth', official: true, urlPattern: 'http://w3id.org/nfdi4ing/metadata4ing#{$id}' })],
    }),
    aNamespace({
      id: 901,
      prefix: 'did',
      pattern: '^did:[a-z0-9]+:[A-Za-z0-9.\\-:]+$',
      namespaceEmbeddedInLui: true,
      resources: [aResource({ id: 1915, official: true, urlPattern: 'https://uniresolver.io/#did:{$id}' })],
    }),
    aNamespace({ id: 950, prefix: 'emptyns', pattern: '^\\d+$', resources: [] }),
    aNamespace({
      id: 951,
      prefix: 'broken',
      pattern: '^(unclosed$',
      resources: [aResource({ id: 5000, urlPattern: 'https://broken.example.org/{$id}' })],
    }),
    aNamespace({
      id: 952,
      prefix: 'protectedns',
      pattern: '^\\d+$',
      resources: [
        aResource({
          id: 5100,
          providerCode: 'vault',
          official: true,
          protectedUrls: true,
          renderProtectedLanding: true,
          authHelpUrl: 'https://vault.example.org/access',
          authHelpDescription: 'Request access first.',
          urlPattern: 'https://vault.example.org/{$id}',
        }),
        aResource({ id: 5101, providerCode: 'open', urlPattern: 'https://open.example.org/{$id}' }),
      ],
    }),
  ];
}

/** A fresh snapshot per call, so no test sees caches keyed by another test's entries. */
export function buildSampleSnapshot(): RegistrySnapshot {
  return buildSnapshot(1, sampleNamespaces());
}
