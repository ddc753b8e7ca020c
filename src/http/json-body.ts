import type { Middleware } from 'koa';
import getRawBody from 'raw-body';
import { HttpError } from './http-error.js';

export const DEFAULT_JSON_LIMIT = 64 * 1024;
export const BATCH_JSON_LIMIT = 1024 * 1024;

function describeLimit(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`;
}

/**
 * Reads a JSON request body into ctx.request.body, with a size limit per route. Malformed JSON, a wrong
 * content type and an oversized body each get their own clear 4xx message in the envelope.
 */
export function jsonBody(limit = DEFAULT_JSON_LIMIT): Middleware {
  return async function readJsonBody(ctx, next) {
    const declared = ctx.request.length;
    if (declared !== undefined && declared > limit) {
      throw new HttpError(413, `Request body is larger than the limit of ${describeLimit(limit)}`);
    }
    const type = ctx.get('Content-Type');
    if (type && !ctx.is('application/json', 'application/*+json')) {
      throw new HttpError(415, `Unsupported Content-Type '${type.slice(0, 100)}'; send application/json`);
    }
    let text: string;
    try {
      text = await getRawBody(ctx.req, { limit, encoding: 'utf8', length: declared });
    } catch (error) {
      if ((error as { type?: string }).type === 'entity.too.large') {
        throw new HttpError(413, `Request body is larger than the limit of ${describeLimit(limit)}`);
      }
      throw error;
    }
    if (text.trim() === '') {
      ctx.request.body = undefined;
    } else {
      try {
        ctx.request.body = JSON.parse(text) as unknown;
      } catch (error) {
        throw new HttpError(400, `Malformed JSON in request body: ${(error as Error).message}`);
      }
    }
    await next();
  };
}

declare module 'koa' {
  interface Request {
    body?: unknown;
  }
}
