import path from 'node:path';
import { projectRoot } from '../../lib/project-root.js';
import { StaticAssets } from '../../web/static-assets.js';

/** Where other sites load the search box from: a stable address (revalidated by ETag), or with `?v=` (cached a year). */
export const EMBED_PATH = '/embed';
export const EMBED_SCRIPT = 'curie-search.js';
export const EMBED_SCRIPT_PATH = `${EMBED_PATH}/${EMBED_SCRIPT}`;

let assetsOnce: StaticAssets | undefined;

/** The one file, public/embed/curie-search.js, read once per process (as the pages' own files are). */
export function embedAssets(): StaticAssets {
  assetsOnce ??= new StaticAssets({ mount: EMBED_PATH, files: { [EMBED_SCRIPT]: path.join(projectRoot(), 'public/embed', EMBED_SCRIPT) } });
  return assetsOnce;
}
