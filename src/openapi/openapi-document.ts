/**
 * The OpenAPI 3.1 document of an area, built from its operations (*.operations.ts) and the schemas they
 * name: the request schemas are the ones the routes validate with, the answer schemas the ones the answer
 * tests check real answers against, so the document cannot drift from what the service does.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../lib/project-root.js';
import { CURATION_DISABLED_MESSAGE, TOKEN_MISSING_MESSAGE, TOKEN_WRONG_MESSAGE } from '../registry/model/curator-auth.js';
import { FREE_WRONG_TRIES, MAX_DELAY_SECONDS, TOO_MANY_WRONG_TOKENS_MESSAGE, WRONG_TRY_WINDOW_SECONDS } from '../registry/model/wrong-token-throttle.js';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../http/error-translator.js';
import { CURATION_SCHEMAS } from './answers/curation.schemas.js';
import { ENVELOPE_SCHEMAS } from './answers/envelope.schemas.js';
import { HAL_SCHEMAS } from './answers/hal.schemas.js';
import { REGISTRY_SCHEMAS } from './answers/registry.schemas.js';
import { METADATA_SCHEMAS } from './answers/metadata.schemas.js';
import { RESOLUTION_SCHEMAS } from './answers/resolution.schemas.js';
import { REQUEST_SCHEMAS } from './request.schemas.js';
import { errorAnswer, type OperationSpec, type ResponseSpec } from './operation.js';
import { REGISTRY_OPERATIONS } from './registry.operations.js';
import { RESOLVER_OPERATIONS } from './resolver.operations.js';
import type { Schema } from './schema-kit.js';

export type Area = 'resolver' | 'registry';
export const AREAS: readonly Area[] = ['resolver', 'registry'];

export type OpenApiDocument = Record<string, unknown> & {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, Schema> } & Record<string, unknown>;
};

/** Every named schema; a name given twice fails at import (one would silently replace the other). */
const ALL_SCHEMAS: Readonly<Record<string, Schema>> = (() => {
  const all: Record<string, Schema> = {};
  for (const group of [ENVELOPE_SCHEMAS, RESOLUTION_SCHEMAS, METADATA_SCHEMAS, HAL_SCHEMAS, CURATION_SCHEMAS, REGISTRY_SCHEMAS, REQUEST_SCHEMAS]) {
    for (const [name, schema] of Object.entries(group)) {
      if (all[name]) throw new Error(`Schema ${name} is defined twice in src/openapi/`);
      all[name] = schema;
    }
  }
  return all;
})();

/** Every operation of an area, as written in its operations file. */
export function operationsOf(area: Area): readonly OperationSpec[] {
  return area === 'resolver' ? RESOLVER_OPERATIONS : REGISTRY_OPERATIONS;
}

const ABOUT: Record<Area, { title: string; description: string }> = {
  resolver: {
    title: 'Compact identifier resolver',
    description:
      'Resolves compact identifiers (prefix:accession) to provider URLs, as JSON or as a redirect, and provider URLs back to compact identifiers. It answers from an in-memory snapshot of the registry.',
  },
  registry: {
    title: 'Compact identifier registry',
    description:
      'The registry of namespaces, resources (providers), institutions and locations: browse and search (HAL), the resolver dataset, prefix and resource registration, curation, usage statistics and the link checks\' findings, with pages for people.',
  },
};

const CONVENTIONS = [
  'A drop-in replacement for the identifiers.org public APIs.',
  '',
  '- Field names and order: objects marked `x-field-order: reference` list their properties in the order the reference service writes them, and this service writes them in that order too.',
  '- Additions: operations and properties marked `x-addition: true` are not in the reference; their description says why they exist.',
  '- Errors: every error is answered in the envelope `{apiVersion, errorMessage, payload}` (browsers get an HTML page on the registry).',
  '- Rate limits: per client address and route family (resolution, reverse, batch, validators, submissions, browse, dataset); over the limit, 429 with Retry-After, RateLimit and RateLimit-Policy. Health checks and curators are never limited.',
].join('\n');

const TAGS: Readonly<Record<string, string>> = {
  Resolution: 'Resolving compact identifiers',
  'Reverse lookup': 'From a provider URL to a compact identifier',
  Insight: 'The reference\'s insight API, for link checkers',
  'Provider metadata': 'Structured metadata (schema.org JSON-LD, Open Graph, title) of the page an identifier resolves to, as identifiers.org\'s metadata service',
  Browse: 'The reference\'s Spring Data REST browse and search API (HAL)',
  Dataset: 'The whole registry in one download',
  Changes: 'Every committed registry change, as JSON pages and as an Atom feed',
  Satellites: 'What satellite resolvers (resolvers following this registry without its database) read and send, with SATELLITE_TOKEN',
  Registration: 'Requests for new prefixes and resources, and their field validators',
  Curation: 'Curators\' work on registration requests and on the registry (the curator token)',
  'Curation warnings': 'Problems found in the registry by its validator and link checks',
  Statistics: 'Usage of each namespace',
  'Schema.org': 'schema.org metadata (JSON-LD)',
  Search: 'Searching the registry',
  SPARQL: 'The registry as RDF through a read-only SPARQL endpoint, with owl:sameAs links for federated queries',
  'Link health': 'The link checks\' findings',
  Pages: 'Pages for people (HTML)',
  'Curator desk': 'The curators\' pages (HTML, sign-in)',
  Health: 'Probes for balancers and orchestrators, and metrics',
  MCP: 'The Model Context Protocol server, for AI assistants',
  'Queue board': 'The curators\' view of the work queues (bull-board)',
  Documentation: 'This document and its interactive page',
};

const SECURITY_SCHEMES = {
  curatorToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'The registry\'s CURATOR_TOKEN; or, when OIDC_API_AUDIENCE is set, an access token (a JWT) of the OpenID Connect provider OIDC_ISSUER ' +
      '(Keycloak, as the reference web app signs curators in with): signed by a key of its key set, for the audience OIDC_API_AUDIENCE, unexpired, ' +
      'and carrying the role or group OIDC_CURATOR_ROLE in realm_access.roles, resource_access.<OIDC_API_AUDIENCE>.roles, groups or roles. ' +
      'A token that is not valid is answered 401 (WWW-Authenticate error="invalid_token"), a valid one without the role 403 (error="insufficient_scope").',
  },
  deskSession: { type: 'apiKey', in: 'cookie', name: 'registry_curator', description: 'A curator desk session (sign in at /curation/sign-in)' },
  metricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN, when it is set' },
  satelliteToken: { type: 'http', scheme: 'bearer', description: 'SATELLITE_TOKEN, the token the registry area shares with its satellite resolvers' },
};

const QUOTA_HEADERS = {
  'Retry-After': { description: 'Seconds until the quota resets', schema: { type: 'integer' } },
  RateLimit: { description: 'The remaining quota, e.g. "resolution";r=0;t=42', schema: { type: 'string' } },
  'RateLimit-Policy': { description: 'The quota, e.g. "resolution";q=6000;w=60', schema: { type: 'string' } },
};

const RATE_LIMITED: ResponseSpec = {
  ...errorAnswer('Over the rate limit of the route family (see the description of this document)', 'Too many resolutions from your address: at most 6,000 a minute; the Retry-After header says when to send the next'),
  headers: QUOTA_HEADERS,
};

/** A route that takes the curator token answers 429 for wrong tokens too (registry/model/wrong-token-throttle.ts). */
const RATE_LIMITED_OR_WRONG_TOKENS: ResponseSpec = {
  ...errorAnswer(
    `Over the rate limit of the route family, or a wrong curator token after ${FREE_WRONG_TRIES} others from this address within ${WRONG_TRY_WINDOW_SECONDS / 60} minutes ` +
      `(the right token is still let in; Retry-After doubles with each further wrong one, from 1 second up to ${MAX_DELAY_SECONDS / 60} minutes)`,
    TOO_MANY_WRONG_TOKENS_MESSAGE,
  ),
  headers: QUOTA_HEADERS,
};

/**
 * The answers many operations share, written once under components.responses: the rate limit, the curator
 * token's refusals and the database outage.
 */
const SHARED_RESPONSES: Readonly<Record<string, ResponseSpec>> = {
  RateLimited: RATE_LIMITED,
  RateLimitedOrWrongTokens: RATE_LIMITED_OR_WRONG_TOKENS,
  NoCuratorToken: errorAnswer('No bearer token, or an access token that is not valid (expired, wrongly signed, another issuer\'s or audience\'s)', TOKEN_MISSING_MESSAGE),
  InvalidAccessToken: errorAnswer('An access token that is not valid (expired, wrongly signed, another issuer\'s or audience\'s; only with OIDC_API_AUDIENCE)', 'The access token has expired'),
  WrongCuratorToken: errorAnswer('Not the curator token, or an access token without the curator role', TOKEN_WRONG_MESSAGE),
  CuratorItemNotFound: errorAnswer('Not found, or curation is off on this registry (no CURATOR_TOKEN, no OIDC_API_AUDIENCE)', CURATION_DISABLED_MESSAGE),
  DatabaseUnavailable: errorAnswer('The registry database cannot be reached (with Retry-After)', DATABASE_UNAVAILABLE_MESSAGE),
  NoSatelliteToken: errorAnswer(
    'No bearer token, or not the satellite token (WWW-Authenticate: Bearer realm="satellite")',
    'The satellite API needs a bearer token: send Authorization: Bearer <SATELLITE_TOKEN>',
  ),
  SatelliteApiOff: errorAnswer('The satellite API is off on this registry (no SATELLITE_TOKEN)', 'The satellite API is not enabled on this registry (SATELLITE_TOKEN is empty)'),
  CuratorUnavailable: errorAnswer('The registry database, or (for an access token) the OpenID Connect provider\'s keys, cannot be reached (with Retry-After)', DATABASE_UNAVAILABLE_MESSAGE),
};

type ResponseOrRef = ResponseSpec | { $ref: string };
const shared = (name: keyof typeof SHARED_RESPONSES): ResponseOrRef => ({ $ref: `#/components/responses/${name}` });

/** The answers every operation of its kind may give besides its own. */
function commonResponses(area: Area, spec: OperationSpec): Record<number, ResponseOrRef> {
  const common: Record<number, ResponseOrRef> = {};
  const takesToken = spec.access === 'curator' || spec.access === 'optional-curator';
  if (spec.rateLimited !== false) common[429] = shared(takesToken ? 'RateLimitedOrWrongTokens' : 'RateLimited');
  if (spec.access === 'curator') {
    common[401] = shared('NoCuratorToken');
    common[403] = shared('WrongCuratorToken');
    common[404] = shared('CuratorItemNotFound');
  }
  if (spec.access === 'satellite') {
    common[401] = shared('NoSatelliteToken');
    common[404] = shared('SatelliteApiOff');
  }
  if (spec.access === 'optional-curator') {
    common[401] = shared('InvalidAccessToken');
    common[403] = shared('WrongCuratorToken');
  }
  if (area === 'registry' && spec.tag !== 'Documentation' && spec.tag !== 'Health') common[503] = shared(takesToken ? 'CuratorUnavailable' : 'DatabaseUnavailable');
  return common;
}

function openApiResponse(response: ResponseOrRef): Record<string, unknown> {
  if ('$ref' in response) return response;
  return {
    description: response.description,
    ...(response.headers ? { headers: response.headers } : {}),
    ...(response.content
      ? {
          content: Object.fromEntries(
            response.content.map((c) => [c.type, { schema: c.schema, ...(c.example === undefined ? {} : { example: c.example }) }]),
          ),
        }
      : {}),
  };
}

/** `get /restApi/namespaces/{id}/successor` -> getRestApiNamespacesByIdSuccessor. */
function operationId(method: string, path: string): string {
  const words = path
    .split('/')
    .filter(Boolean)
    .map((segment) => (segment.startsWith('{') ? `By_${segment.slice(1, -1)}` : segment))
    .flatMap((segment) => segment.split(/[^A-Za-z0-9]+/).filter(Boolean));
  return method + words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
}

function security(spec: OperationSpec): unknown[] {
  switch (spec.access ?? 'public') {
    case 'curator':
      return [{ curatorToken: [] }];
    case 'optional-curator':
      return [{}, { curatorToken: [] }];
    case 'desk':
      return [{ deskSession: [] }];
    case 'metrics':
      return [{}, { metricsToken: [] }];
    case 'satellite':
      return [{ satelliteToken: [] }];
    default:
      return [];
  }
}

function openApiOperation(area: Area, spec: OperationSpec, method: string): Record<string, unknown> {
  const responses = { ...commonResponses(area, spec), ...spec.responses };
  const description = [spec.description, spec.addition && `Addition (not in the reference): ${spec.addition}.`].filter(Boolean).join('\n\n');
  return {
    tags: [spec.tag],
    summary: spec.summary,
    ...(description ? { description } : {}),
    operationId: operationId(method, spec.path),
    ...(spec.parameters?.length
      ? {
          parameters: spec.parameters.map((p) => ({
            name: p.name,
            in: p.in,
            required: p.in === 'path' ? true : (p.required ?? false),
            description: p.description,
            schema: p.schema,
            example: p.example,
          })),
        }
      : {}),
    ...(spec.requestBody
      ? {
          requestBody: {
            description: spec.requestBody.description,
            required: spec.requestBody.required ?? true,
            content: Object.fromEntries(spec.requestBody.content.map((c) => [c.type, { schema: c.schema, ...(c.example === undefined ? {} : { example: c.example }) }])),
          },
        }
      : {}),
    responses: Object.fromEntries(
      Object.entries(responses)
        .sort(([a], [b]) => Number(a) - Number(b))
        .map(([status, response]) => [status, openApiResponse(response)]),
    ),
    security: security(spec),
    ...(spec.addition ? { 'x-addition': true } : {}),
  };
}

/** The names of the component schemas `value` refers to, directly or through those. */
function referencedSchemas(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) referencedSchemas(item, found);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string' && inner.startsWith('#/components/schemas/')) {
        const name = inner.slice('#/components/schemas/'.length);
        if (found.has(name)) continue;
        const schema = ALL_SCHEMAS[name];
        if (!schema) throw new Error(`No schema ${name} for ${inner}`);
        found.add(name);
        referencedSchemas(schema, found);
      } else {
        referencedSchemas(inner, found);
      }
    }
  }
  return found;
}

/** The service's version (package.json), the documents' info.version. */
export const SERVICE_VERSION: string = (JSON.parse(readFileSync(path.join(projectRoot(), 'package.json'), 'utf8')) as { version: string }).version;

export interface DocumentOptions {
  /** The area's public URL (PUBLIC_RESOLVER_URL, PUBLIC_REGISTRY_URL). */
  serverUrl: string;
  version: string;
}

export function buildOpenApiDocument(area: Area, options: DocumentOptions): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const ids = new Set<string>();
  const tags = new Set<string>();
  let secured = false;
  for (const spec of operationsOf(area)) {
    const item = (paths[spec.path] ??= {});
    tags.add(spec.tag);
    for (const method of spec.methods) {
      if (item[method]) throw new Error(`${method.toUpperCase()} ${spec.path} is documented twice`);
      const operation = openApiOperation(area, spec, method);
      if (ids.has(operation.operationId as string)) throw new Error(`Operation id ${String(operation.operationId)} is not unique`);
      ids.add(operation.operationId as string);
      item[method] = operation;
      secured ||= (spec.access ?? 'public') !== 'public';
    }
  }
  const usedResponses = Object.keys(SHARED_RESPONSES).filter((name) => JSON.stringify(paths).includes(`"#/components/responses/${name}"`));
  const responses = Object.fromEntries(usedResponses.map((name) => [name, openApiResponse(SHARED_RESPONSES[name]!)]));
  const names = [...referencedSchemas({ paths, responses })].sort();
  const usedSchemes = new Set(
    Object.values(paths).flatMap((item) => Object.values(item).flatMap((op) => (op.security as Record<string, unknown>[]).flatMap((s) => Object.keys(s)))),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: ABOUT[area].title,
      version: options.version,
      description: `${ABOUT[area].description}\n\n${CONVENTIONS}`,
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: options.serverUrl, description: `This ${area} area` }],
    tags: [...tags].map((name) => ({ name, description: TAGS[name] ?? name })),
    paths,
    components: {
      schemas: Object.fromEntries(names.map((name) => [name, ALL_SCHEMAS[name]!])),
      responses,
      ...(secured ? { securitySchemes: Object.fromEntries(Object.entries(SECURITY_SCHEMES).filter(([name]) => usedSchemes.has(name))) } : {}),
    },
  };
}
