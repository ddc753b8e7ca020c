import { Writer, type Quad } from 'n3';
import { RDF_VOCABULARIES } from '../../dataset/export-rdf.presenter.js';
import type { RdfMediaType } from '../../web/negotiation.js';

const RDF_TYPE = `${RDF_VOCABULARIES.rdf}type`;
const XSD_STRING = `${RDF_VOCABULARIES.xsd}string`;

/** `dcterms:title` for a vocabulary term, the IRI itself for anything else. */
function compact(iri: string): string {
  for (const [prefix, base] of Object.entries(RDF_VOCABULARIES)) {
    if (iri.startsWith(base) && iri.length > base.length) return `${prefix}:${iri.slice(base.length)}`;
  }
  return iri;
}

type JsonLdValue = string | { '@id': string } | { '@value': string; '@type': string };

/**
 * The triples as a JSON-LD document: one node object per subject under `@graph`, the vocabularies as the
 * context, typed literals with their datatype, so that it expands to exactly these triples.
 */
export function jsonLdOf(quads: readonly Quad[]): object {
  const nodes = new Map<string, Record<string, JsonLdValue | JsonLdValue[]>>();
  for (const { subject, predicate, object } of quads) {
    let node = nodes.get(subject.value);
    if (!node) nodes.set(subject.value, (node = { '@id': subject.value }));
    const key = predicate.value === RDF_TYPE ? '@type' : compact(predicate.value);
    const value: JsonLdValue =
      predicate.value === RDF_TYPE
        ? compact(object.value)
        : object.termType === 'NamedNode'
          ? { '@id': object.value }
          : object.termType === 'Literal' && object.datatype.value !== XSD_STRING
            ? { '@value': object.value, '@type': compact(object.datatype.value) }
            : object.value;
    const existing = node[key];
    node[key] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return { '@context': RDF_VOCABULARIES, '@graph': [...nodes.values()] };
}

/** The triples in Turtle (with the given prefixes) or N-Triples, as n3 writes them. */
export function rdfTextOf(quads: readonly Quad[], type: Exclude<RdfMediaType, 'application/ld+json'>, prefixes: Record<string, string>): Promise<string> {
  const writer = new Writer(type === 'text/turtle' ? { prefixes } : { format: 'N-Triples' });
  writer.addQuads([...quads]);
  return new Promise((resolve, reject) => writer.end((error, text) => (error ? reject(error) : resolve(text))));
}
