/**
 * schema.org JSON-LD, in the shape the reference serves (web pages embed it): the platform as a
 * DataCatalog, a namespace as that catalog plus a Dataset. URLs point at this deployment.
 * Unlike the reference, the context is schema.org's https address and the catalog has an `@id` (the
 * registry's home), so the catalog of every namespace answer is one and the same node once expanded.
 */
export const SCHEMA_ORG_CONTEXT = 'https://schema.org';
export interface SchemaOrgUrls {
  publicResolverUrl: string;
  publicRegistryUrl: string;
}

export function platformMetadata(urls: SchemaOrgUrls) {
  return {
    '@context': SCHEMA_ORG_CONTEXT,
    '@id': `${urls.publicRegistryUrl}/`,
    '@type': 'DataCatalog',
    name: 'Compact Identifier Registry',
    description:
      'The registry contains registered namespace and provider prefixes with associated access URIs for a large number of high quality data collections. These prefixes are used in web resolution of compact identifiers of the form "PREFIX:ACCESSION" commonly used to specify bioinformatics and other data resources.',
    url: `${urls.publicResolverUrl}/`,
    keywords: 'registry,life sciences,compact identifier',
    provider: {
      '@type': 'Organization',
      name: 'Compact Identifier Registry operators',
      url: `${urls.publicRegistryUrl}/`,
    },
    license: {
      '@type': 'CreativeWork',
      name: 'Creative Commons CC4 Attribution',
      url: 'https://creativecommons.org/licenses/by/4.0/',
    },
    publication: [
      {
        '@type': 'PublicationEvent',
        name: 'Uniform Resolution of Compact Identifiers for Biomedical Data',
        url: 'http://biorxiv.org/content/early/2017/01/18/101279',
      },
      {
        '@type': 'PublicationEvent',
        name: 'Identifiers.org and MIRIAM Registry: community resources to provide persistent identification.',
        url: `${urls.publicResolverUrl}/pubmed:22140103`,
      },
    ],
    alternateName: ['Compact Identifier Central Registry'],
  };
}

export function namespaceMetadata(urls: SchemaOrgUrls, ns: { prefix: string; name: string; description: string }) {
  const page = `${urls.publicRegistryUrl}/registry/${ns.prefix}`;
  return {
    ...platformMetadata(urls),
    dataset: {
      '@type': 'Dataset',
      name: ns.name,
      description: ns.description,
      url: page,
      keywords: `registry,life sciences,compact identifier, ${ns.prefix}`,
      '@id': page,
    },
  };
}
