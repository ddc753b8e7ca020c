/**
 * GET and POST /sparql: the registry as RDF (the dataset build's registry.nt) through a read-only SPARQL 1.1
 * Protocol endpoint, with owl:sameAs links between the resolver URIs and the provider URLs of the IRIs a
 * query names (core/same-as-links.ts). Queries run in worker threads (sparql-pool.ts) within a time limit,
 * a query-length limit and an answer-size limit.
 */
import { Router } from '@koa/router';
import type { Context } from 'koa';
import { DomainError } from '../../core/domain-error.js';
import type { DatasetFiles } from '../../dataset/dataset-files.js';
import { readSparqlOperation } from '../../http/sparql-protocol-body.js';
import { answersGraph, queryFormOf } from './query-form.js';
import type { SparqlPool } from './sparql-pool.js';
import { readSparqlSource } from './sparql-source.js';

export interface SparqlRouteDeps {
  pool: SparqlPool;
  files: DatasetFiles;
  maxQueryLength: number;
}

/** What SELECT and ASK answer, by Accept; the first is the default. */
export const RESULTS_MEDIA_TYPES: Readonly<Record<string, string>> = {
  'application/sparql-results+json': 'application/sparql-results+json',
  'application/sparql-results+xml': 'application/sparql-results+xml',
  'application/json': 'application/sparql-results+json',
  'application/xml': 'application/sparql-results+xml',
  'text/xml': 'application/sparql-results+xml',
  'text/csv': 'text/csv',
  'text/tab-separated-values': 'text/tab-separated-values',
};

/** What CONSTRUCT and DESCRIBE answer, by Accept; the first is the default. */
export const GRAPH_MEDIA_TYPES: Readonly<Record<string, string>> = {
  'text/turtle': 'text/turtle',
  'application/n-triples': 'application/n-triples',
  'application/rdf+xml': 'application/rdf+xml',
  'text/plain': 'application/n-triples',
};

function negotiated(ctx: Context, types: Readonly<Record<string, string>>): string {
  const names = Object.keys(types);
  const chosen = ctx.accepts(names);
  // No acceptable type (or none asked for): the default, as SPARQL endpoints commonly answer.
  return types[typeof chosen === 'string' ? chosen : names[0]!]!;
}

const READ_ONLY = 'This SPARQL endpoint is read-only: SPARQL Update (INSERT, DELETE, LOAD, CLEAR, ...) is not accepted';

export function sparqlRoutes(deps: SparqlRouteDeps): Router {
  const router = new Router();
  const answer = async (ctx: Context) => {
    const operation = await readSparqlOperation(ctx, deps.maxQueryLength);
    if (operation.kind === 'update') throw new DomainError('invalid', READ_ONLY);
    if (operation.kind === 'missing') {
      throw new DomainError('invalid', "Send a SPARQL query: GET /sparql?query=..., or POST it as application/sparql-query or as the form field 'query'");
    }
    const form = queryFormOf(operation.text);
    if (form === 'update') throw new DomainError('invalid', READ_ONLY);
    const source = await readSparqlSource(deps.files, deps.pool.sourceKey);
    if (source) deps.pool.setSource(source);
    const mediaType = negotiated(ctx, answersGraph(form) ? GRAPH_MEDIA_TYPES : RESULTS_MEDIA_TYPES);
    const result = await deps.pool.run(operation.text, mediaType, ctx.ip);
    ctx.vary('Accept');
    ctx.type = `${result.mediaType}; charset=utf-8`;
    ctx.body = result.body;
  };
  router.get('/sparql', answer);
  router.post('/sparql', answer);
  return router;
}
