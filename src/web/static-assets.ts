import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Router } from '@koa/router';
import type { Context } from 'koa';
import { projectRoot } from '../lib/project-root.js';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
};

export interface StaticAssetsOptions {
  /** The folder whose stylesheets and scripts are served (the project's public/ by default). */
  dir?: string;
  /** Or these files only: served name -> file path (a package's files, say). */
  files?: Readonly<Record<string, string>>;
  /** Or these contents: served name -> what is served (a file put together at start). */
  contents?: Readonly<Record<string, string>>;
  /** Where they are served: `${mount}/{name}` (/static by default). */
  mount?: string;
}

interface Asset {
  body: Buffer;
  type: string;
  /** A hash of the content: the strong ETag, and the `v` of the URLs pages link it with. */
  hash: string;
}

// An address carrying the current hash never changes content; any other (an old page's) is revalidated.
const VERSIONED_CACHE = 'public, max-age=31536000, immutable';
const UNVERSIONED_CACHE = 'public, max-age=300';

/**
 * The stylesheet and the small scripts of the pages (the project's public/ folder), or a package's files
 * (the docs page's Swagger UI), read once at start: no build step, they are served as written. Pages link
 * each with its content hash (`url()`), so a browser keeps it until the file changes.
 */
export class StaticAssets {
  private readonly assets = new Map<string, Asset>();
  private readonly mount: string;

  constructor(options: StaticAssetsOptions = {}) {
    this.mount = options.mount ?? '/static';
    const dir = options.dir ?? path.join(projectRoot(), 'public');
    const bodies: [string, () => Buffer][] = options.contents
      ? Object.entries(options.contents).map(([name, text]) => [name, () => Buffer.from(text, 'utf8')])
      : Object.entries(options.files ?? Object.fromEntries(readdirSync(dir).map((name) => [name, path.join(dir, name)]))).map(([name, file]) => [
          name,
          () => readFileSync(file),
        ]);
    for (const [name, read] of bodies) {
      const type = CONTENT_TYPES[path.extname(name)];
      if (!type) continue;
      const body = read();
      this.assets.set(name, { body, type, hash: createHash('sha256').update(body).digest('base64url').slice(0, 16) });
    }
  }

  /** The address a page links the asset with; throws for a file public/ does not have (a typo in a page). */
  url(name: string): string {
    const asset = this.assets.get(name);
    if (!asset) throw new Error(`No static asset public/${name}`);
    return `${this.mount}/${name}?v=${asset.hash}`;
  }

  /** The uncompressed size of an asset, in bytes (the pages' weight budget is counted in these). */
  size(name: string): number {
    return this.assets.get(name)?.body.length ?? 0;
  }

  /** GET {mount}/{name}: the file with its ETag; 304 when the browser's copy is current. */
  routes(): Router {
    return StaticAssets.routesOf(this.mount, () => this);
  }

  /** The same route for assets made on its first request (`assets` is called per request: let it cache). */
  static routesOf(mount: string, assets: () => StaticAssets): Router {
    const router = new Router();
    router.get(`${mount}/:name`, (ctx) => assets().answer(ctx, ctx.params.name ?? ''));
    return router;
  }

  /** Answers with the named asset (nothing, leaving a 404, for one it does not have) and its cache headers. */
  answer(ctx: Context, name: string): void {
    const asset = this.assets.get(name);
    if (!asset) return;
    ctx.set('ETag', `"${asset.hash}"`);
    ctx.set('Cache-Control', ctx.query.v === asset.hash ? VERSIONED_CACHE : UNVERSIONED_CACHE);
    ctx.type = asset.type;
    // ctx.fresh compares the validators only on a 2xx answer.
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.body = asset.body;
  }
}
