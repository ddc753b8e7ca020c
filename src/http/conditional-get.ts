import { createHash } from 'node:crypto';
import type { Context } from 'koa';

/**
 * Conditional GET (RFC 9110 §13.1): If-None-Match with the weak comparison it asks for (a `W/` tag matches
 * its strong twin), else If-Modified-Since in whole seconds when the answer has a Last-Modified.
 */
export function isNotModified(ifNoneMatch: string, ifModifiedSince: string, etags: readonly string[], lastModified?: Date): boolean {
  if (ifNoneMatch) {
    return ifNoneMatch
      .split(',')
      .map((tag) => tag.trim().replace(/^W\//, ''))
      .some((tag) => tag === '*' || etags.includes(tag));
  }
  if (ifModifiedSince && lastModified) {
    const since = Date.parse(ifModifiedSince);
    return !Number.isNaN(since) && Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
  }
  return false;
}

/**
 * Answers a JSON body that any cache may keep for `maxAgeSeconds`, with a strong ETag of its text, or 304
 * when the client already holds that text.
 */
export function sendCacheableJson(ctx: Context, body: unknown, maxAgeSeconds: number): void {
  const json = JSON.stringify(body);
  const etag = `"${createHash('sha256').update(json).digest('base64url').slice(0, 32)}"`;
  ctx.set('ETag', etag);
  ctx.set('Cache-Control', `public, max-age=${maxAgeSeconds}`);
  if (isNotModified(ctx.get('If-None-Match'), '', [etag])) {
    ctx.status = 304;
    return;
  }
  ctx.status = 200;
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = json;
}
