/**
 * Everything the resolver does for reverse lookups over HTTP, around the pure lookups of
 * src/core/reverse-lookup.ts: the index of the current snapshot, reading a request's payload, writing the
 * answers, the single lookups on the bare request (called by the front handler, see front-handler.ts), the
 * batch and the 405 of the single lookups in Koa.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Router } from '@koa/router';
import type { Middleware } from 'koa';
import type { RegistrySnapshot } from '../core/registry-snapshot.js';
import { buildReverseIndex, type ReverseIndex } from '../core/reverse-index.js';
import { reverseResolverUrl } from '../core/resolver-url-lookup.js';
import { isBlank, reverseByPrefix, SimilarityLookup, SIMILARITY_STEPS_PER_SLICE, type ReverseLookupQuery, type ReverseMatch } from '../core/reverse-lookup.js';
import { answerJsonBody, failBare, JSON_CONTENT_TYPE, sendBare, sendBareEmpty, sendErrorAnswer } from '../http/bare-request.js';
import type { ClientAddress } from '../http/client-address.js';
import { envelope, envelopeJson } from '../http/envelope.js';
import type { KoaPath } from '../http/koa-paths.js';
import { DomainError } from '../core/domain-error.js';
import { statusOfDomainError } from '../http/error-translator.js';
import { methodNotAllowed } from '../http/unserved-methods.js';
import { BATCH_JSON_LIMIT, jsonBody } from '../http/json-body.js';
import { chargeMore } from '../http/rate-limit-middleware.js';
import type { Logger } from '../lib/logger.js';
import { readBatchList } from './batch-request.js';
import { countHeavyRequest, HEAVY_UNIT_MS, type HeavyWork } from './heavy-work.js';
import type { SnapshotSource } from './snapshot-source.js';

/**
 * The reverse-lookup index of the current snapshot, built on the first reverse lookup after a change:
 * resolution never waits for it, and a burst of registry changes costs one build, not one per change.
 */
export class ReverseIndexCache {
  private builtFor: RegistrySnapshot | null = null;
  private index: ReverseIndex | null = null;

  constructor(private readonly registry: SnapshotSource) {}

  current(): ReverseIndex {
    const snapshot = this.registry.snapshot;
    if (this.builtFor !== snapshot || !this.index) {
      this.index = buildReverseIndex(snapshot);
      this.builtFor = snapshot;
    }
    return this.index;
  }
}

// --- Reading a request -------------------------------------------------------------------------------

export type ReverseLookupEndpoint = 'byPrefix' | 'bySimilarity';

export const MAX_URL_LENGTH = 4096;
/**
 * bySimilarity compares the URL with every provider's URL, at a cost that grows with the URL's length: its
 * URLs are held well under MAX_URL_LENGTH (provider URLs in the registry are under 200 characters).
 */
export const MAX_SIMILARITY_URL_LENGTH = 2048;
export const MAX_ACCESSION_LENGTH = 1024;

/** A request the client got wrong: invalid (400) with this message. */
export class ReverseLookupPayloadError extends DomainError {
  constructor(message: string) {
    super('invalid', message);
    this.name = 'ReverseLookupPayloadError';
  }

  /** The status it is answered with, for the bare handlers' callers that read it. */
  get status(): number {
    return statusOfDomainError(this);
  }
}

// The two endpoints of the reference word the same failure differently.
const MISSING_URL_MESSAGE: Record<ReverseLookupEndpoint, string> = {
  byPrefix: 'Invalid payload, HTTP url must be provided',
  bySimilarity: 'Invalid payload, url must be provided',
};

/** The envelope's `payload` (§3.1) as a query, or what is wrong with it. */
export function readReverseQuery(payload: unknown, endpoint: ReverseLookupEndpoint): ReverseLookupQuery | string {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return MISSING_URL_MESSAGE[endpoint];
  const { url, accession, forceUrls } = payload as Record<string, unknown>;
  if (typeof url !== 'string' || isBlank(url) || !/^http/i.test(url)) return MISSING_URL_MESSAGE[endpoint];
  // Bounds keep the edit distances and the LUI regexes cheap whatever a client sends.
  if (endpoint === 'bySimilarity' && url.length > MAX_SIMILARITY_URL_LENGTH) {
    return `Invalid payload, url must be at most ${MAX_SIMILARITY_URL_LENGTH} characters long for a similarity lookup`;
  }
  if (url.length > MAX_URL_LENGTH) return `Invalid payload, url must be at most ${MAX_URL_LENGTH} characters long`;
  if (accession !== undefined && accession !== null && typeof accession !== 'string') {
    return 'Invalid payload, accession must be a string';
  }
  if (typeof accession === 'string' && accession.length > MAX_ACCESSION_LENGTH) {
    return `Invalid payload, accession must be at most ${MAX_ACCESSION_LENGTH} characters long`;
  }
  if (forceUrls !== undefined && forceUrls !== null && typeof forceUrls !== 'boolean') {
    return 'Invalid payload, forceUrls must be true or false';
  }
  return { url, accession: accession ?? null, forceUrls: forceUrls === true };
}

/** readReverseQuery that throws ReverseLookupPayloadError. */
export function parseReverseLookupPayload(payload: unknown, endpoint: ReverseLookupEndpoint): ReverseLookupQuery {
  const query = readReverseQuery(payload, endpoint);
  if (typeof query === 'string') throw new ReverseLookupPayloadError(query);
  return query;
}

// --- Writing an answer -------------------------------------------------------------------------------

/**
 * A match as JSON text, byte for byte what JSON.stringify gives for it, written field by field: on the
 * byPrefix hot path the generic serialiser of this five-field object costs about as much as parsing the
 * request.
 */
export function reverseMatchJson(match: ReverseMatch): string {
  const url = match.possible_resolver_url === null ? 'null' : JSON.stringify(match.possible_resolver_url);
  const curie = match.possible_resolver_curie === null ? 'null' : JSON.stringify(match.possible_resolver_curie);
  return (
    `{"prefix":${JSON.stringify(match.prefix)},"possible_resolver_url":${url},"possible_resolver_curie":${curie},` +
    `"lui_pattern_match":${match.lui_pattern_match},"similarity_score":${JSON.stringify(match.similarity_score)}}`
  );
}

/** The payload of a bySimilarity answer as JSON text; null when there is no match (204). */
function similarityJson(matches: ReverseMatch[]): string | null {
  return matches.length === 0 ? null : `[${matches.map(reverseMatchJson).join(',')}]`;
}

/** A single lookup's answer: 200 with the payload's JSON text in the envelope, or 204 with no body. */
function sendLookupAnswer(res: ServerResponse, payloadJson: string | null): void {
  if (payloadJson === null) return sendBareEmpty(res, 204);
  sendBare(res, 200, JSON_CONTENT_TYPE, envelopeJson(payloadJson));
}

interface ReverseBatchResult {
  url: string | null;
  status: number;
  errorMessage: string | null;
  match: ReverseMatch | null;
}

function urlOf(item: unknown): string | null {
  const url = item !== null && typeof item === 'object' ? (item as { url?: unknown }).url : undefined;
  return typeof url === 'string' ? url : null;
}

// --- The endpoints -----------------------------------------------------------------------------------

// A similarity lookup is done in slices of this much work (core/reverse-lookup.ts).
export const SIMILARITY_SLICE_WORK = SIMILARITY_STEPS_PER_SLICE;
// URL and accession together longer than this (provider URLs are under 200 characters) make a lookup heavy
// from the start; a shorter one becomes heavy when its first slice does not finish it.
const LONG_SIMILARITY_CHARS = 400;
/** A request body this long holds a long lookup (or padding): refused unread when its client is at its cap. */
export const LONG_SIMILARITY_BODY = 1024;

/** Koa's paths (koa-paths.ts): the batch, and the single lookups' other methods (405); the front handler answers their POSTs. */
export const REVERSE_PATHS: readonly KoaPath[] = [{ path: '/reverse/', under: true }];

const SINGLE_LOOKUPS = new Set(['/reverse/byPrefix', '/reverse/bySimilarity']);

export interface ReverseDeps {
  registry: SnapshotSource;
  publicResolverUrl: string;
  /** The per-client cap and fair scheduling of heavy requests. */
  heavy: HeavyWork;
  logger: Logger;
  /** Who the client is, as the heavy requests' cap counts them (TRUST_PROXY). */
  clientAddress: ClientAddress;
}

export interface ReverseLookups {
  /** POST /reverse/byPrefix or /reverse/bySimilarity on the bare request: reads the body and answers. */
  answer(req: IncomingMessage, res: ServerResponse, requestId: string, endpoint: ReverseLookupEndpoint): void;
  /** 405 for the single lookups asked with another method. */
  wrongMethod: Middleware;
  /** POST /reverse/batch. */
  router: Router;
  /** The index of the current snapshot, for the other lookups of the area (the MCP tools). */
  index: () => ReverseIndex;
}

export function reverseLookups(deps: ReverseDeps): ReverseLookups {
  const indexes = new ReverseIndexCache(deps.registry);
  const options = { publicResolverUrl: deps.publicResolverUrl };
  const { clientAddress, heavy, logger } = deps;
  // A resolver's own URL (identifiers.org's, this one's) names its compact identifier, perhaps through a
  // synonym: read as such first (core/resolver-url-lookup.ts), else matched against the providers' URLs.
  const byPrefix = (index: ReverseIndex, query: ReverseLookupQuery): ReverseMatch | null =>
    reverseResolverUrl(query.url, deps.registry.snapshot, deps.publicResolverUrl) ?? reverseByPrefix(index, query, options);

  function answer(req: IncomingMessage, res: ServerResponse, requestId: string, endpoint: ReverseLookupEndpoint): void {
    answerJsonBody(req, res, requestId, logger, endpoint === 'byPrefix' ? answerByPrefix : answerBySimilarity);
  }

  /** The query of a single lookup's body; when it has none, answers 400 and returns undefined. */
  function queryOf(req: IncomingMessage, res: ServerResponse, requestId: string, body: unknown, endpoint: ReverseLookupEndpoint): ReverseLookupQuery | undefined {
    const payload = body !== null && typeof body === 'object' ? (body as { payload?: unknown }).payload : undefined;
    const query = readReverseQuery(payload, endpoint);
    if (typeof query !== 'string') return query;
    failBare(req, res, requestId, new ReverseLookupPayloadError(query), logger);
    return undefined;
  }

  function answerByPrefix(req: IncomingMessage, res: ServerResponse, requestId: string, body: unknown): void {
    const query = queryOf(req, res, requestId, body, 'byPrefix');
    if (!query) return;
    const match = byPrefix(indexes.current(), query);
    sendLookupAnswer(res, match === null ? null : reverseMatchJson(match));
  }

  /**
   * Similarity lookups are done as units of heavy work, in turn with other clients' (see heavy-work.ts), so
   * that a burst of them cannot hold the event loop. A lookup that needs more than one slice counts against
   * its client's cap of heavy requests, and is refused with 429 beyond it.
   */
  function answerBySimilarity(req: IncomingMessage, res: ServerResponse, requestId: string, body: unknown): void {
    const query = queryOf(req, res, requestId, body, 'bySimilarity');
    if (!query) return;
    const client = clientAddress(req);
    let counted = false;
    const count = (): boolean => {
      if (!heavy.enter(client)) return false;
      counted = true;
      res.once('close', () => heavy.leave(client));
      return true;
    };
    const refuse = () => sendErrorAnswer(res, heavy.refusalAnswer);
    if (query.url.length + (query.accession?.length ?? 0) > LONG_SIMILARITY_CHARS && !count()) return refuse();
    const lookup = new SimilarityLookup(indexes.current(), query, options);
    const slice = (): void => {
      if (res.destroyed) return lookup.release();
      // A unit of heavy work runs on its own: it hands its buffers back and answers its own failure.
      try {
        if (lookup.advance(SIMILARITY_SLICE_WORK)) return sendLookupAnswer(res, similarityJson(lookup.matches()));
        if (counted || count()) return heavy.defer(client, slice);
        lookup.release();
        refuse();
      } catch (error) {
        lookup.release();
        failBare(req, res, requestId, error, logger);
      }
    };
    heavy.defer(client, slice);
  }

  const router = new Router({ prefix: '/reverse' });

  const answerItem = (index: ReverseIndex, item: unknown, position: number): ReverseBatchResult => {
    const query = readReverseQuery(item, 'byPrefix');
    if (typeof query === 'string') return { url: urlOf(item), status: 400, errorMessage: `requests[${position}]: ${query}`, match: null };
    const match = byPrefix(index, query);
    return { url: urlOf(item), status: match ? 200 : 204, errorMessage: null, match };
  };

  // Not in the reference: many URLs in one request, one result per item in input order, each carrying
  // the status and match the single byPrefix call would give. A heavy request (see heavy-work.ts): counted
  // against the client's cap and looked up a slice at a time.
  router.post('/batch', countHeavyRequest(heavy), jsonBody(BATCH_JSON_LIMIT), async (ctx) => {
    const requests = readBatchList(ctx.request.body, 'requests');
    // The batch family counts items: the request counted one, its other items count now.
    await chargeMore(ctx, requests.length - 1);
    const index = indexes.current();
    const results: ReverseBatchResult[] = [];
    await heavy.runInTurns(ctx.ip, () => {
      const started = performance.now();
      while (results.length < requests.length) {
        results.push(answerItem(index, requests[results.length], results.length));
        if ((results.length & 15) === 0 && performance.now() - started >= HEAVY_UNIT_MS) break;
      }
      return results.length === requests.length;
    });
    ctx.body = envelope({ results });
  });

  // The single lookups' POSTs are the front handler's; any other method is answered here.
  const wrongMethod: Middleware = (ctx, next) => {
    if (!SINGLE_LOOKUPS.has(ctx.path) || ctx.method === 'OPTIONS') return next();
    throw methodNotAllowed(ctx.method, ctx.path, ['POST']);
  };
  return { answer, wrongMethod, router, index: () => indexes.current() };
}
