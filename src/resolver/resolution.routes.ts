import type { Context, Middleware } from 'koa';
import { chooseBestProvider } from '../core/best-provider.js';
import { findNamespaceByMirId } from '../core/mir-id.js';
import type { RegistrySnapshot } from '../core/registry-snapshot.js';
import { resolveCompactId, type ResolveResult } from '../core/resolve.js';
import { serializeResolveResult } from '../core/resolve-json.js';
import { errorEnvelope } from '../http/envelope.js';
import { renderDeprecatedLanding, renderProtectedLanding, renderResolutionFailed } from './landing-page.js';

/** Told about every successful resolution (JSON or redirect) that a client did not ask us not to track. */
export type ResolutionCounter = (prefix: string, address: string, userAgent: string) => void;

export interface ResolutionDeps {
  snapshot: () => RegistrySnapshot;
  publicResolverUrl: string;
  publicRegistryUrl: string;
  count?: ResolutionCounter;
}

const DEPRECATED_LANDING = '/deactivatedLanding/';
const PROTECTED_LANDING = '/protectedLanding/';
const MIR_ID = '/resolveMirId/';

/** Paths that belong to other routes of the resolver area and are never read as compact identifiers. */
const RESERVED = ['/health/', '/reverse/', '/resolve/batch'];

/**
 * The path is percent-decoded once: `GO%3A0006915` resolves, `%2F` becomes a `/` (LUIs may hold one) and
 * `%3F` a `?`. A malformed escape is kept as typed rather than refused, like the reference.
 */
export function decodeRawRequest(path: string, prefixLength: number): string {
  const raw = path.slice(prefixLength);
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

// Clients send few distinct Accept headers (each browser has its own); negotiating one costs more than
// resolving, so the verdict is remembered per header text, in a bounded map.
const acceptVerdicts = new Map<string, boolean>();
const MAX_ACCEPT_VERDICTS = 500;

/** Browsers (Accept preferring text/html) and `?redirect=true` get a redirect; every other client JSON. */
function wantsRedirect(ctx: Context): boolean {
  if (ctx.querystring && ctx.query.redirect === 'true') return true;
  const accept = ctx.get('Accept');
  if (!accept.includes('html')) return false;
  let verdict = acceptVerdicts.get(accept);
  if (verdict === undefined) {
    verdict = ctx.accepts('json', 'html') === 'html';
    if (acceptVerdicts.size >= MAX_ACCEPT_VERDICTS) acceptVerdicts.clear();
    acceptVerdicts.set(accept, verdict);
  }
  return verdict;
}

// Koa turns a null body into a 204, so a redirect carries an empty body instead.
function redirectTo(ctx: Context, location: string): void {
  ctx.status = 302;
  ctx.set('Location', location);
  ctx.body = '';
}

function sendHtml(ctx: Context, status: number, html: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = html;
}

export function resolutionRoutes(deps: ResolutionDeps): Middleware {
  const options = { publicRegistryUrl: deps.publicRegistryUrl };
  const count = deps.count;
  const registryPage = (prefix: string | null) => (prefix ? `${deps.publicRegistryUrl}/registry/${encodeURIComponent(prefix)}` : null);
  // Escape only what a path cannot carry, so the address reads like the reference's /deactivatedLanding/3dmet:B00162.
  const landingUrl = (kind: string, raw: string) => `${deps.publicResolverUrl}${kind}${encodeURI(raw).replace(/[?#]/g, encodeURIComponent)}`;

  function redirectFor(ctx: Context, raw: string, result: ResolveResult): void {
    const { payload } = result.body;
    if (result.status !== 200 || !payload.resolvedResources || !payload.parsedCompactIdentifier) {
      sendHtml(ctx, 404, renderResolutionFailed(raw, result.body.errorMessage ?? 'Resolution failed'));
      return;
    }
    const choice = chooseBestProvider(payload.resolvedResources, payload.parsedCompactIdentifier);
    switch (choice.kind) {
      case 'provider':
        return redirectTo(ctx, choice.url);
      case 'deprecated-landing':
        return redirectTo(ctx, landingUrl(DEPRECATED_LANDING, raw));
      case 'protected-landing':
        return redirectTo(ctx, landingUrl(PROTECTED_LANDING, raw));
      case 'failed':
        sendHtml(ctx, 404, renderResolutionFailed(raw, choice.errorMessage));
    }
  }

  function landing(ctx: Context, prefix: string, render: typeof renderDeprecatedLanding): void {
    const raw = decodeRawRequest(ctx.path, prefix.length);
    const result = resolveCompactId(raw, deps.snapshot(), options);
    const { resolvedResources, parsedCompactIdentifier } = result.body.payload;
    if (result.status !== 200 || !resolvedResources || !parsedCompactIdentifier) {
      sendHtml(ctx, 404, renderResolutionFailed(raw, result.body.errorMessage ?? 'Resolution failed'));
      return;
    }
    sendHtml(ctx, 200, render({ parsed: parsedCompactIdentifier, resources: resolvedResources, registryPageUrl: registryPage(parsedCompactIdentifier.namespace) }));
  }

  return async function resolve(ctx, next) {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const path = ctx.path;
    if (path.startsWith('/health/')) return next();
    // This runs ahead of the CORS middleware (it is the hot path), so it opens CORS itself.
    if (ctx.get('Origin')) ctx.set('Access-Control-Allow-Origin', '*');
    if (path.startsWith(MIR_ID)) {
      const mirId = decodeRawRequest(path, MIR_ID.length);
      const namespace = findNamespaceByMirId(mirId, deps.snapshot());
      if (!namespace) {
        ctx.status = 404;
        ctx.body = errorEnvelope(`No namespace or resource has the MIR id '${mirId}'`);
        return;
      }
      return redirectTo(ctx, registryPage(namespace.prefix)!);
    }
    if (path.startsWith(DEPRECATED_LANDING)) return landing(ctx, DEPRECATED_LANDING, renderDeprecatedLanding);
    if (path.startsWith(PROTECTED_LANDING)) return landing(ctx, PROTECTED_LANDING, renderProtectedLanding);
    if (path === '/' || RESERVED.some((p) => path.startsWith(p))) return next();

    const raw = decodeRawRequest(path, 1);
    const snapshot = deps.snapshot();
    const result = resolveCompactId(raw, snapshot, options);
    const namespace = result.body.payload.parsedCompactIdentifier?.namespace;
    if (count && result.status === 200 && namespace && ctx.get('DNT') !== '1') {
      const prefix = snapshot.namespacesByPrefix.get(namespace.toLowerCase())?.prefix ?? namespace;
      count(prefix, ctx.ip, ctx.get('User-Agent'));
    }
    if (wantsRedirect(ctx)) return redirectFor(ctx, raw, result);
    ctx.status = result.status;
    // The type is set before the body so Koa does not sniff the text to pick one.
    ctx.set('Content-Type', 'application/json; charset=utf-8');
    ctx.body = serializeResolveResult(result);
  };
}
