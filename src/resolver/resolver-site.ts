import path from 'node:path';
import type { Router } from '@koa/router';
import type { KoaPath } from '../http/koa-paths.js';
import { projectRoot } from '../lib/project-root.js';
import { FAVICON, STYLESHEET, type Site } from '../web/site.js';
import { StaticAssets } from '../web/static-assets.js';

/**
 * Where the resolver serves the site's stylesheet for its own pages (the failure page, `/`). Not the
 * registry's `/static`: every other path of the resolver is a compact identifier, and no prefix holds a `-`
 * (prefixes are `[a-z0-9_.]+`), so this one can never be one.
 */
export const RESOLVER_ASSETS_PATH = '/page-assets';

/** The resolver's Koa paths of its pages' files (koa-paths.ts). */
export const RESOLVER_ASSET_PATHS: readonly KoaPath[] = [{ path: `${RESOLVER_ASSETS_PATH}/`, under: true }];

let assetsOnce: StaticAssets | undefined;

/**
 * The registry's stylesheet and icon only, read once per process: the resolver's pages share the registry's
 * look, and linking the files from the registry's origin would need another source in their policy.
 */
function resolverAssets(): StaticAssets {
  const file = (name: string) => path.join(projectRoot(), 'public', name);
  assetsOnce ??= new StaticAssets({ mount: RESOLVER_ASSETS_PATH, files: { [STYLESHEET]: file(STYLESHEET), [FAVICON]: file(FAVICON) } });
  return assetsOnce;
}

/** The site the resolver's pages are rendered with: the registry's layout, its links pointing to the registry. */
export function resolverSite(urls: { publicResolverUrl: string; publicRegistryUrl: string }): Site {
  return { ...urls, assets: resolverAssets(), registryLinkBase: urls.publicRegistryUrl };
}

/** GET /page-assets/{name}. */
export function resolverAssetRoutes(site: Site): Router {
  return site.assets.routes();
}
