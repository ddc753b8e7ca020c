import { DataFactory, type NamedNode, type Quad, type Quad_Object } from 'n3';
import type { DatasetNamespaceRow, DatasetResourceRow } from './dataset.presenter.js';
import {
  institutionItemBase,
  isWritableIri,
  namespacePageBase,
  namespacePageUrl,
  resourceItemBase,
  uriPrefixOf,
  type ExportUrls,
} from './export-uris.js';

const { namedNode, literal, quad } = DataFactory;

/**
 * The vocabularies of the RDF exports: Dublin Core terms for what anything is called and when it changed,
 * identifiers.org's own idot terms and VoID for prefixes, patterns and URI spaces (as identifiers.org's RDF
 * and the HCLS dataset descriptions use them), FOAF for home pages and organisations, OWL for deprecation.
 */
export const RDF_VOCABULARIES = {
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
  owl: 'http://www.w3.org/2002/07/owl#',
  dcterms: 'http://purl.org/dc/terms/',
  dctypes: 'http://purl.org/dc/dcmitype/',
  idot: 'http://identifiers.org/idot/',
  void: 'http://rdfs.org/ns/void#',
  foaf: 'http://xmlns.com/foaf/0.1/',
} as const;

const term = (vocabulary: keyof typeof RDF_VOCABULARIES, name: string): NamedNode => namedNode(RDF_VOCABULARIES[vocabulary] + name);

const T = {
  type: term('rdf', 'type'),
  dateTime: term('xsd', 'dateTime'),
  boolean: term('xsd', 'boolean'),
  deprecated: term('owl', 'deprecated'),
  sameAs: term('owl', 'sameAs'),
  identifier: term('dcterms', 'identifier'),
  title: term('dcterms', 'title'),
  description: term('dcterms', 'description'),
  created: term('dcterms', 'created'),
  modified: term('dcterms', 'modified'),
  isReplacedBy: term('dcterms', 'isReplacedBy'),
  isPartOf: term('dcterms', 'isPartOf'),
  publisher: term('dcterms', 'publisher'),
  Dataset: term('dctypes', 'Dataset'),
  preferredPrefix: term('idot', 'preferredPrefix'),
  alternatePrefix: term('idot', 'alternatePrefix'),
  identifierPattern: term('idot', 'identifierPattern'),
  exampleIdentifier: term('idot', 'exampleIdentifier'),
  accessPattern: term('idot', 'accessPattern'),
  AccessPattern: term('idot', 'AccessPattern'),
  accessIdentifierPattern: term('idot', 'accessIdentifierPattern'),
  uriSpace: term('void', 'uriSpace'),
  exampleResource: term('void', 'exampleResource'),
  homepage: term('foaf', 'homepage'),
  name: term('foaf', 'name'),
  Organization: term('foaf', 'Organization'),
} as const;

const TRUE = literal('true', T.boolean);

/** Turtle's prefixes: the vocabularies, and the registry's own URIs of namespaces, resources and institutions. */
export function rdfPrefixes(urls: ExportUrls): Record<string, string> {
  return {
    ...RDF_VOCABULARIES,
    registry: namespacePageBase(urls.publicRegistryUrl),
    resource: resourceItemBase(urls.publicRegistryUrl),
    institution: institutionItemBase(urls.publicRegistryUrl),
  };
}

/** A namespace and what its RDF says with it. */
export interface RdfNamespace {
  row: DatasetNamespaceRow;
  resources: readonly DatasetResourceRow[];
  synonyms: readonly string[];
}

/**
 * The triples describing namespaces: the namespace (its page's URI), each resource (its HAL item's URI, an
 * idot:AccessPattern) and each resource's institution, written once per document: `institutionsWritten`
 * carries the ones already written from one call to the next.
 */
export class RegistryRdf {
  constructor(private readonly urls: ExportUrls) {}

  namespaceQuads(ns: RdfNamespace, institutionsWritten: Set<number>): Quad[] {
    const { row } = ns;
    const registry = this.urls.publicRegistryUrl;
    const subject = namedNode(namespacePageUrl(registry, row.prefix));
    const quads: Quad[] = [];
    const add = (s: NamedNode, p: NamedNode, o: Quad_Object) => quads.push(quad(s, p, o));
    const addText = (s: NamedNode, p: NamedNode, value: string | null) => {
      if (value !== null && value !== '') add(s, p, literal(value));
    };

    const uriPrefix = uriPrefixOf(row, this.urls.publicResolverUrl);
    add(subject, T.type, T.Dataset);
    addText(subject, T.identifier, row.mirId);
    addText(subject, T.preferredPrefix, row.prefix);
    for (const synonym of ns.synonyms) addText(subject, T.alternatePrefix, synonym);
    addText(subject, T.title, row.name);
    addText(subject, T.description, row.description);
    addText(subject, T.identifierPattern, row.pattern);
    addText(subject, T.exampleIdentifier, row.sampleId);
    add(subject, T.uriSpace, literal(uriPrefix));
    const example = `${uriPrefix}${localPartOfSample(row)}`;
    if (row.sampleId && isWritableIri(example)) add(subject, T.exampleResource, namedNode(example));
    add(subject, T.created, literal(row.created.toISOString(), T.dateTime));
    add(subject, T.modified, literal(row.modified.toISOString(), T.dateTime));
    if (row.deprecated) add(subject, T.deprecated, TRUE);
    if (row.successorPrefix) add(subject, T.isReplacedBy, namedNode(namespacePageUrl(registry, row.successorPrefix)));

    // The namespace's statements first, then each resource's, so that Turtle groups each subject's in one block.
    const nodes = ns.resources.map((resource) => namedNode(`${resourceItemBase(registry)}${resource.id}`));
    for (const node of nodes) add(subject, T.accessPattern, node);
    ns.resources.forEach((resource, i) => {
      const node = nodes[i]!;
      add(node, T.type, T.AccessPattern);
      addText(node, T.identifier, resource.mirId);
      addText(node, T.title, resource.name);
      addText(node, T.description, resource.description);
      addText(node, T.accessIdentifierPattern, resource.urlPattern);
      addText(node, T.exampleIdentifier, resource.sampleId);
      if (isWritableIri(resource.resourceHomeUrl)) add(node, T.homepage, namedNode(resource.resourceHomeUrl));
      add(node, T.isPartOf, subject);
      if (resource.deprecated) add(node, T.deprecated, TRUE);
      const institution = namedNode(`${institutionItemBase(registry)}${resource.institutionId}`);
      add(node, T.publisher, institution);
      if (institutionsWritten.has(resource.institutionId)) return;
      institutionsWritten.add(resource.institutionId);
      add(institution, T.type, T.Organization);
      addText(institution, T.name, resource.institutionName);
      if (isWritableIri(resource.institutionHomeUrl)) add(institution, T.homepage, namedNode(resource.institutionHomeUrl));
      if (isWritableIri(resource.institutionRorId)) add(institution, T.sameAs, namedNode(resource.institutionRorId));
    });
    return quads;
  }
}

/** The sample id as the local part of a compact identifier: without the prefix an embedded LUI may repeat. */
function localPartOfSample(row: DatasetNamespaceRow): string {
  const sample = row.sampleId ?? '';
  const repeated = `${row.prefix}:`;
  return row.namespaceEmbeddedInLui && sample.toLowerCase().startsWith(repeated.toLowerCase()) ? sample.slice(repeated.length) : sample;
}
