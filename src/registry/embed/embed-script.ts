import { readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../lib/project-root.js';
import { StaticAssets } from '../../web/static-assets.js';

/** Where other sites load the search box from: a stable address (revalidated by ETag), or with `?v=` (cached a year). */
export const EMBED_PATH = '/embed';
export const EMBED_SCRIPT = 'curie-search.js';
export const EMBED_SCRIPT_PATH = `${EMBED_PATH}/${EMBED_SCRIPT}`;

// The site's combobox, which the element imports: what makes its keys and announcements the site's own.
const SHARED = 'namespace-suggestions.js';
const IMPORT = `import { attachNamespaceSuggestions } from '../${SHARED}';`;
const EXPORT = /^export (?=function attachNamespaceSuggestions\b)/m;
const MODULE_SYNTAX = /^\s*(import|export)\b/m;
// Comments alone on their line: the box is weighed as served (under 10 KB), its comments are for its readers.
const COMMENT_LINE = /^\s*(\/\/.*|\/\*\*.*\*\/)\n/gm;

/**
 * The box as ONE classic script, which any page can load with a plain <script src> (and which knows its own
 * address, document.currentScript, to find the registry): public/embed/curie-search.js with the site's
 * namespace-suggestions.js in place of its one import, in a strict function scope. Fails at start on an
 * import or export it does not know, so a change to either file cannot ship a broken box.
 */
export function bundleEmbedScript(publicDir: string = path.join(projectRoot(), 'public')): string {
  const element = readFileSync(path.join(publicDir, 'embed', EMBED_SCRIPT), 'utf8');
  const shared = readFileSync(path.join(publicDir, SHARED), 'utf8');
  if (!element.includes(IMPORT) || !EXPORT.test(shared)) {
    throw new Error(`public/embed/${EMBED_SCRIPT} must import attachNamespaceSuggestions from public/${SHARED}, which must export it`);
  }
  const parts = [shared.replace(EXPORT, ''), element.replace(IMPORT, '')];
  if (parts.some((part) => MODULE_SYNTAX.test(part))) {
    throw new Error(`public/embed/${EMBED_SCRIPT} and public/${SHARED} may have no other import or export: the box is served as one classic script`);
  }
  return `(() => {\n'use strict';\n${parts.join('\n')}})();\n`.replace(COMMENT_LINE, '');
}

let assetsOnce: StaticAssets | undefined;

/** The bundled script, put together once per process (as the pages' own files are read once). */
export function embedAssets(): StaticAssets {
  assetsOnce ??= new StaticAssets({ mount: EMBED_PATH, contents: { [EMBED_SCRIPT]: bundleEmbedScript() } });
  return assetsOnce;
}
