/**
 * GET /openapi.json (the area's OpenAPI document, built once, on first use) and GET /docs (Swagger UI from the
 * swagger-ui-dist package's own files, never a CDN). The page loads three files, each linked with its content
 * hash and cached for a year: Swagger UI's stylesheet and script, and our initializer (public/docs/), so the
 * page has no inline script.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { Router } from '@koa/router';
import { projectRoot } from '../lib/project-root.js';
import { StaticAssets } from '../web/static-assets.js';
import { warmUpWith } from '../lib/warm-up.js';
import { buildOpenApiDocument, type Area, type DocumentOptions } from './openapi-document.js';
import type { KoaPath } from '../http/koa-paths.js';
import { DOCS_SECURITY_POLICY, setPageSecurity } from '../http/page-security.js';

export const DOCS_ASSETS_PATH = '/docs/assets';

/** The resolver's Koa paths of the documentation (koa-paths.ts): what isDocsPath matches. */
export const DOCS_PATHS: readonly KoaPath[] = [
  { path: '/openapi.json' },
  { path: '/docs' },
  { path: '/docs/' },
  { path: `${DOCS_ASSETS_PATH}/`, under: true },
];

/** The paths these routes answer: on the resolver they are not compact identifiers, and count as browsing. */
export function isDocsPath(path: string): boolean {
  return path === '/openapi.json' || path === '/docs' || path === '/docs/' || path.startsWith(`${DOCS_ASSETS_PATH}/`);
}

function swaggerUiDir(): string {
  return path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

let assetsOnce: StaticAssets | undefined;

/** The docs page's files (read once per process): only these of the package, never its other bundles and maps. */
function docsAssets(): StaticAssets {
  if (assetsOnce) return assetsOnce;
  const swagger = swaggerUiDir();
  assetsOnce = new StaticAssets({
    mount: DOCS_ASSETS_PATH,
    files: {
      'swagger-ui.css': path.join(swagger, 'swagger-ui.css'),
      'swagger-ui-bundle.js': path.join(swagger, 'swagger-ui-bundle.js'),
      'swagger-initializer.js': path.join(projectRoot(), 'public', 'docs', 'swagger-initializer.js'),
    },
  });
  return assetsOnce;
}

function docsPage(title: string, assets: StaticAssets): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${title}: API documentation</title>`,
    `<link rel="stylesheet" href="${assets.url('swagger-ui.css')}">`,
    '</head>',
    '<body>',
    '<noscript><p>This page needs JavaScript. The document it shows is <a href="openapi.json">openapi.json</a>.</p></noscript>',
    '<div id="swagger-ui"></div>',
    `<script src="${assets.url('swagger-ui-bundle.js')}"></script>`,
    `<script src="${assets.url('swagger-initializer.js')}"></script>`,
    '</body>',
    '</html>',
  ].join('\n');
}

// The document and the page change only with a new release (a restart); a few minutes spare the area.
const DOCUMENT_CACHE = 'public, max-age=300';

const documents = new Map<string, string>();
// The documents a warm-up builds: each registered once, however many apps are built for it.
const warmedDocuments = new Set<string>();
warmUpWith(docsAssets);

const documentKey = (area: Area, options: DocumentOptions): string => `${area} ${options.serverUrl} ${options.version}`;

/** The document's JSON text, built once per area and public URL in a process (tests build many apps). */
function documentJson(area: Area, options: DocumentOptions): string {
  const key = documentKey(area, options);
  let json = documents.get(key);
  if (json === undefined) {
    json = JSON.stringify(buildOpenApiDocument(area, options));
    documents.set(key, json);
  }
  return json;
}

/**
 * The routers of /openapi.json, /docs and the docs page's files. The document is built and the page's files
 * read and hashed on the first request that needs them, not here: building the document takes tens of
 * milliseconds, and most apps built (every test file builds several) are never asked for their docs. A
 * serving process does both at warm-up, before it listens (lib/warm-up.ts).
 */
export function docsRoutes(area: Area, options: DocumentOptions): Router[] {
  const title = area === 'resolver' ? 'Resolver' : 'Registry';
  let page: string | undefined;
  const docsPageOnce = (): string => (page ??= docsPage(title, docsAssets()));
  const key = documentKey(area, options);
  if (!warmedDocuments.has(key)) {
    warmedDocuments.add(key);
    warmUpWith(() => documentJson(area, options));
  }
  const router = new Router();
  router.get('/openapi.json', (ctx) => {
    ctx.set('Cache-Control', DOCUMENT_CACHE);
    ctx.type = 'application/json';
    ctx.body = documentJson(area, options);
  });
  router.get('/docs', (ctx) => {
    // The router takes /docs/ for /docs too; the page there would ask for /docs/openapi.json (its initializer
    // names the document relative to the page) and show "Failed to load API definition".
    if (ctx.path !== '/docs') {
      ctx.status = 301;
      ctx.redirect(`/docs${ctx.querystring ? `?${ctx.querystring}` : ''}`);
      return;
    }
    ctx.set('Cache-Control', DOCUMENT_CACHE);
    setPageSecurity(ctx, DOCS_SECURITY_POLICY);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = docsPageOnce();
  });
  // The page's files, read on their first request.
  return [router, StaticAssets.routesOf(DOCS_ASSETS_PATH, docsAssets)];
}
