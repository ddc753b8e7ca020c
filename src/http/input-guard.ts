/**
 * The one guard for client text, ahead of every route of both areas: JSON bodies (json-body.ts calls
 * checkJsonBody) and the path of every request Koa answers (guardRequestPath, in base-app.ts).
 * Postgres refuses the NUL character in text ("invalid byte sequence for encoding UTF8"), a lone UTF-16
 * surrogate has no UTF-8 form at all, and bytes that are not UTF-8 were silently turned into U+FFFD; the
 * first two used to reach a Postgres query or a header and come back as a 500. All three are refused here
 * with a 400 that names the field, so no route needs a check of its own. A JSON body nested deeper than
 * anyone's data is refused too: code that walks a body recursively (the idempotency hash) would overflow
 * the stack.
 */
import { isUtf8 } from 'node:buffer';
import type { Context, Middleware } from 'koa';
import type { Router } from '@koa/router';
import { HttpError } from './http-error.js';

/** The deepest body a client sends, a curator's amendment (payload.prefixRegistrationRequest.requester.name), has four. */
export const MAX_JSON_DEPTH = 64;

const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';
const SURROGATE = /[\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What makes `text` unfit to store or send on: a NUL or a lone surrogate, as the end of a message; else null. */
export function textProblem(text: string): string | null {
  if (text.includes('\0')) return NUL_MESSAGE;
  if (!SURROGATE.test(text)) return null;
  const lone = LONE_SURROGATE.exec(text);
  if (!lone) return null;
  const code = lone[0].charCodeAt(0).toString(16).toUpperCase();
  return `holds an unpaired UTF-16 surrogate (U+${code}); send well-formed Unicode text`;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const MAX_NAME_SHOWN = 60;

/** `payload.requester.email`, `compactIdentifiers[3]`, `payload["odd key"]`: how a client would write the path. */
function formatFieldPath(trail: readonly (string | number)[]): string {
  let path = '';
  for (const step of trail) {
    if (typeof step === 'number') path += `[${step}]`;
    else if (IDENTIFIER.test(step) && step.length <= MAX_NAME_SHOWN) path += path === '' ? step : `.${step}`;
    // JSON.stringify escapes NUL and lone surrogates, so the message itself stays clean text.
    else path += `[${JSON.stringify(step.slice(0, MAX_NAME_SHOWN))}${step.length > MAX_NAME_SHOWN ? '…' : ''}]`;
  }
  return path;
}

/**
 * Walks a parsed JSON body: 400 when it nests deeper than MAX_JSON_DEPTH, or when a string or a key holds
 * a NUL or a lone surrogate, naming the field (`payload.rorId`). `checkText` false skips the strings: the
 * caller knows the body text has no `\u` escape, the only way JSON can carry either.
 */
export function checkJsonBody(body: unknown, checkText = true): HttpError | null {
  const trail: (string | number)[] = [];
  const problem = findProblem(body, 1, checkText, trail);
  return problem === null ? null : new HttpError(400, problem);
}

// Plain recursion without closures: it runs on every JSON body, the resolver's reverse lookups included.
// The depth bound keeps it short; `trail` holds the way down to the value being looked at.
function findProblem(value: unknown, depth: number, checkText: boolean, trail: (string | number)[]): string | null {
  if (typeof value === 'string') {
    const problem = checkText ? textProblem(value) : null;
    return problem === null ? null : describeField('field', problem, trail);
  }
  if (value === null || typeof value !== 'object') return null;
  if (depth > MAX_JSON_DEPTH) return `Request body is nested more than ${MAX_JSON_DEPTH} levels deep`;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      trail.push(i);
      const problem = findProblem(value[i], depth + 1, checkText, trail);
      if (problem !== null) return problem;
      trail.pop();
    }
    return null;
  }
  for (const key in value) {
    trail.push(key);
    const keyProblem = checkText ? textProblem(key) : null;
    if (keyProblem !== null) return describeField('field name', keyProblem, trail);
    const problem = findProblem((value as Record<string, unknown>)[key], depth + 1, checkText, trail);
    if (problem !== null) return problem;
    trail.pop();
  }
  return null;
}

function describeField(what: string, problem: string, trail: readonly (string | number)[]): string {
  return trail.length === 0 ? `Request body ${problem}` : `Request body ${what} '${formatFieldPath(trail)}' ${problem}`;
}

const HEX = /^[0-9A-Fa-f]{2}$/;

/** The bytes a URL component stands for: `%XX` escapes decoded, every other character as the byte it came as. */
function componentBytes(raw: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const code = raw.charCodeAt(i);
    if (code === 37 /* % */ && HEX.test(raw.slice(i + 1, i + 3))) {
      bytes.push(parseInt(raw.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (code <= 0xff) {
      // A request line is read as Latin-1: each character is the byte the client sent.
      bytes.push(code);
    } else {
      bytes.push(...Buffer.from(raw[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

/** The end of a message when a URL component does not decode to clean text; else null. */
function componentProblem(raw: string): string | null {
  const bytes = componentBytes(raw);
  if (bytes.includes(0)) return NUL_MESSAGE;
  return isUtf8(bytes) ? null : 'is not valid UTF-8 once percent-decoded';
}

/**
 * The name of the route parameter that captured the bad part of the path, found through the area's
 * routers (the slow path of a refused request only), so the message names `prefix` rather than a segment.
 */
function pathParameterAt(ctx: Context, isBad: (raw: string) => boolean): string | undefined {
  for (const middleware of ctx.app.middleware) {
    const router = (middleware as { router?: Router }).router;
    if (!router) continue;
    for (const layer of router.match(ctx.path, ctx.method).path) {
      if (layer.paramNames.length === 0) continue;
      const captures = layer.captures(ctx.path);
      for (let i = 0; i < layer.paramNames.length; i++) {
        const captured = captures[i];
        if (captured !== undefined && isBad(captured)) return String(layer.paramNames[i]!.name);
      }
    }
  }
  return undefined;
}

function pathProblem(ctx: Context): string | null {
  const problem = componentProblem(ctx.path);
  if (problem === null) return null;
  const parameter = pathParameterAt(ctx, (raw) => componentProblem(raw) !== null);
  return parameter === undefined ? `The request path ${problem}` : `Path parameter '${parameter}' ${problem}`;
}

/**
 * Koa middleware: 400 for a path whose text, percent-decoded, holds a NUL or is not UTF-8. Query values are
 * left to the routes: the browse API answers a NUL or stray bytes there as "no match" or the default page,
 * as it always has (registry/model/query-values.ts); every other route checks its query values itself
 * (test/integration/fuzz.test.ts sends them NUL and stray bytes).
 */
export function guardRequestPath(): Middleware {
  return function guardRequestPath(ctx, next) {
    // Only an escape can stand for a NUL or for bytes that are not UTF-8: Node's parser answers a request
    // line holding a control character or a byte beyond ASCII with its own 400.
    if (!ctx.path.includes('%')) return next();
    const problem = pathProblem(ctx);
    if (problem !== null) throw new HttpError(400, problem);
    return next();
  };
}
