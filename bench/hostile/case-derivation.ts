/**
 * The hostile cases of one documented operation, derived from its OpenAPI description alone: its example
 * request, then each parameter at the values that cost most or are refused (largest integers, overlong
 * strings, enums' every value and a wrong one, `__proto__`, NUL and bytes that are not UTF-8), every query
 * parameter repeated, odd case of the path, a wrong bearer token and a forged desk session, and for a
 * request body: arrays at and over their maxItems, every string long, deep and wide JSON, and bodies of
 * 16 MiB sent without credentials. Hand-written cases for the known findings come on top (route-cases.ts).
 *
 * Pure: no I/O, nothing sent; the large bodies are built on first use (hostile-bodies.ts).
 */
import {
  deepJsonArrays,
  deepJsonObjects,
  oversizeForm,
  oversizeJson,
  oversizeText,
  sharedBody,
  wideForm,
  wideJsonObject,
} from './hostile-bodies.js';
import type { Operation, OperationParameter, SchemaLike } from './openapi-operations.js';

export interface AttackCase {
  /** What the case tries, for the report (`size=2147483647`, `16 MiB form, no session`). */
  label: string;
  method: string;
  /** The request target exactly as sent (percent-encoded). */
  path: string;
  headers: Record<string, string>;
  body?: () => Buffer;
}

/** Values of the loaded registry that make the example requests hit real records. */
export interface CaseContext {
  /** A compact identifier that resolves (`taxonomy:9606`). */
  curie: string;
  /** A namespace prefix of the registry. */
  prefix: string;
  /** Ids of a namespace, one of its resources and that resource's institution. */
  namespaceId: number;
  resourceId: number;
  institutionId: number;
  /** Compact identifiers of the registry's sample ids (up to a batch's 1,000), for batches that resolve. */
  curies: string[];
}

/** A hand-written case: what differs from the operation's example request. */
export interface HandCase {
  label: string;
  /** The whole request target; default: the example path, with `query` when given. */
  path?: string;
  query?: string;
  headers?: Record<string, string>;
  contentType?: string;
  body?: () => Buffer;
}

/** What the hand-written table (route-cases.ts) adds to an operation's derived cases. */
export interface RouteExtras {
  /** Headers every case of the route sends (e.g. the Accept an MCP client must send). */
  headers?: Record<string, string>;
  cases?: (ctx: CaseContext) => HandCase[];
}

/** Methods the attack client sends. */
const SENDABLE = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
/** A value with no maxLength: long, but the whole request line stays under Node's 16 KiB header limit. */
export const LONG_VALUE_LENGTH = 6000;
/** Strings of a body with no maxLength of their own. */
const LONG_BODY_STRING = 10_000;
/** How often each query parameter is repeated in the repeated-parameters case. */
const REPEATS = 100;
/** The enum values sent one by one, at most (an export per format, a period per period). */
const MAX_ENUM_CASES = 10;
export const WRONG_BEARER_TOKEN = 'hostile-wrong-token-0123456789abcdefghijklmnopqrstuv';

type BodyKind = 'json' | 'form' | 'text';

function bodyKindOf(mediaType: string): BodyKind | undefined {
  if (/^application\/([a-z.+-]*\+)?json$/.test(mediaType)) return 'json';
  if (mediaType === 'application/x-www-form-urlencoded') return 'form';
  if (mediaType.startsWith('text/')) return 'text';
  return undefined;
}

const typeOf = (schema: SchemaLike): string | undefined =>
  Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;

/** Percent-encodes a value for a path segment or query, keeping `:` (compact identifiers read better). */
export const encodeValue = (value: string): string => encodeURIComponent(value).replace(/%3A/gi, ':');

/** The collection a path parameter names a record of, from the segment before it or the whole path. */
function collectionOf(path: string, name: string): 'resource' | 'institution' | 'namespace' | undefined {
  const before = path.split(`{${name}}`)[0]!.split('/').filter(Boolean).pop() ?? '';
  for (const text of [before, path]) {
    const lower = text.toLowerCase();
    if (lower.includes('resource')) return 'resource';
    if (lower.includes('institution')) return 'institution';
    if (lower.includes('namespace')) return 'namespace';
  }
  return undefined;
}

/** The parameter's ordinary value, unencoded: the loaded registry's where it names a record, else the document's example. */
function exampleValue(op: Operation, param: OperationParameter, ctx: CaseContext): string | undefined {
  if (param.in === 'path' && param.name === 'compactId') return ctx.curie;
  if (param.name === 'prefix' && (param.in === 'path' || op.path.includes('Prefix'))) return ctx.prefix;
  if (param.in === 'path' && param.name === 'id' && typeOf(param.schema) === 'integer') {
    const collection = collectionOf(op.path, param.name);
    if (collection) return String(collection === 'resource' ? ctx.resourceId : collection === 'institution' ? ctx.institutionId : ctx.namespaceId);
  }
  const example = param.example ?? param.schema.example ?? param.schema.enum?.[0];
  if (example !== undefined && example !== null) return String(example);
  if (!param.required) return undefined;
  const type = typeOf(param.schema);
  return type === 'integer' || type === 'number' ? String(param.schema.minimum ?? 1) : 'x';
}

interface Variant {
  label: string;
  /** Already encoded for the URL (headers take it as is). */
  value: string;
}

/** The costly and the refused values of one parameter. */
export function parameterVariants(param: OperationParameter): Variant[] {
  const { schema, name } = param;
  const type = typeOf(schema);
  const variants: Variant[] = [];
  const add = (label: string, value: string) => variants.push({ label: `${name}=${label}`, value });
  if (schema.enum) {
    for (const value of schema.enum.slice(0, MAX_ENUM_CASES)) add(String(value), encodeValue(String(value)));
    add('(not one of the enum)', 'not-an-enum-value');
  } else if (type === 'integer' || type === 'number') {
    if (schema.maximum !== undefined) {
      add(`${schema.maximum} (maximum)`, String(schema.maximum));
      add(`${schema.maximum + 1} (over maximum)`, String(schema.maximum + 1));
    } else {
      add('2147483647', '2147483647');
      add('10^23', '99999999999999999999999');
    }
    add('-1', '-1');
    add('1e308', '1e308');
  } else if (type === 'boolean') {
    add('maybe', 'maybe');
  } else {
    if (schema.maxLength !== undefined) {
      if (!schema.pattern) add(`${schema.maxLength} chars (maxLength)`, 'x'.repeat(schema.maxLength));
      add(`${schema.maxLength + 1} chars (over maxLength)`, 'x'.repeat(schema.maxLength + 1));
    } else {
      add(`${LONG_VALUE_LENGTH.toLocaleString('en')} chars`, 'x'.repeat(LONG_VALUE_LENGTH));
    }
    add('__proto__', '__proto__');
  }
  // Headers cannot carry NUL or raw bytes (Node refuses to send them): only URLs get these.
  if (param.in !== 'header') {
    add('NUL', 'a%00b');
    add('bytes not UTF-8', '%FF%FE');
  }
  return variants;
}

/** The request target of the operation with the given (encoded) parameter values. */
function target(op: Operation, values: ReadonlyMap<OperationParameter, string>, extraQuery?: string): string {
  let path = op.path;
  const query: string[] = [];
  for (const [param, value] of values) {
    if (param.in === 'path') path = path.replace(`{${param.name}}`, value);
    else if (param.in === 'query') query.push(`${encodeURIComponent(param.name)}=${value}`);
  }
  if (extraQuery) query.push(extraQuery);
  return query.length > 0 ? `${path}?${query.join('&')}` : path;
}

function headerValues(values: ReadonlyMap<OperationParameter, string>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [param, value] of values) if (param.in === 'header') headers[param.name] = value;
  return headers;
}

/** A copy of `value` where every array the schema bounds with maxItems holds maxItems (+ `over`) items. */
function withArraysAtMax(value: unknown, schema: SchemaLike | undefined, over: number): { value: unknown; found: boolean } {
  if (!schema) return { value, found: false };
  if (Array.isArray(value)) {
    if (schema.maxItems !== undefined && value.length > 0) {
      return { value: Array.from({ length: schema.maxItems + over }, (_, i) => value[i % value.length]), found: true };
    }
    return { value, found: false };
  }
  if (value && typeof value === 'object') {
    let found = false;
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const inner = withArraysAtMax(item, schema.properties?.[key], over);
      copy[key] = inner.value;
      found ||= inner.found;
    }
    return { value: copy, found };
  }
  return { value, found: false };
}

/** A copy of `value` with every string replaced by `length` characters. */
function withLongStrings(value: unknown, length: number): unknown {
  if (typeof value === 'string') return 'x'.repeat(length);
  if (Array.isArray(value)) return value.map((item) => withLongStrings(item, length));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withLongStrings(v, length)]));
  return value;
}

const fixedBody = (text: string) => {
  const body = Buffer.from(text, 'utf8');
  return () => body;
};

function formText(example: unknown): string {
  const fields = example && typeof example === 'object' ? Object.entries(example) : [];
  return new URLSearchParams(fields.map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString();
}

interface BodyCase {
  label: string;
  body: () => Buffer;
  contentType?: string;
}

/** The example body and the hostile ones of the operation's first body we can build; none when we can build none. */
function bodyCases(op: Operation): { example: BodyCase; hostile: BodyCase[]; mediaType: string } | undefined {
  for (const media of op.bodies) {
    const kind = bodyKindOf(media.mediaType);
    if (!kind) continue;
    const unauthenticated = op.security.length > 0 ? ', no credentials' : '';
    if (kind === 'json') {
      const example = media.example ?? {};
      const hostile: BodyCase[] = [];
      for (const over of [0, 1]) {
        const filled = withArraysAtMax(example, media.schema, over);
        if (filled.found) hostile.push({ label: over === 0 ? 'arrays at maxItems' : 'arrays at maxItems + 1', body: fixedBody(JSON.stringify(filled.value)) });
      }
      hostile.push(
        { label: `every string ${LONG_BODY_STRING.toLocaleString('en')} chars`, body: fixedBody(JSON.stringify(withLongStrings(example, LONG_BODY_STRING))) },
        { label: 'arrays nested 10,000 deep', body: deepJsonArrays },
        { label: 'objects nested 10,000 deep', body: deepJsonObjects },
        { label: 'object of 100,000 keys', body: wideJsonObject },
        { label: `16 MiB JSON${unauthenticated}`, body: oversizeJson },
        { label: 'truncated JSON', body: fixedBody('{"apiVersion":"1.0","payload":{') },
        { label: 'JSON as text/plain', body: fixedBody(JSON.stringify(example)), contentType: 'text/plain' },
      );
      return { example: { label: 'example', body: fixedBody(JSON.stringify(example)) }, hostile, mediaType: media.mediaType };
    }
    if (kind === 'form') {
      const text = formText(media.example);
      return {
        example: { label: 'example', body: fixedBody(text) },
        hostile: [
          { label: `every field ${LONG_BODY_STRING.toLocaleString('en')} chars`, body: fixedBody(formText(withLongStrings(media.example ?? { field: '' }, LONG_BODY_STRING))) },
          { label: 'form of 100,000 fields', body: wideForm },
          { label: `16 MiB form${unauthenticated}`, body: oversizeForm },
        ],
        mediaType: media.mediaType,
      };
    }
    const text = typeof media.example === 'string' ? media.example : 'https://example.org/';
    return {
      example: { label: 'example', body: fixedBody(text) },
      hostile: [
        { label: `${LONG_BODY_STRING.toLocaleString('en')} chars`, body: sharedBody(`long-text-${LONG_BODY_STRING}`, () => 'x'.repeat(LONG_BODY_STRING)) },
        { label: `16 MiB text${unauthenticated}`, body: oversizeText },
      ],
      mediaType: media.mediaType,
    };
  }
  return undefined;
}

/** The path with its literal segments upper-cased (only the first, then all), as a router matching case-insensitively takes it. */
function oddCasePaths(path: string): { label: string; path: string }[] {
  const segments = path.split('/');
  const literal = (s: string) => s !== '' && !s.startsWith('{');
  const firstLiteral = segments.findIndex(literal);
  if (firstLiteral === -1) return [];
  const first = segments.map((s, i) => (i === firstLiteral ? s.toUpperCase() : s)).join('/');
  const all = segments.map((s) => (literal(s) ? s.toUpperCase() : s)).join('/');
  const lower = segments.map((s) => (literal(s) ? s.toLowerCase() : s)).join('/');
  const seen = new Set([path]);
  const paths: { label: string; path: string }[] = [];
  for (const [label, candidate] of [['first segment upper case', first], ['path upper case', all], ['path lower case', lower]] as const) {
    if (!seen.has(candidate)) paths.push({ label, path: candidate });
    seen.add(candidate);
  }
  return paths;
}

/**
 * Every generic case of the operation, then its hand-written ones; none when it uses a method or a body
 * media type this harness cannot send (the run then stops and names it: a new route must get cases).
 */
export function deriveCases(op: Operation, ctx: CaseContext, extras: RouteExtras = {}): AttackCase[] {
  if (!SENDABLE.has(op.method)) return [];
  const body = op.bodies.length > 0 ? bodyCases(op) : undefined;
  if (op.bodies.length > 0 && !body) return [];

  const exampleValues = new Map<OperationParameter, string>();
  for (const param of op.parameters) {
    const value = exampleValue(op, param, ctx);
    if (value !== undefined) exampleValues.set(param, param.in === 'header' ? value : encodeValue(value));
  }
  const baseHeaders: Record<string, string> = { Accept: op.answerType ?? '*/*' };
  if (body) baseHeaders['Content-Type'] = body.mediaType;
  Object.assign(baseHeaders, extras.headers);
  const exampleBody = body?.example.body;
  const cases: AttackCase[] = [];
  const add = (label: string, values: ReadonlyMap<OperationParameter, string>, extra: { headers?: Record<string, string>; body?: () => Buffer; path?: string; query?: string } = {}) =>
    cases.push({
      label,
      method: op.method,
      path: extra.path ?? target(op, values, extra.query),
      headers: { ...baseHeaders, ...headerValues(values), ...extra.headers },
      body: extra.body ?? exampleBody,
    });

  add('example', exampleValues);
  const integerQuery = op.parameters.filter((p) => p.in === 'query' && ['integer', 'number'].includes(typeOf(p.schema) ?? ''));
  for (const param of op.parameters) {
    if (param.in === 'cookie') continue;
    for (const variant of parameterVariants(param)) add(variant.label, new Map(exampleValues).set(param, variant.value));
  }
  if (integerQuery.length > 1) {
    const largest = new Map(exampleValues);
    for (const param of integerQuery) largest.set(param, parameterVariants(param)[0]!.value);
    add('every integer at its largest', largest);
  }
  const query = op.parameters.filter((p) => p.in === 'query');
  if (query.length > 0) {
    const repeated = query.flatMap((p) => Array.from({ length: REPEATS }, () => `${encodeURIComponent(p.name)}=${exampleValues.get(p) ?? 'x'}`)).join('&');
    add(`every query parameter ${REPEATS} times`, new Map(), { path: `${target(op, new Map([...exampleValues].filter(([p]) => p.in === 'path')))}?${repeated}` });
  }
  const examplePath = target(op, exampleValues);
  for (const odd of oddCasePaths(op.path)) {
    add(odd.label, exampleValues, { path: target({ ...op, path: odd.path }, exampleValues) });
  }
  add('wrong bearer token', exampleValues, { headers: { Authorization: `Bearer ${WRONG_BEARER_TOKEN}` } });
  if (op.security.includes('deskSession')) add('forged desk session cookie', exampleValues, { headers: { Cookie: 'curie_desk=forged-session-0123456789' } });
  for (const hostile of body?.hostile ?? []) {
    add(hostile.label, exampleValues, { body: hostile.body, headers: hostile.contentType ? { 'Content-Type': hostile.contentType } : {} });
  }
  for (const hand of extras.cases?.(ctx) ?? []) {
    cases.push({
      label: hand.label,
      method: op.method,
      path: hand.path ?? (hand.query ? `${examplePath.split('?')[0]}?${hand.query}` : examplePath),
      headers: { ...baseHeaders, ...headerValues(exampleValues), ...(hand.contentType ? { 'Content-Type': hand.contentType } : {}), ...hand.headers },
      body: hand.body ?? exampleBody,
    });
  }
  return cases;
}
