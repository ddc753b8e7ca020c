/**
 * The request of a SPARQL 1.1 Protocol query operation (https://www.w3.org/TR/sparql11-protocol/#query-
 * operation): `?query=` on GET, or on POST an `application/sparql-query` body or an urlencoded form with a
 * `query` field; the SPARQL Update forms (`application/sparql-update`, a form's `update` field, `?update=`)
 * are recognised so that a read-only endpoint can say why it refuses them. Sizes are checked before the
 * text is handed on: a longer query is refused with 414 (in the URL) or 413 (in the body).
 */
import type { Context } from 'koa';
import { markBodyRead } from './auth-before-body.js';
import { parseFormText } from './form-body.js';
import { HttpError } from './http-error.js';
import { readText } from './json-body.js';

export type SparqlOperation = { kind: 'query'; text: string } | { kind: 'update' } | { kind: 'missing' };

const QUERY_TYPE = /^application\/sparql-query\s*(;|$)/i;
const UPDATE_TYPE = /^application\/sparql-update\s*(;|$)/i;
const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(;|$)/i;

function single(value: string | string[] | undefined, name: string): string | undefined {
  if (!Array.isArray(value)) return value;
  if (value.length > 1) throw new HttpError(400, `Send one '${name}' parameter, not ${value.length}`);
  return value[0];
}

// The protocol's RDF dataset parameters: the store has one default graph and no named graphs to choose from.
function refuseDatasetParameters(fields: Readonly<Record<string, unknown>>): void {
  for (const name of ['default-graph-uri', 'named-graph-uri']) {
    if (fields[name] !== undefined) throw new HttpError(400, `The '${name}' parameter is not supported: the endpoint's data is one default graph`);
  }
}

function checked(text: string, maxLength: number, status: 413 | 414): SparqlOperation {
  if (text.length > maxLength) {
    throw new HttpError(status, `The query is ${text.length} characters long, more than the limit of ${maxLength}`);
  }
  return { kind: 'query', text };
}

function readBody(ctx: Context, limit: number): Promise<string> {
  const declared = Number(ctx.get('Content-Length'));
  if (declared > limit) return Promise.reject(new HttpError(413, `Request body is larger than the limit of ${limit} bytes for a query of this endpoint`));
  return new Promise((resolve, reject) => readText(ctx.req, limit, (error, text) => (error ? reject(error) : resolve(text!))));
}

/** The operation a GET or POST to a SPARQL endpoint asks for; `maxLength` is the longest query in characters. */
export async function readSparqlOperation(ctx: Context, maxLength: number): Promise<SparqlOperation> {
  if (ctx.method === 'GET' || ctx.method === 'HEAD') {
    if (ctx.query.update !== undefined) return { kind: 'update' };
    refuseDatasetParameters(ctx.query);
    const query = single(ctx.query.query, 'query');
    return query === undefined ? { kind: 'missing' } : checked(query, maxLength, 414);
  }
  markBodyRead(ctx);
  refuseDatasetParameters(ctx.query);
  const type = ctx.get('Content-Type');
  // UTF-8 takes up to 4 bytes a character, and a form's percent-encoding 3 per byte of ASCII punctuation.
  const limit = maxLength * 4 + 1024;
  if (UPDATE_TYPE.test(type)) return { kind: 'update' };
  if (QUERY_TYPE.test(type)) return checked(await readBody(ctx, limit), maxLength, 413);
  if (FORM_TYPE.test(type)) {
    const fields = parseFormText(await readBody(ctx, limit * 3));
    if (fields.update !== undefined) return { kind: 'update' };
    refuseDatasetParameters(fields);
    return fields.query === undefined ? { kind: 'missing' } : checked(fields.query, maxLength, 413);
  }
  throw new HttpError(
    415,
    `Unsupported Content-Type '${type.slice(0, 100)}'; send the query as application/sparql-query, or as the 'query' field of an application/x-www-form-urlencoded form`,
  );
}
