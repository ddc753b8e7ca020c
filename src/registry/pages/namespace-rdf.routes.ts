import { Router } from '@koa/router';
import type { ExportUrls } from '../../dataset/export-uris.js';
import { notFound } from '../../http/http-error.js';
import { importInTurn, loadOnFirstUse } from '../../lib/warm-up.js';
import { preferredRdfType } from '../../web/negotiation.js';
import type { NamespaceRdfService } from './namespace-rdf.service.js';

// The presenters (with n3) are loaded by the first RDF request, not by every app built.
const loadPresenters = loadOnFirstUse(() =>
  importInTurn(
    () => import('../../dataset/export-rdf.presenter.js'),
    () => import('./namespace-rdf.presenter.js'),
  ),
);

export interface NamespaceRdfDeps {
  namespaces: NamespaceRdfService;
  urls: ExportUrls;
}

/**
 * GET /registry/{prefix} for a client whose Accept prefers Turtle, N-Triples or JSON-LD: the namespace's
 * triples, as the registry.ttl export has them (the page's URL is the namespace's URI there). Every other
 * client goes on to the page or the HAL redirect. Mounted ahead of the routes it shares the path with.
 */
export function namespaceRdfRoutes(deps: NamespaceRdfDeps): Router {
  const router = new Router();
  router.get('/registry/:prefix', async (ctx, next) => {
    ctx.vary('Accept');
    const type = preferredRdfType(ctx.req);
    if (type === null) return next();
    const prefix = ctx.params.prefix ?? '';
    const namespace = await deps.namespaces.namespaceRdf(prefix);
    if (!namespace) throw notFound(`No namespace with prefix '${prefix}'`);
    const [{ RegistryRdf, rdfPrefixes }, { jsonLdOf, rdfTextOf }] = await loadPresenters();
    const quads = new RegistryRdf(deps.urls).namespaceQuads(namespace, new Set());
    // Set before the body: Koa would otherwise replace a JSON-LD type with application/json.
    ctx.type = `${type}; charset=utf-8`;
    ctx.body = type === 'application/ld+json' ? JSON.stringify(jsonLdOf(quads)) : await rdfTextOf(quads, type, rdfPrefixes(deps.urls));
  });
  return router;
}
