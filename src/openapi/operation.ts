/**
 * How each area's operations are written down (the *.operations.ts files beside this one): one entry per
 * route, its request and answer schemas and at least one example per body, which openapi-document.ts turns
 * into OpenAPI 3.1. The path is OpenAPI's (`/restApi/namespaces/{id}`); a route that several methods share
 * (the reference's lifecycle GETs, also taken as POST) is one entry with those methods.
 */
import { ref, type Schema } from './schema-kit.js';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface ParameterSpec {
  name: string;
  in: 'path' | 'query' | 'header';
  description: string;
  required?: boolean;
  schema: Schema;
  /** A value that works on the sample registry (the route-table test asks with it). */
  example: unknown;
}

export interface ContentSpec {
  /** The media type, e.g. application/json. */
  type: string;
  schema: Schema | object;
  /** Omitted only for bodies that have no useful example (a page's HTML, a download). */
  example?: unknown;
}

export interface ResponseSpec {
  description: string;
  content?: readonly ContentSpec[];
  headers?: Record<string, { description: string; schema: Schema }>;
}

export interface RequestBodySpec {
  description: string;
  required?: boolean;
  content: readonly ContentSpec[];
}

/**
 * Who may call: anyone; the curator token (Authorization: Bearer); anyone, the token showing more; a
 * signed-in curator desk session (its cookie); the metrics token when METRICS_TOKEN is set; or a satellite
 * resolver with SATELLITE_TOKEN.
 */
export type Access = 'public' | 'curator' | 'optional-curator' | 'desk' | 'metrics' | 'satellite';

export interface OperationSpec {
  methods: readonly Method[];
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** Why the operation exists when the reference has no such endpoint: it is then marked as an addition. */
  addition?: string;
  access?: Access;
  /** False for the paths no rate limit applies to (health). */
  rateLimited?: boolean;
  parameters?: readonly ParameterSpec[];
  requestBody?: RequestBodySpec;
  responses: Readonly<Record<number, ResponseSpec>>;
}

export const JSON_TYPE = 'application/json';
export const HAL_TYPE = 'application/hal+json';
export const HTML_TYPE = 'text/html';
export const FORM_TYPE = 'application/x-www-form-urlencoded';

/** An answer with one JSON body. */
export function jsonAnswer(description: string, schema: Schema | object, example: unknown, type = JSON_TYPE): ResponseSpec {
  return { description, content: [{ type, schema, example }] };
}

/** An error in the envelope, with a message it may carry. */
export function errorAnswer(description: string, errorMessage: string): ResponseSpec {
  return jsonAnswer(description, ref('ErrorEnvelope'), { apiVersion: '1.0', errorMessage, payload: null });
}

/** A page: HTML for browsers (and the envelope for clients that ask for JSON on errors). */
export function pageAnswer(description: string): ResponseSpec {
  return { description, content: [{ type: HTML_TYPE, schema: ref('HtmlPage') }] };
}

/**
 * An error of a page's path: the error page for a browser, the error envelope for any other client (the
 * error translator answers both).
 */
export function pageErrorAnswer(description: string, errorMessage: string): ResponseSpec {
  return {
    description,
    content: [
      { type: HTML_TYPE, schema: ref('HtmlPage') },
      { type: JSON_TYPE, schema: ref('ErrorEnvelope'), example: { apiVersion: '1.0', errorMessage, payload: null } },
    ],
  };
}

/** A redirect to `location`. */
export function redirectAnswer(description: string, location: string): ResponseSpec {
  return {
    description,
    headers: { Location: { description: `Where to go, e.g. ${location}`, schema: { type: 'string' } } },
  };
}

export const NO_CONTENT: ResponseSpec = { description: 'Done; no body' };

/** A path parameter. */
export function pathParam(name: string, description: string, example: string | number, schema: Schema = { type: typeof example === 'number' ? 'integer' : 'string' }): ParameterSpec {
  return { name, in: 'path', required: true, description, schema, example };
}

/** A query parameter. */
export function queryParam(name: string, description: string, example: unknown, options: { required?: boolean; schema?: Schema } = {}): ParameterSpec {
  const schema = options.schema ?? { type: typeof example === 'number' ? 'integer' : 'string' };
  return { name, in: 'query', required: options.required ?? false, description, schema, example };
}

/** A JSON request body. */
export function jsonBody(description: string, schema: Schema | object, example: unknown, type = JSON_TYPE): RequestBodySpec {
  return { description, required: true, content: [{ type, schema, example }] };
}
