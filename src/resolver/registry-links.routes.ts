import type { Context, Middleware } from 'koa';
import { findNamespaceByMirId } from '../core/mir-id.js';
import type { RegistrySnapshot } from '../core/registry-snapshot.js';
import { resolveCompactId } from '../core/resolve.js';
import { errorEnvelope } from '../http/envelope.js';
import type { KoaPath } from '../http/koa-paths.js';
import { HEAD_AND_GET } from '../http/unserved-methods.js';
import { DEPRECATED_LANDING, decodeRawRequest, PROTECTED_LANDING } from './front-handler.js';
import { setPageSecurity } from '../http/page-security.js';
import type { Site } from '../web/site.js';
import { LANDING_PAGE_POLICY, renderDeprecatedLanding, renderProtectedLanding } from './landing-page.js';
import { renderResolutionFailed } from './resolution-failed.page.js';

export interface RegistryLinksDeps {
  snapshot: () => RegistrySnapshot;
  publicRegistryUrl: string;
  /** What the failure page is rendered with (resolver-site.ts). */
  site: Site;
}

const MIR_ID = '/resolveMirId/';

/** Koa's paths (koa-paths.ts): answered here by prefix match, on GET and HEAD, with no router to list the methods. */
export const REGISTRY_LINK_PATHS: readonly KoaPath[] = [MIR_ID, DEPRECATED_LANDING, PROTECTED_LANDING].map((path) => ({ path, under: true, methods: HEAD_AND_GET }));

function sendHtml(ctx: Context, status: number, html: string, policy?: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  setPageSecurity(ctx, policy);
  ctx.body = html;
}

/**
 * The resolver's pages that lead to the registry: `/resolveMirId/{mirId}` (§1.6) and the landing pages a
 * browser is sent to for deprecated or protected resources, which show the details and link every
 * provider and the namespace's registry page.
 */
export function registryLinksRoutes(deps: RegistryLinksDeps): Middleware {
  const options = { publicRegistryUrl: deps.publicRegistryUrl };
  const registryPage = (prefix: string) => `${deps.publicRegistryUrl}/registry/${encodeURIComponent(prefix)}`;

  const mirIdRedirect = (ctx: Context) => {
    const mirId = decodeRawRequest(ctx.path, MIR_ID.length);
    const namespace = findNamespaceByMirId(mirId, deps.snapshot());
    if (!namespace) {
      ctx.status = 404;
      ctx.body = errorEnvelope(`No namespace or resource has the MIR id '${mirId}'`);
      return;
    }
    ctx.status = 302;
    ctx.set('Location', registryPage(namespace.prefix));
    // Koa turns a null body into a 204, so the redirect carries an empty body instead.
    ctx.body = '';
  };

  const landing = (prefix: string, render: typeof renderDeprecatedLanding) => (ctx: Context) => {
    const raw = decodeRawRequest(ctx.path, prefix.length);
    const snapshot = deps.snapshot();
    const resolution = resolveCompactId(raw, snapshot, options);
    if (resolution.kind !== 'resolved') {
      // The failure page is the site's, with its stylesheet: the registry pages' policy.
      sendHtml(ctx, 404, renderResolutionFailed(deps.site, snapshot, raw, resolution));
      return;
    }
    const { resolvedResources, parsedCompactIdentifier } = resolution;
    const page = parsedCompactIdentifier.namespace ? registryPage(parsedCompactIdentifier.namespace) : null;
    sendHtml(ctx, 200, render({ parsed: parsedCompactIdentifier, resources: resolvedResources, registryPageUrl: page }), LANDING_PAGE_POLICY);
  };
  const deprecated = landing(DEPRECATED_LANDING, renderDeprecatedLanding);
  const protectedPage = landing(PROTECTED_LANDING, renderProtectedLanding);

  // Prefix matches, not router patterns: MIR ids and compact identifiers may hold '/' and ':'.
  return function registryLinks(ctx, next) {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path.startsWith(MIR_ID)) return mirIdRedirect(ctx);
    if (ctx.path.startsWith(DEPRECATED_LANDING)) return deprecated(ctx);
    if (ctx.path.startsWith(PROTECTED_LANDING)) return protectedPage(ctx);
    return next();
  };
}
