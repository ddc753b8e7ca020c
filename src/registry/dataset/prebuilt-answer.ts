import type { Context } from 'koa';
import { etagOf, type OpenedDataset } from '../../dataset/dataset-files.js';
import { isNotModified } from '../../http/conditional-get.js';

export interface PrebuiltAnswer {
  gzip: boolean;
  contentType: string;
  lastModified: Date;
  /** Content-Disposition, for a file a browser should save under a name of its own. */
  disposition?: string;
}

/**
 * Answers a prebuilt file of the dataset directory (the dataset, an export): a strong ETag and Last-Modified
 * for conditional requests, a minute of caching, the gzip sibling when the client takes it, 304 when the
 * client holds it already in either coding.
 */
export function sendPrebuilt(ctx: Context, opened: OpenedDataset, answer: PrebuiltAnswer): void {
  const { files, body, size } = opened;
  ctx.vary('Accept-Encoding');
  ctx.set('ETag', etagOf(files, answer.gzip));
  ctx.set('Last-Modified', answer.lastModified.toUTCString());
  ctx.set('Cache-Control', 'public, max-age=60');
  if (answer.disposition) ctx.set('Content-Disposition', answer.disposition);
  // Either coding's tag names the same content, so either revalidates.
  const etags = [etagOf(files, false), etagOf(files, true)];
  if (isNotModified(ctx.get('If-None-Match'), ctx.get('If-Modified-Since'), etags, answer.lastModified)) {
    if (!Buffer.isBuffer(body)) body.destroy();
    ctx.status = 304;
    return;
  }
  ctx.status = 200;
  // Koa destroys a stream (closing the file) when the response ends or the client goes away.
  ctx.body = body;
  ctx.set('Content-Type', answer.contentType);
  if (answer.gzip) ctx.set('Content-Encoding', 'gzip');
  ctx.length = size;
}
