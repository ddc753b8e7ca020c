import type { IncomingMessage, ServerResponse } from 'node:http';
import accepts from 'accepts';
import { chooseBestProvider } from '../core/best-provider.js';
import type { RegistrySnapshot } from '../core/registry-snapshot.js';
import { resolveCompactId, type Resolution } from '../core/resolve.js';
import { asciiLocation } from '../http/ascii-location.js';
import { addBareHeader, failBare, JSON_CONTENT_TYPE, sendBare, sendBareEmpty, sendErrorAnswer, startBareRequest } from '../http/bare-request.js';
import type { ClientAddress } from '../http/client-address.js';
import type { KoaPaths } from '../http/koa-paths.js';
import { OPEN_CORS_HEADERS } from '../http/cors.js';
import { sendRateLimited, type FamilyLimiter, type RateLimits } from '../http/rate-limiter.js';
import { AccessLog } from '../http/request-context.js';
import { pageSecurityHeaders } from '../http/page-security.js';
import type { Logger } from '../lib/logger.js';
import type { Site } from '../web/site.js';
import type { HttpMeter } from '../metrics/http-meter.js';
import type { HeavyWork } from './heavy-work.js';
import type { ResolutionCaching } from './resolution-caching.js';
import { landingRequestOf } from './landing-request.js';
import { FailurePages } from './failure-pages.js';
import type { ResolutionFailure } from './resolution-failed.page.js';
import { resolutionJson, resolutionStatus } from './resolution.presenter.js';
import { LONG_SIMILARITY_BODY, type ReverseLookupEndpoint, type ReverseLookups } from './reverse.routes.js';

const PAGE_SECURITY_HEADERS = pageSecurityHeaders();

/** Told about every successful resolution (JSON or redirect) that a client did not ask us not to track. */
export type ResolutionCounter = (prefix: string, address: string, userAgent: string) => void;

export interface FrontDeps {
  snapshot: () => RegistrySnapshot;
  /** Resources never chosen for a redirect while another provider works (see SnapshotSource). */
  failingProviders?: () => ReadonlySet<number> | undefined;
  /** The single reverse lookups, answered here on the bare request (reverse.routes.ts). */
  reverse: ReverseLookups;
  publicResolverUrl: string;
  publicRegistryUrl: string;
  logger: Logger;
  logSampleRate: number;
  clientAddress: ClientAddress;
  count?: ResolutionCounter;
  /** The per-client cap of heavy requests, checked here before a batch or long lookup is read. */
  heavy: HeavyWork;
  /** The resolver's rate limits (in memory); the resolution and reverse families are counted here. */
  limits: RateLimits;
  /** ETag, Cache-Control and Vary of resolution answers. */
  caching: ResolutionCaching;
  /** Moves when the providers are ranked again without a new snapshot version (SnapshotSource.rankingTag). */
  rankingTag?: () => string | undefined;
  /** Counts the requests answered here (families resolution, reverse and batch); none without. */
  meter?: HttpMeter;
  /** Every path Koa answers (app.ts gathers it from the modules it mounts): never a compact identifier. */
  koaPaths: KoaPaths;
  /** What the failure page a browser gets is rendered with (resolver-site.ts). */
  site: Site;
}

/** Answers a request itself and returns true, or returns false to hand it to the Koa application. */
export type FrontHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

export const DEPRECATED_LANDING = '/deactivatedLanding/';
/** The MCP server's endpoint (mcp.routes.ts): never a compact identifier, although it reads like a prefix. */
export const MCP_PATH = '/mcp';
export const PROTECTED_LANDING = '/protectedLanding/';

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

/** Escapes only what a path cannot carry, so the address reads like the reference's /deactivatedLanding/3dmet:B00162. */
export function landingUrl(publicResolverUrl: string, kind: string, raw: string): string {
  return `${publicResolverUrl}${kind}${encodeURI(raw).replace(/[?#]/g, encodeURIComponent)}`;
}

// Clients send few distinct Accept headers (each browser has its own); negotiating one costs more than
// resolving, so the verdict is remembered per header text, in a bounded map.
const acceptVerdicts = new Map<string, boolean>();
const MAX_ACCEPT_VERDICTS = 500;

/** Browsers (Accept preferring text/html) and `?redirect=true` get a redirect; every other client JSON. */
function wantsRedirect(req: IncomingMessage, query: string): boolean {
  if (query && new URLSearchParams(query).get('redirect') === 'true') return true;
  const accept = req.headers.accept;
  if (!accept || !accept.includes('html')) return false;
  let verdict = acceptVerdicts.get(accept);
  if (verdict === undefined) {
    verdict = accepts(req).type(['json', 'html']) === 'html';
    if (acceptVerdicts.size >= MAX_ACCEPT_VERDICTS) acceptVerdicts.clear();
    acceptVerdicts.set(accept, verdict);
  }
  return verdict;
}

/**
 * The resolver's hot path on the bare Node request, ahead of Koa: GET/HEAD /{compactId} (JSON or a
 * redirect) and the single reverse lookups (reverse.routes.ts). Koa with a trivial handler reaches about
 * three quarters of a bare Node server's throughput; these endpoints carry nearly all of the traffic, so
 * they skip it and do what its middleware would (request id, nosniff, sampled access log, CORS, error
 * envelope) with the same code (bare-request.ts). Everything else (health, MIR ids, landing pages, batches,
 * other methods) goes on to Koa, which answers the other methods on a compact identifier with 405 (see
 * KoaPaths.methodsAt). Which GET and HEAD paths are Koa's is read from deps.koaPaths, the table of the
 * mounted modules' paths, so that a new route cannot be mistaken for a compact identifier.
 */
export function createFrontHandler(deps: FrontDeps): FrontHandler {
  const options = { publicRegistryUrl: deps.publicRegistryUrl };
  const { caching, clientAddress, heavy, koaPaths, limits, logger, reverse } = deps;
  const access = new AccessLog(logger, deps.logSampleRate);
  const failurePages = new FailurePages(deps.site);
  const resolutionLimit = limits.families.resolution;
  const reverseLimit = limits.families.reverse;
  const meter = deps.meter;
  const resolutionFamily = meter?.familyIndex('resolution') ?? 0;
  const reverseFamily = meter?.familyIndex('reverse') ?? 0;
  const batchFamily = meter?.familyIndex('batch') ?? 0;

  function addHeaders(res: ServerResponse, headers: readonly string[]): void {
    for (let i = 0; i < headers.length; i += 2) addBareHeader(res, headers[i]!, headers[i + 1]!);
  }

  /** Cache headers, and CORS's when the request had no Origin (startBareRequest added them otherwise). */
  function addCacheHeaders(req: IncomingMessage, res: ServerResponse, headers: readonly string[]): void {
    addHeaders(res, headers);
    if (!req.headers.origin) addHeaders(res, OPEN_CORS_HEADERS);
  }

  function answerResolution(req: IncomingMessage, res: ServerResponse, raw: string, query: string): void {
    const snapshot = deps.snapshot();
    caching.update(snapshot.version, deps.rankingTag?.());
    const resolution = resolveCompactId(raw, snapshot, options);
    if (deps.count && resolution.kind === 'resolved' && req.headers.dnt !== '1') {
      const namespace = resolution.parsedCompactIdentifier.namespace;
      if (namespace) {
        const prefix = snapshot.namespacesByPrefix.get(namespace.toLowerCase())?.prefix ?? namespace;
        deps.count(prefix, clientAddress(req), req.headers['user-agent'] ?? '');
      }
    }
    if (wantsRedirect(req, query)) return answerRedirect(req, res, raw, resolution, snapshot);
    if (resolution.kind !== 'resolved') {
      addCacheHeaders(req, res, caching.errorHeaders);
      return sendBare(res, resolutionStatus(resolution), JSON_CONTENT_TYPE, resolutionJson(resolution));
    }
    addCacheHeaders(req, res, caching.jsonHeaders);
    const ifNoneMatch = req.headers['if-none-match'];
    if (ifNoneMatch !== undefined && caching.matchesJson(ifNoneMatch)) return sendBareEmpty(res, 304);
    sendBare(res, 200, JSON_CONTENT_TYPE, resolutionJson(resolution));
  }

  function answerRedirect(req: IncomingMessage, res: ServerResponse, raw: string, resolution: Resolution, snapshot: RegistrySnapshot): void {
    if (resolution.kind !== 'resolved') return answerRedirectFailed(req, res, raw, resolution, snapshot);
    const choice = chooseBestProvider(resolution.resolvedResources, resolution.parsedCompactIdentifier, deps.failingProviders?.());
    if (choice.kind === 'failed') return answerRedirectFailed(req, res, raw, { reason: 'no-providers', message: choice.errorMessage }, snapshot);
    const location =
      choice.kind === 'provider'
        ? choice.url
        : landingUrl(deps.publicResolverUrl, choice.kind === 'deprecated-landing' ? DEPRECATED_LANDING : PROTECTED_LANDING, landingRequestOf(raw, resolution));
    addCacheHeaders(req, res, caching.redirectHeaders);
    addBareHeader(res, 'Location', asciiLocation(location));
    sendBare(res, 302, null, '');
  }

  /** The satellite's 404 for any failure, whatever the API's status; the page explains it (resolution-failed.page.tsx). */
  function answerRedirectFailed(req: IncomingMessage, res: ServerResponse, raw: string, failure: ResolutionFailure, snapshot: RegistrySnapshot): void {
    addCacheHeaders(req, res, caching.errorHeaders);
    for (const [name, value] of PAGE_SECURITY_HEADERS) addBareHeader(res, name, value);
    sendBare(res, 404, 'text/html; charset=utf-8', failurePages.render(snapshot, raw, failure));
  }

  /** Answers a request the front handler took: a single reverse lookup or a resolution. */
  function serve(req: IncomingMessage, res: ServerResponse, requestId: string, endpoint: ReverseLookupEndpoint | null, path: string, query: string): void {
    if (endpoint) return reverse.answer(req, res, requestId, endpoint);
    try {
      answerResolution(req, res, decodeRawRequest(path, 1), query);
    } catch (error) {
      failBare(req, res, requestId, error, logger);
    }
  }

  /** The family limit this request counts against; none for a curator (or with the family unlimited). */
  function limitOf(req: IncomingMessage, endpoint: ReverseLookupEndpoint | null): FamilyLimiter | undefined {
    const limit = endpoint ? reverseLimit : resolutionLimit;
    if (!limit) return undefined;
    const authorization = req.headers.authorization;
    return authorization && limits.exempt(authorization) ? undefined : limit;
  }

  return function front(req, res) {
    const url = req.url ?? '';
    const method = req.method;
    if (url.charCodeAt(0) !== 47 /* '/' */) return false;
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    let endpoint: ReverseLookupEndpoint | null = null;
    // A client at its cap of heavy requests is refused here, before Koa and without reading its body: a flood
    // is mostly refusals, which must cost little (Koa still counts the requests it is given, see heavy-work.ts).
    let refuseHeavy = false;
    if (method === 'POST') {
      if (path === '/reverse/byPrefix') endpoint = 'byPrefix';
      else if (path === '/reverse/bySimilarity') {
        endpoint = 'bySimilarity';
        refuseHeavy = Number(req.headers['content-length']) > LONG_SIMILARITY_BODY && heavy.atCap(clientAddress(req));
      } else if ((path === '/resolve/batch' || path === '/reverse/batch') && heavy.atCap(clientAddress(req))) refuseHeavy = true;
      else return false;
    } else if (method === 'GET' || method === 'HEAD') {
      if (koaPaths.claimOn(path)) return false;
    } else {
      return false;
    }

    // Only the batches' refusals are answered here (their other answers are Koa's, counted there).
    const family = endpoint ? reverseFamily : refuseHeavy ? batchFamily : resolutionFamily;
    const requestId = startBareRequest(req, res, access, meter, family);
    if (refuseHeavy) {
      sendErrorAnswer(res, heavy.refusalAnswer);
      return true;
    }
    const query = q === -1 ? '' : url.slice(q + 1);
    const limit = limitOf(req, endpoint);
    if (limit) {
      // In this process's memory (rate-limiter.ts): counted at once; the answer follows a microtask later.
      limit.run(
        clientAddress(req),
        1,
        () => serve(req, res, requestId, endpoint, path, query),
        (outcome) => sendRateLimited(res, limit, outcome),
      );
    } else serve(req, res, requestId, endpoint, path, query);
    return true;
  };
}
