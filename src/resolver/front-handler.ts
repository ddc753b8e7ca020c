import type { IncomingMessage, ServerResponse } from 'node:http';
import accepts from 'accepts';
import { chooseBestProvider } from '../core/best-provider.js';
import type { RegistrySnapshot } from '../core/registry-snapshot.js';
import { resolveCompactId, type ResolveResult } from '../core/resolve.js';
import { serializeResolveResult } from '../core/resolve-json.js';
import {
  parseReverseLookupPayload,
  reverseByPrefix,
  reverseMatchJson,
  SimilarityLookup,
  type ReverseLookupEndpoint,
  type ReverseLookupQuery,
  type ReverseMatch,
} from '../core/reverse-lookup.js';
import { asciiLocation } from '../http/ascii-location.js';
import { errorEnvelope } from '../http/envelope.js';
import { HttpError } from '../http/http-error.js';
import { DEFAULT_JSON_LIMIT, readJsonBody } from '../http/json-body.js';
import { NOSNIFF_HEADER, NOSNIFF_VALUE } from '../http/no-sniff.js';
import { requestIdFor } from '../http/request-context.js';
import { HEAD_AND_GET } from '../http/unserved-methods.js';
import type { Logger } from '../lib/logger.js';
import type { HeavyWork } from './heavy-work.js';
import { renderResolutionFailed } from './landing-page.js';
import type { ReverseIndexCache } from './reverse-index-cache.js';

/** Told about every successful resolution (JSON or redirect) that a client did not ask us not to track. */
export type ResolutionCounter = (prefix: string, address: string, userAgent: string) => void;

export interface FrontDeps {
  snapshot: () => RegistrySnapshot;
  reverseIndexes: ReverseIndexCache;
  publicResolverUrl: string;
  publicRegistryUrl: string;
  logger: Logger;
  logSampleRate: number;
  trustProxy: boolean;
  count?: ResolutionCounter;
  /** The per-client cap and fair scheduling of heavy requests (long similarity lookups here). */
  heavy: HeavyWork;
}

/** Answers a request itself and returns true, or returns false to hand it to the Koa application. */
export type FrontHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

export const DEPRECATED_LANDING = '/deactivatedLanding/';
export const PROTECTED_LANDING = '/protectedLanding/';

/** Paths of the resolver area's other endpoints: never read as compact identifiers. */
const KOA_PATHS = ['/health/', '/reverse/', '/resolve/batch', '/resolveMirId/', DEPRECATED_LANDING, PROTECTED_LANDING];
/** Answered in Koa by prefix match (registry-links.routes.ts), not by a router that would list its methods. */
const PAGE_PATHS = ['/resolveMirId/', DEPRECATED_LANDING, PROTECTED_LANDING];

/**
 * The methods of the resolver's paths that no router declares: every compact identifier (this handler's
 * GET and HEAD) and the MIR id and landing pages. Undefined for the root and for the paths whose routers
 * or middleware say for themselves (health, reverse lookups, batches).
 */
export function resolverMethodsAt(path: string): readonly string[] | undefined {
  if (path === '/') return undefined;
  for (const page of PAGE_PATHS) if (path.startsWith(page)) return HEAD_AND_GET;
  for (const other of KOA_PATHS) if (path.startsWith(other)) return undefined;
  return HEAD_AND_GET;
}
const EXPOSED_HEADERS = 'X-Request-Id,ETag,Last-Modified,Retry-After,Location';

// A similarity lookup is done in slices of this much work (edit-distance steps, see NearestSearch), about a
// millisecond: every provider URL of the registry, as it is or slightly altered, needs one slice at most.
const SIMILARITY_SLICE_WORK = 200_000;
// URL and accession together longer than this (provider URLs are under 200 characters) make a lookup heavy
// from the start; a shorter one becomes heavy when its first slice does not finish it.
const LONG_SIMILARITY_CHARS = 400;
// A request body this long holds a long lookup (or padding): refused unread when its client is at its cap.
const LONG_SIMILARITY_BODY = 1024;

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
 * redirect) and the single reverse lookups. Koa with a trivial handler reaches about three quarters of a
 * bare Node server's throughput; these endpoints carry nearly all of the traffic, so they skip it and do
 * what its middleware would (request id, nosniff, sampled access log, CORS, error envelope) themselves.
 * Everything else (health, MIR ids, landing pages, batches, other methods) goes on to Koa, which answers
 * the other methods on a compact identifier with 405 (see resolverMethodsAt).
 */
export function createFrontHandler(deps: FrontDeps): FrontHandler {
  const options = { publicRegistryUrl: deps.publicRegistryUrl };
  const reverseOptions = { publicResolverUrl: deps.publicResolverUrl };
  const debug = deps.logger.isLevelEnabled('debug');
  const info = deps.logger.isLevelEnabled('info');

  function clientAddress(req: IncomingMessage): string {
    if (deps.trustProxy) {
      const forwarded = req.headers['x-forwarded-for'];
      const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
      if (first) return first;
    }
    return req.socket.remoteAddress ?? '';
  }

  function send(res: ServerResponse, status: number, type: string | null, body: string): void {
    res.statusCode = status;
    if (type) res.setHeader('Content-Type', type);
    res.setHeader('Content-Length', Buffer.byteLength(body));
    res.end(body);
  }

  function answerResolution(req: IncomingMessage, res: ServerResponse, raw: string, query: string): void {
    const snapshot = deps.snapshot();
    const result = resolveCompactId(raw, snapshot, options);
    const namespace = result.body.payload.parsedCompactIdentifier?.namespace;
    if (deps.count && result.status === 200 && namespace && req.headers.dnt !== '1') {
      const prefix = snapshot.namespacesByPrefix.get(namespace.toLowerCase())?.prefix ?? namespace;
      deps.count(prefix, clientAddress(req), req.headers['user-agent'] ?? '');
    }
    if (wantsRedirect(req, query)) return answerRedirect(res, raw, result);
    send(res, result.status, 'application/json; charset=utf-8', serializeResolveResult(result));
  }

  function answerRedirect(res: ServerResponse, raw: string, result: ResolveResult): void {
    const { payload } = result.body;
    if (result.status !== 200 || !payload.resolvedResources || !payload.parsedCompactIdentifier) {
      return send(res, 404, 'text/html; charset=utf-8', renderResolutionFailed(raw, result.body.errorMessage ?? 'Resolution failed'));
    }
    const choice = chooseBestProvider(payload.resolvedResources, payload.parsedCompactIdentifier);
    if (choice.kind === 'failed') return send(res, 404, 'text/html; charset=utf-8', renderResolutionFailed(raw, choice.errorMessage));
    const location =
      choice.kind === 'provider'
        ? choice.url
        : landingUrl(deps.publicResolverUrl, choice.kind === 'deprecated-landing' ? DEPRECATED_LANDING : PROTECTED_LANDING, raw);
    res.setHeader('Location', asciiLocation(location));
    send(res, 302, null, '');
  }

  function answerReverse(req: IncomingMessage, res: ServerResponse, requestId: string, endpoint: ReverseLookupEndpoint, body: unknown): void {
    const payload = body !== null && typeof body === 'object' ? (body as { payload?: unknown }).payload : undefined;
    const query = parseReverseLookupPayload(payload, endpoint);
    if (endpoint === 'bySimilarity') return answerSimilarity(req, res, requestId, query);
    const match = reverseByPrefix(deps.reverseIndexes.current(), query, reverseOptions);
    sendReverse(res, match === null ? null : reverseMatchJson(match));
  }

  function sendReverse(res: ServerResponse, json: string | null): void {
    if (json === null) {
      res.statusCode = 204;
      res.end();
      return;
    }
    send(res, 200, 'application/json; charset=utf-8', `{"apiVersion":"1.0","errorMessage":null,"payload":${json}}`);
  }

  /**
   * Similarity lookups are done as units of heavy work, in turn with other clients' (see heavy-work.ts), so
   * that a burst of them cannot hold the event loop. A lookup that needs more than one slice counts against
   * its client's cap of heavy requests, and is refused with 429 beyond it.
   */
  function answerSimilarity(req: IncomingMessage, res: ServerResponse, requestId: string, query: ReverseLookupQuery): void {
    const client = clientAddress(req);
    let counted = false;
    const count = (): boolean => {
      if (!deps.heavy.enter(client)) return false;
      counted = true;
      res.once('close', () => deps.heavy.leave(client));
      return true;
    };
    const refuse = () => fail(res, requestId, deps.heavy.refusal);
    if (query.url.length + (query.accession?.length ?? 0) > LONG_SIMILARITY_CHARS && !count()) return refuse();
    const lookup = new SimilarityLookup(deps.reverseIndexes.current(), query, reverseOptions);
    const slice = (): void => {
      if (res.destroyed) return lookup.release();
      try {
        if (lookup.advance(SIMILARITY_SLICE_WORK)) return sendReverse(res, similarityJson(lookup.matches()));
        if (counted || count()) return deps.heavy.defer(client, slice);
        lookup.release();
        refuse();
      } catch (error) {
        lookup.release();
        fail(res, requestId, error);
      }
    };
    deps.heavy.defer(client, slice);
  }

  const refusalJson = JSON.stringify(errorEnvelope(deps.heavy.refusal.message));

  function fail(res: ServerResponse, requestId: string, error: unknown): void {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const status = error instanceof HttpError ? error.status : ((error as { status?: number }).status ?? 500);
    const clientError = status >= 400 && status < 500;
    if (!clientError) deps.logger.error({ err: error, requestId }, 'request failed');
    const message = clientError ? (error as Error).message : `Internal server error (request id ${requestId})`;
    if (clientError && error instanceof HttpError) for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
    res.setHeader('Cache-Control', 'no-store');
    const body = error === deps.heavy.refusal ? refusalJson : JSON.stringify(errorEnvelope(message));
    send(res, clientError ? status : 500, 'application/json; charset=utf-8', body);
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
        refuseHeavy = Number(req.headers['content-length']) > LONG_SIMILARITY_BODY && deps.heavy.atCap(clientAddress(req));
      } else if ((path === '/resolve/batch' || path === '/reverse/batch') && deps.heavy.atCap(clientAddress(req))) refuseHeavy = true;
      else return false;
    } else if (method === 'GET' || method === 'HEAD') {
      if (path === '/') return false;
      for (const other of KOA_PATHS) if (path.startsWith(other)) return false;
    } else {
      return false;
    }

    const given = req.headers['x-request-id'];
    const requestId = requestIdFor(typeof given === 'string' ? given : undefined);
    res.setHeader('X-Request-Id', requestId);
    res.setHeader(NOSNIFF_HEADER, NOSNIFF_VALUE);
    if (req.headers.origin) {
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    }
    if (debug || (info && deps.logSampleRate > 0 && Math.random() < deps.logSampleRate)) {
      const started = performance.now();
      res.once('finish', () => {
        const line = { requestId, method, url, status: res.statusCode, ms: Math.round((performance.now() - started) * 10) / 10 };
        if (debug) deps.logger.debug(line, 'request');
        else deps.logger.info({ ...line, sampled: deps.logSampleRate }, 'request');
      });
    }
    if (refuseHeavy) {
      fail(res, requestId, deps.heavy.refusal);
      return true;
    }
    if (endpoint) {
      const reverse = endpoint;
      readJsonBody(req, DEFAULT_JSON_LIMIT, (error, body) => {
        if (error) return fail(res, requestId, error);
        try {
          answerReverse(req, res, requestId, reverse, body);
        } catch (answerError) {
          fail(res, requestId, answerError);
        }
      });
      return true;
    }
    try {
      answerResolution(req, res, decodeRawRequest(path, 1), q === -1 ? '' : url.slice(q + 1));
    } catch (error) {
      fail(res, requestId, error);
    }
    return true;
  };
}

function similarityJson(matches: ReverseMatch[]): string | null {
  return matches.length === 0 ? null : `[${matches.map(reverseMatchJson).join(',')}]`;
}
