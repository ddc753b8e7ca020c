import type { Middleware } from 'koa';
import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-error.js';

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

/**
 * Reads and parses a JSON request body from the raw request, with the checks every JSON endpoint shares:
 * the size limit (413), the content type (415) and malformed JSON (400), each with its own message.
 * Undefined for an empty body.
 */
export async function readJsonRequest(req: IncomingMessage, limit: number): Promise<unknown> {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) throw new HttpError(413, `Request body is larger than the limit of ${describeLimit(limit)}`);
  const type = req.headers['content-type'];
  if (type && !type.startsWith('application/json') && !JSON_TYPE.test(type)) {
    throw new HttpError(415, `Unsupported Content-Type '${type.slice(0, 100)}'; send application/json`);
  }
  const text = await readText(req, limit);
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpError(400, `Malformed JSON in request body: ${(error as Error).message}`);
  }
}

/** Koa middleware: the parsed body in ctx.request.body (see readJsonRequest), with a size limit per route. */
export function jsonBody(limit = DEFAULT_JSON_LIMIT): Middleware {
  return async function readJsonBody(ctx, next) {
    ctx.request.body = await readJsonRequest(ctx.req, limit);
    await next();
  };
}

/**
 * Collects the body up to `limit` bytes. Small on purpose (the reverse lookups are on the hot path); a
 * body that grows past the limit is refused as soon as it does, whatever Content-Length claimed.
 */
export function readText(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        // Stop reading but let the client finish sending, so it can read our 413.
        req.resume();
        reject(new HttpError(413, `Request body is larger than the limit of ${describeLimit(limit)}`));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(new HttpError(400, `Request body could not be read: ${error.message}`));
    };
    const onAborted = () => {
      cleanup();
      reject(new HttpError(400, 'Request body was not completely received'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}

declare module 'koa' {
  interface Request {
    body?: unknown;
  }
}
