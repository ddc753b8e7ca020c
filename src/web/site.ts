import type { StaticAssets } from './static-assets.js';

/** What every page is rendered with: the deployment's public addresses and the static assets. */
export interface Site {
  /** Base of resolver links (a compact identifier's address), without a trailing slash. */
  publicResolverUrl: string;
  /** Base of absolute registry links, without a trailing slash; pages link within the area by path. */
  publicRegistryUrl: string;
  assets: StaticAssets;
}

/** The stylesheet every page links. */
export const STYLESHEET = 'registry.css';
/** The icon every page names (public/). */
export const FAVICON = 'favicon.svg';
