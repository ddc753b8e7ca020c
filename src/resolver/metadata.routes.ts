import type { Context, Middleware } from 'koa';
import { bestCandidate } from '../core/best-provider.js';
import { parseCompactIdWithNamespace } from '../core/compact-id-parser.js';
import type { RegistrySnapshot } from '../core/registry-snapshot.js';
import { resolveCompactId } from '../core/resolve.js';
import { errorEnvelopeJson } from '../http/envelope.js';
import { jsonBody } from '../http/json-body.js';
import type { KoaPath } from '../http/koa-paths.js';
import { HEAD_AND_GET } from '../http/unserved-methods.js';
import { urlRefusal } from '../lib/http-client.js';
import type { StoredMetadataAnswer } from '../queue/metadata.queue.js';
import { decodeRawRequest } from './front-handler.js';
import type { MetadataLookup } from './metadata-fetches.js';
import { resolutionStatus } from './resolution.presenter.js';

export const METADATA_API = '/metadataApi/';
const FOR_COMPACT_ID = '/metadataApi/getMetadataFor/';
const FOR_URL = '/metadataApi/getMetadataForUrl';

/**
 * Koa's paths (koa-paths.ts): answered here by prefix match, on GET and HEAD (compact identifiers may hold
 * '/'), and the URL form on POST too, as identifiers.org takes it.
 */
export const METADATA_PATHS: readonly KoaPath[] = [
  { path: FOR_URL, methods: [...HEAD_AND_GET, 'POST'] },
  { path: METADATA_API, under: true, methods: HEAD_AND_GET },
];

/** How soon a client told "being fetched" should ask again. */
export const PENDING_RETRY_AFTER_SECONDS = 2;
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

export interface MetadataRoutesDeps {
  snapshot: () => RegistrySnapshot;
  failingProviders: () => ReadonlySet<number> | undefined;
  publicRegistryUrl: string;
  lookup: (url: string) => Promise<MetadataLookup>;
  /** METADATA_CACHE_SECONDS: how long a 200 stays in the cache, for its Cache-Control. */
  cacheSeconds: number;
}

/** The resource a compact identifier's metadata was read from, appended to the payload of that form. */
interface ResolvedFrom {
  compactIdentifier: string;
  namespacePrefix: string | null;
  providerCode: string;
  resourceId: number;
}

/**
 * The prefix of `raw` when it has the form [provider/]prefix:accession but names no namespace of the
 * registry (nor a synonym of one); null for any other request the resolver could not parse.
 */
function unknownPrefix(raw: string, snapshot: RegistrySnapshot): string | null {
  const colon = raw.indexOf(':');
  if (colon <= 0 || colon === raw.length - 1) return null;
  const head = raw.slice(0, colon);
  const prefix = head.slice(head.lastIndexOf('/') + 1);
  if (prefix === '') return null;
  return parseCompactIdWithNamespace(raw, snapshot).namespace === null ? prefix : null;
}

function send(ctx: Context, status: number, json: string, headers: Record<string, string> = {}): void {
  ctx.status = status;
  ctx.type = 'application/json; charset=utf-8';
  for (const [name, value] of Object.entries(headers)) ctx.set(name, value);
  ctx.body = json;
}

function refuse(ctx: Context, status: number, message: string, extra = ''): void {
  send(ctx, status, errorEnvelopeJson(message, `{"metadata":null${extra}}`), { 'Cache-Control': 'no-store' });
}

/**
 * A stored answer with the fields of this request appended to its payload (`ageSeconds`, and the resolved
 * resource for a compact identifier): text is spliced, the payload is not parsed (it may be large).
 */
function answerJson(answer: StoredMetadataAnswer, ageSeconds: number, resolvedFrom: ResolvedFrom | undefined): string {
  const { payloadJson } = answer;
  const extra = `"ageSeconds":${ageSeconds}${resolvedFrom ? `,"resolvedFrom":${JSON.stringify(resolvedFrom)}` : ''}`;
  const payload = payloadJson.endsWith('}') ? `${payloadJson.slice(0, -1)}${payloadJson === '{}' ? '' : ','}${extra}}` : payloadJson;
  return `{"apiVersion":"1.0","errorMessage":${JSON.stringify(answer.errorMessage)},"payload":${payload}}`;
}

/**
 * identifiers.org's metadata service on the resolver area (issue 25, item 3): the structured metadata
 * (schema.org JSON-LD, Open Graph, title, description) of the page a compact identifier resolves to
 * (`getMetadataFor/{compactId}`, with `provider/prefix:lui` as the resolver allows), or of any page
 * (`getMetadataForUrl?url=`). The page is fetched by the metadata worker, never here; an answer is served
 * from the cache when there is one, says how old it is (Age, `ageSeconds`, `fetchedAt`), and a fetch that
 * takes longer than METADATA_WAIT_MS answers 202 with Retry-After.
 */
/**
 * /metadataApi where no worker can fetch the pages (a satellite resolver, which has no Redis): a 404 that
 * says where the service is, not a compact identifier's failure.
 */
export function metadataUnserved(): Middleware {
  return async function metadataUnserved(ctx, next) {
    if (!ctx.path.startsWith(METADATA_API)) return next();
    refuse(ctx, 404, 'Provider metadata is not served by this satellite resolver (it has no worker to fetch pages); ask the main resolvers');
  };
}

export function metadataRoutes(deps: MetadataRoutesDeps): Middleware {
  const options = { publicRegistryUrl: deps.publicRegistryUrl };

  const answerLookup = async (ctx: Context, url: string, resolvedFrom: ResolvedFrom | undefined) => {
    const lookup = await deps.lookup(url);
    const extra = `,"url":${JSON.stringify(url)}${resolvedFrom ? `,"resolvedFrom":${JSON.stringify(resolvedFrom)}` : ''}`;
    if (lookup.kind === 'pending') {
      refuse(ctx, 202, `The page at ${url} is being fetched; ask again in a few seconds`, extra);
      ctx.set('Retry-After', String(PENDING_RETRY_AFTER_SECONDS));
      return;
    }
    if (lookup.kind === 'unavailable') {
      refuse(ctx, 503, `Provider metadata is unavailable right now (${lookup.reason}); retry in a few seconds`, extra);
      ctx.set('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      return;
    }
    const { answer } = lookup;
    const ageSeconds = Math.max(0, Math.floor((Date.now() - answer.fetchedAtMs) / 1000));
    const cacheControl = answer.status === 200 ? `public, max-age=${Math.max(0, deps.cacheSeconds - ageSeconds)}` : 'no-store';
    send(ctx, answer.status, answerJson(answer, ageSeconds, resolvedFrom), { Age: String(ageSeconds), 'Cache-Control': cacheControl });
  };

  const forCompactId = async (ctx: Context) => {
    const raw = decodeRawRequest(ctx.path, FOR_COMPACT_ID.length);
    if (raw === '') return refuse(ctx, 400, `Name a compact identifier: ${FOR_COMPACT_ID}{prefix:accession}, or {provider/prefix:accession}`);
    const snapshot = deps.snapshot();
    const resolution = resolveCompactId(raw, snapshot, options);
    const failed = (status: number, because: string) => refuse(ctx, status, `FAILED to fetch metadata for Compact ID '${raw}', because ${because}`);
    if (resolution.kind !== 'resolved') {
      // The resolver calls an unknown prefix an invalid request (400); here it is a namespace not found.
      const unknown = resolution.reason === 'not-a-compact-id' ? unknownPrefix(raw, snapshot) : null;
      if (unknown !== null) return failed(404, `the namespace '${unknown}' is not in the registry`);
      return failed(resolutionStatus(resolution), resolution.message);
    }
    // A bare prefix resolves to the namespace's registry page: that is the registry's, not a provider's.
    if (!resolution.namespace) return failed(400, `'${raw}' names a namespace, not an entity: give prefix:accession`);
    const best = bestCandidate(resolution.resolvedResources, resolution.parsedCompactIdentifier, deps.failingProviders());
    if (!best) return failed(404, 'NO RESOURCES COULD BE FOUND');
    const resolvedFrom: ResolvedFrom = {
      compactIdentifier: raw,
      namespacePrefix: best.namespacePrefix,
      providerCode: best.providerCode,
      resourceId: best.id,
    };
    await answerLookup(ctx, best.compactIdentifierResolvedUrl, resolvedFrom);
  };

  const forUrl = async (ctx: Context) => {
    const given = ctx.query.url;
    if (Array.isArray(given)) return refuse(ctx, 400, 'Give one url parameter, not several');
    if (given === undefined || given.trim() === '') return refuse(ctx, 400, `Give the page's address: ${FOR_URL}?url=https://...`);
    await answerForUrl(ctx, given);
  };

  /** identifiers.org's form: POST {"apiVersion": "1.0", "payload": {"url": "..."}} (64 KiB of JSON at most). */
  const readPostedUrl = jsonBody();
  const forPostedUrl = (ctx: Context) =>
    readPostedUrl(ctx, async () => {
      const payload = (ctx.request.body as { payload?: unknown } | null | undefined)?.payload;
      const url = typeof payload === 'object' && payload !== null ? (payload as { url?: unknown }).url : undefined;
      if (typeof url !== 'string' || url.trim() === '') {
        return refuse(ctx, 400, 'Invalid payload: give the page\'s address as {"apiVersion": "1.0", "payload": {"url": "https://..."}}');
      }
      await answerForUrl(ctx, url);
    });

  const answerForUrl = async (ctx: Context, given: string) => {
    const refusal = urlRefusal(given);
    if (refusal !== null) return refuse(ctx, 400, `The URL ${given.slice(0, 200)} is not fetched: ${refusal}`);
    await answerLookup(ctx, given, undefined);
  };

  return async function metadata(ctx, next) {
    if (!ctx.path.startsWith(METADATA_API)) return next();
    if (ctx.method === 'POST' && ctx.path === FOR_URL) return forPostedUrl(ctx);
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path.startsWith(FOR_COMPACT_ID)) return forCompactId(ctx);
    if (ctx.path === FOR_URL) return forUrl(ctx);
    refuse(ctx, 404, `No such metadata endpoint: ${ctx.path.slice(0, 200)}; use ${FOR_COMPACT_ID}{compactId} or ${FOR_URL}?url=`);
  };
}
