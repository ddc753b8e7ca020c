/**
 * The operations of an area's OpenAPI document (as served at GET /openapi.json), with their parameters and
 * request bodies read for what the hostile cases are derived from: types, bounds, enums and examples.
 * Only the parts of OpenAPI 3.1 the project's documents use are read; `$ref`s into the document resolve.
 */

export type Area = 'resolver' | 'registry';

/** The JSON Schema keywords the case derivation looks at. */
export interface SchemaLike {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  example?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  pattern?: string;
  properties?: Record<string, SchemaLike>;
  items?: SchemaLike;
  anyOf?: SchemaLike[];
  oneOf?: SchemaLike[];
}

export interface OperationParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: SchemaLike;
  example?: unknown;
}

export interface MediaBody {
  mediaType: string;
  schema: SchemaLike;
  example?: unknown;
}

export interface Operation {
  area: Area;
  /** Upper case, as sent. */
  method: string;
  /** The documented path template, e.g. /restApi/namespaces/{id}. */
  path: string;
  operationId: string;
  parameters: OperationParameter[];
  /** Request bodies by media type, in the document's order. */
  bodies: MediaBody[];
  /** Names of the security schemes any requirement names (curatorToken, deskSession, metricsToken). */
  security: string[];
  /** The first media type a 2xx answer is documented with (what the case asks for in Accept). */
  answerType: string | undefined;
  /** Statuses the document lists for the operation. */
  statuses: string[];
}

/** `GET /restApi/namespaces/{id}`: how an operation is named in tables, settings and the report. */
export const operationKey = (op: Pick<Operation, 'method' | 'path'>): string => `${op.method} ${op.path}`;

export interface OpenApiDocumentLike {
  paths: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** The object a local `$ref` (#/components/...) points at, followed until it is not a reference. */
export function resolveRef<T>(document: OpenApiDocumentLike, value: T): T {
  let current = value as unknown;
  for (let hops = 0; hops < 20; hops++) {
    const ref = (current as { $ref?: unknown } | null)?.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/')) return current as T;
    current = ref
      .slice(2)
      .split('/')
      .map((token) => decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((node, token) => (node as Record<string, unknown> | undefined)?.[token], document);
  }
  throw new Error(`$ref chain too long at ${JSON.stringify(value)}`);
}

/** The schema with its `$ref`s resolved down to `depth` levels (deeper ones are left as they are: schemas may recurse). */
export function resolveSchema(document: OpenApiDocumentLike, schema: SchemaLike, depth = 8): SchemaLike {
  const resolved = resolveRef(document, schema);
  if (depth === 0 || !resolved || typeof resolved !== 'object') return resolved;
  const copy: SchemaLike = { ...resolved };
  if (resolved.properties) {
    copy.properties = Object.fromEntries(Object.entries(resolved.properties).map(([key, inner]) => [key, resolveSchema(document, inner, depth - 1)]));
  }
  if (resolved.items) copy.items = resolveSchema(document, resolved.items, depth - 1);
  return copy;
}

interface RawOperation {
  operationId?: string;
  parameters?: unknown[];
  requestBody?: unknown;
  responses?: Record<string, unknown>;
  security?: Record<string, unknown>[];
}

function readParameters(document: OpenApiDocumentLike, raw: unknown[] | undefined): OperationParameter[] {
  return (raw ?? []).map((entry) => {
    const p = resolveRef(document, entry) as { name: string; in: OperationParameter['in']; required?: boolean; schema?: SchemaLike; example?: unknown };
    return { name: p.name, in: p.in, required: p.required === true || p.in === 'path', schema: resolveRef(document, p.schema ?? {}), example: p.example };
  });
}

function firstAnswerType(document: OpenApiDocumentLike, responses: Record<string, unknown> | undefined): string | undefined {
  for (const [status, raw] of Object.entries(responses ?? {})) {
    if (!status.startsWith('2')) continue;
    const content = (resolveRef(document, raw) as { content?: Record<string, unknown> }).content;
    const first = content && Object.keys(content)[0];
    if (first) return first;
  }
  return undefined;
}

/** Every operation of the document, in its order (path by path, method by method). */
export function listOperations(document: OpenApiDocumentLike, area: Area): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    const shared = readParameters(document, item.parameters as unknown[] | undefined);
    for (const method of METHODS) {
      const raw = item[method] as RawOperation | undefined;
      if (!raw) continue;
      const own = readParameters(document, raw.parameters);
      const parameters = [...shared.filter((s) => !own.some((o) => o.name === s.name && o.in === s.in)), ...own];
      const requestBody = resolveRef(document, raw.requestBody) as { content?: Record<string, { schema?: SchemaLike; example?: unknown }> } | undefined;
      const bodies = Object.entries(requestBody?.content ?? {}).map(([mediaType, media]) => ({
        mediaType,
        schema: resolveSchema(document, media.schema ?? {}),
        example: media.example,
      }));
      operations.push({
        area,
        method: method.toUpperCase(),
        path,
        operationId: raw.operationId ?? `${method} ${path}`,
        parameters,
        bodies,
        security: [...new Set((raw.security ?? []).flatMap((requirement) => Object.keys(requirement)))],
        answerType: firstAnswerType(document, raw.responses),
        statuses: Object.keys(raw.responses ?? {}),
      });
    }
  }
  return operations;
}
