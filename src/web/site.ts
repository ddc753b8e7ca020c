import type { StaticAssets } from './static-assets.js';

/** What every page is rendered with: the deployment's public addresses and the static assets. */
export interface Site {
  /** Base of resolver links (a compact identifier's address), without a trailing slash. */
  publicResolverUrl: string;
  /** Base of absolute registry links, without a trailing slash; pages link within the area by path. */
  publicRegistryUrl: string;
  assets: StaticAssets;
  /**
   * What the navigation's and the search box's links to the registry's pages start with: nothing on the
   * registry's own pages (they link by path, the default), the registry's public URL on the resolver's
   * pages, which are served from another origin.
   */
  registryLinkBase?: string;
}

/** The address of a registry page (`/registry`, `/docs`…) as a page of this site links it. */
export function registryHref(site: Site, path: string): string {
  return `${site.registryLinkBase ?? ''}${path}`;
}

/** The stylesheet every page links. */
export const STYLESHEET = 'registry.css';
/** The icon every page names (public/). */
export const FAVICON = 'favicon.svg';

/** The address at the resolver of a compact identifier as written (`GO:0006915`, `quickgo/GO:0006915`). */
export function resolverHref(site: Site, curie: string): string {
  return `${site.publicResolverUrl}/${encodeURI(curie).replace(/[?#]/g, encodeURIComponent)}`;
}
