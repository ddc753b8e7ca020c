import type { Middleware } from 'koa';
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-error.js';
import { markBodyRead } from './auth-before-body.js';
import { checkJsonBody } from './input-guard.js';

export const DEFAULT_JSON_LIMIT = 64 * 1024;
export const BATCH_JSON_LIMIT = 1024 * 1024;

export function describeLimit(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`;
}

/**
 * Reads a JSON request body into ctx.request.body, with a size limit per route. Malformed JSON, a wrong
 * content type and an oversized body each get their own clear 4xx message in the envelope.
 */
const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

/** Called once with the parsed body (undefined for an empty one) or the 4xx error that refuses it. */
export type JsonBodyCallback = (error: HttpError | null, body?: unknown) => void;

/**
 * Reads and parses a JSON request body from the raw request, with the checks every JSON endpoint shares:
 * the size limit (413), the content type (415), bytes that are not UTF-8, malformed JSON, and the input
 * guard's NUL, lone surrogates and nesting depth (400, see input-guard.ts), each with its own message.
 * Callback-shaped for the resolver's hot path (the reverse lookups), where the two promise hops of the
 * async form are a measurable share of a request; readJsonRequest wraps it for everyone else.
 */
export function readJsonBody(req: IncomingMessage, limit: number, done: JsonBodyCallback): void {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) return done(new HttpError(413, `Request body is larger than the limit of ${describeLimit(limit)}`));
  const type = req.headers['content-type'];
  if (type && !type.startsWith('application/json') && !JSON_TYPE.test(type)) {
    return done(new HttpError(415, `Unsupported Content-Type '${type.slice(0, 100)}'; send application/json`));
  }
  readText(req, limit, (error, text) => {
    if (error) return done(error);
    if (text!.trim() === '') return done(null, undefined);
    let body: unknown;
    try {
      body = JSON.parse(text!) as unknown;
    } catch (parseError) {
      return done(new HttpError(400, `Malformed JSON in request body: ${(parseError as Error).message}`));
    }
    // JSON carries a NUL or a lone surrogate only as a \u escape (it refuses raw control characters, and
    // UTF-8 has no surrogates), so the strings of a body without one need no look.
    const refused = checkJsonBody(body, text!.includes('\\u'));
    if (refused) return done(refused);
    done(null, body);
  });
}

/** readJsonBody as a promise. */
export function readJsonRequest(req: IncomingMessage, limit: number): Promise<unknown> {
  return new Promise((resolve, reject) => readJsonBody(req, limit, (error, body) => (error ? reject(error) : resolve(body))));
}

/**
 * Koa middleware for a text body of one media type (`text/uri-list`, say): the text in ctx.request.body,
 * with the size limit (413), the type (415) and the UTF-8 check (400) of the JSON bodies.
 */
export function textBody(mediaType: string, limit = DEFAULT_JSON_LIMIT): Middleware {
  const type = new RegExp(`^${mediaType.replace(/[.+/]/g, '\\$&')}\\s*(;|$)`, 'i');
  return async function readTextBody(ctx, next) {
    markBodyRead(ctx);
    const declared = Number(ctx.get('Content-Length'));
    if (declared > limit) throw new HttpError(413, `Request body is larger than the limit of ${describeLimit(limit)}`);
    const given = ctx.get('Content-Type');
    if (!type.test(given)) throw new HttpError(415, `Unsupported Content-Type '${given.slice(0, 100)}'; send ${mediaType}`);
    ctx.request.body = await new Promise<string>((resolve, reject) => readText(ctx.req, limit, (error, text) => (error ? reject(error) : resolve(text!))));
    await next();
  };
}

/** Koa middleware: the parsed body in ctx.request.body (see readJsonRequest), with a size limit per route. */
export function jsonBody(limit = DEFAULT_JSON_LIMIT): Middleware {
  return async function readJsonBody(ctx, next) {
    markBodyRead(ctx);
    ctx.request.body = await readJsonRequest(ctx.req, limit);
    await next();
  };
}

/**
 * Collects the body up to `limit` bytes. Small on purpose (the reverse lookups are on the hot path); a
 * body that grows past the limit is refused as soon as it does, whatever Content-Length claimed. The
 * listeners stay on the request, which is dropped with them; `finished` makes sure only the first outcome
 * counts.
 */
export function readText(req: IncomingMessage, limit: number, done: (error: HttpError | null, text?: string) => void): void {
  let first: Buffer | null = null;
  let more: Buffer[] | null = null;
  let size = 0;
  let finished = false;
  const finish = (error: HttpError | null, text?: string) => {
    if (finished) return;
    finished = true;
    done(error, text);
  };
  req.on('data', (chunk: Buffer) => {
    if (finished) return;
    size += chunk.length;
    if (size > limit) {
      // Stop keeping the body but let the client finish sending, so it can read our 413.
      req.resume();
      return finish(new HttpError(413, `Request body is larger than the limit of ${describeLimit(limit)}`));
    }
    if (first === null) first = chunk;
    else (more ??= [first]).push(chunk);
  });
  req.on('end', () => {
    const bytes = more ? Buffer.concat(more) : first;
    if (bytes === null) return finish(null, '');
    // Decoding would turn stray bytes into U+FFFD and store them as if the client had sent that.
    if (!isUtf8(bytes)) return finish(new HttpError(400, 'Request body is not valid UTF-8'));
    finish(null, bytes.toString('utf8'));
  });
  req.on('error', (error: Error) => finish(new HttpError(400, `Request body could not be read: ${error.message}`)));
  req.on('aborted', () => finish(new HttpError(400, 'Request body was not completely received')));
}

declare module 'koa' {
  interface Request {
    body?: unknown;
  }
}
