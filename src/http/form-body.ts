import type { Middleware } from 'koa';
import { markBodyRead } from './auth-before-body.js';
import { HttpError } from './http-error.js';
import { textProblem } from './input-guard.js';
import { describeLimit, readText } from './json-body.js';

/** A registration form with every field filled at length stays well under this. */
export const DEFAULT_FORM_LIMIT = 64 * 1024;
/** More fields than any of our forms has: a body with more is not one of them. */
const MAX_FIELDS = 200;
const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(;|$)/i;
const MAX_NAME_SHOWN = 60;

/** The fields of a form body: each name's first value (our forms never repeat a name). */
export type FormFields = Readonly<Record<string, string>>;

function decode(part: string, what: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    // decodeURIComponent refuses a bad escape and bytes that are not UTF-8, which URLSearchParams would turn into U+FFFD.
    throw new HttpError(400, `Form ${what} is not percent-encoded UTF-8`);
  }
}

/**
 * Parses an application/x-www-form-urlencoded body with the input guard's rules (json-body.ts and
 * input-guard.ts): UTF-8 only, no NUL or lone surrogate in a name or value (400 naming the field).
 */
export function parseFormText(text: string): FormFields {
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  if (text === '') return fields;
  const parts = text.split('&');
  if (parts.length > MAX_FIELDS) throw new HttpError(400, `A form body has at most ${MAX_FIELDS} fields`);
  for (const part of parts) {
    if (part === '') continue;
    const at = part.indexOf('=');
    const name = decode(at < 0 ? part : part.slice(0, at), 'field name');
    const shown = JSON.stringify(name.slice(0, MAX_NAME_SHOWN));
    const value = at < 0 ? '' : decode(part.slice(at + 1), `field ${shown}`);
    const problem = textProblem(name) ?? textProblem(value);
    if (problem) throw new HttpError(400, `Form field ${shown} ${problem}`);
    if (!(name in fields)) fields[name] = value;
  }
  return fields;
}

/**
 * Koa middleware for the pages' forms: the fields of an urlencoded body in ctx.request.body, within a size
 * limit (413), refusing another content type (415).
 */
export function formBody(limit = DEFAULT_FORM_LIMIT): Middleware {
  return async function readFormBody(ctx, next) {
    markBodyRead(ctx);
    const declared = Number(ctx.get('content-length'));
    if (declared > limit) throw new HttpError(413, `Request body is larger than the limit of ${describeLimit(limit)}`);
    const type = ctx.get('content-type');
    if (!FORM_TYPE.test(type)) {
      throw new HttpError(415, `Unsupported Content-Type '${type.slice(0, 100)}'; send application/x-www-form-urlencoded`);
    }
    const text = await new Promise<string>((resolve, reject) => readText(ctx.req, limit, (error, body) => (error ? reject(error) : resolve(body ?? ''))));
    ctx.request.body = parseFormText(text);
    await next();
  };
}
