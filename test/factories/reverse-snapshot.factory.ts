/**
 * A small registry for reverse-lookup tests. URL patterns and LUI patterns follow the public registry where
 * the spec's examples use them (taxonomy, ncbigene, pubmed, chebi, lrg, kegg, uniprot); the rest is invented
 * to reach a rule (a shared key, a longer key, deprecation). Namespaces are listed out of prefix order on
 * purpose: the index must not depend on the order it is given.
 */
import {
  buildSnapshot,
  type LocationView,
  type NamespaceEntry,
  type RegistrySnapshot,
  type ResourceEntry,
} from '../../src/core/registry-snapshot.js';
import { seededRandom } from '../../bench/lib/workload.js';
import { aNamespace, aResource } from './snapshot.factory.js';

const NOWHERE: LocationView = { countryCode: 'GB', countryName: 'United Kingdom' };

export function reverseResource(id: number, urlPattern: string, overrides: Partial<ResourceEntry> = {}): ResourceEntry {
  return aResource({
    id,
    urlPattern,
    description: null,
    providerCode: `p${id}`,
    institution: { id: 1, name: 'Institute', homeUrl: 'https://institute.example.org', description: '', rorId: null, location: NOWHERE },
    location: NOWHERE,
    ...overrides,
  });
}

export function reverseNamespace(
  id: number,
  prefix: string,
  pattern: string,
  resources: ResourceEntry[],
  overrides: Partial<NamespaceEntry> = {},
): NamespaceEntry {
  return aNamespace({ id, prefix, pattern, resources, ...overrides });
}

export function reverseNamespaces(): NamespaceEntry[] {
  return [
    reverseNamespace(40, 'uniprot.any', '^\\S+$', [reverseResource(401, 'https://www.uniprot.org/{$id}')]),
    reverseNamespace(9, 'uniprot', '^([OPQ][0-9][A-Z0-9]{3}[0-9])|([A-NR-Z][0-9]([A-Z][A-Z0-9]{2}[0-9]){1,2})$', [
      reverseResource(91, 'https://www.uniprot.org/uniprotkb/{$id}/entry'),
    ]),
    reverseNamespace(8, 'kegg.drug', '^D\\d+$', [reverseResource(81, 'https://www.kegg.jp/entry/{$id}')]),
    reverseNamespace(7, 'kegg.compound', '^C\\d+$', [reverseResource(71, 'https://www.kegg.jp/entry/{$id}')]),
    reverseNamespace(6, 'lrg', '^LRG_\\d+$', [reverseResource(61, 'http://ftp.ebi.ac.uk/pub/databases/lrgex/{$id}.xml')]),
    reverseNamespace(
      5,
      'chebi',
      '^CHEBI:\\d+$',
      [
        reverseResource(51, 'https://www.ebi.ac.uk/chebi/searchId.do?chebiId=CHEBI:{$id}'),
        reverseResource(52, 'https://www.ebi.ac.uk/ols4/ontologies/chebi/terms?obo_id=CHEBI:{$id}'),
      ],
      { namespaceEmbeddedInLui: true },
    ),
    // Embedded, but its URLs carry only the part after `GO_REF:` (resolution cuts the LUI at its colon).
    reverseNamespace(4, 'go_ref', '^GO_REF:\\d{7}$', [reverseResource(41, 'https://www.geneontology.org/GO_REF/{$id}')], {
      namespaceEmbeddedInLui: true,
    }),
    reverseNamespace(3, 'pubmed', '^\\d+$', [
      reverseResource(31, 'https://pubmed.ncbi.nlm.nih.gov/{$id}'),
      reverseResource(32, 'https://www.ncbi.nlm.nih.gov/pubmed/{$id}', { deprecated: true }),
    ]),
    reverseNamespace(2, 'ncbigene', '^\\d+$', [reverseResource(21, 'https://www.ncbi.nlm.nih.gov/gene/{$id}')]),
    reverseNamespace(1, 'taxonomy', '^\\d+$', [
      reverseResource(11, 'https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?mode=Info&id={$id}'),
    ]),
    // Two patterns of one provider: the reference answers `miriam.resource:MIR:00100005` from the shorter key.
    reverseNamespace(12, 'miriam.resource', '^MIR:001\\d{5}$', [
      reverseResource(121, 'https://resolver.api.identifiers.org/resolveMirId/{$id}'),
    ]),
    reverseNamespace(11, 'mir', '^MIR:\\d{8}$', [reverseResource(111, 'https://resolver.api.identifiers.org/resolveMirId/MIR:{$id}')], {
      namespaceEmbeddedInLui: true,
    }),
    // A one-letter id that also occurs in the host.
    reverseNamespace(10, 'bigg.compartment', '^[a-z_A-Z]+$', [reverseResource(101, 'http://bigg.ucsd.edu/compartments/{$id}')]),
    reverseNamespace(99, 'oldgene', '^\\d+$', [reverseResource(991, 'https://old.example.org/gene/{$id}')], {
      deprecated: true,
    }),
  ];
}

export function buildReverseSnapshot(): RegistrySnapshot {
  return buildSnapshot(1, reverseNamespaces());
}

// mulberry32, the benchmarks' too: the same pseudo-random sequence on every run, so generated cases are reproducible.
export { seededRandom } from '../../bench/lib/workload.js';

/**
 * A few hundred namespaces made by varying the fixture's patterns (hosts, path segments, suffixes, embedded
 * prefixes), so that many entries compete for the five nearest places.
 */
export function buildCrowdedReverseSnapshot(namespaceCount: number, seed = 7): RegistrySnapshot {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const hosts = ['www.ncbi.nlm.nih.gov', 'pubmed.ncbi.nlm.nih.gov', 'www.ebi.ac.uk', 'www.kegg.jp', 'ftp.ebi.ac.uk', 'example.org'];
  const segments = ['gene', 'entry', 'ols4/ontologies', 'chebi', 'Taxonomy/Browser', 'pub/databases', 'term', 'db'];
  const tails = ['', '', '', '.xml', '/entry', '#summary'];
  const namespaces: NamespaceEntry[] = [];
  for (let n = 0; n < namespaceCount; n++) {
    const prefix = `ns${n}`;
    const embedded = random() < 0.15;
    const resources: ResourceEntry[] = [];
    const resourceCount = 1 + Math.floor(random() * 3);
    for (let r = 0; r < resourceCount; r++) {
      const scheme = random() < 0.5 ? 'https://' : 'http://';
      const query = random() < 0.3 ? `?${pick(['id', 'acc', 'term'])}=` : '/';
      const marker = embedded ? `${prefix.toUpperCase()}:` : '';
      const url = `${scheme}${pick(hosts)}/${pick(segments)}/${prefix}${query}${marker}{$id}${pick(tails)}`;
      resources.push(reverseResource(n * 10 + r, url, { deprecated: random() < 0.05 }));
    }
    namespaces.push(
      reverseNamespace(1000 + n, prefix, embedded ? `^${prefix.toUpperCase()}:\\d+$` : '^\\d+$', resources, {
        namespaceEmbeddedInLui: embedded,
        deprecated: random() < 0.05,
      }),
    );
  }
  return buildSnapshot(2, namespaces);
}
