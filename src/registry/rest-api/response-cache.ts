import { createHash, randomUUID } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import { LRUCache } from 'lru-cache';
import { isNotModified } from '../../http/conditional-get.js';
import { joinJsonInSlices } from '../../lib/loop-turns.js';
import { answerKey } from './answer-key.js';
import { maxAgeFunction, type MaxAge, type RegistryVersion, type RegistryVersionSource } from '../model/registry-version.js';

export interface ResponseCacheOptions {
  /** Bound on the cached answers, in bytes of their UTF-8 text (and their keys); 0: nothing is cached. */
  maxBytes?: number;
  /** Answers larger than this are not kept (at most maxBytes). */
  maxEntryBytes?: number;
  /** As VersionedCacheOptions.ttlMs. */
  ttlMs?: MaxAge;
}

/**
 * A serialized answer. Pages and lists give the request URL as their self link (as Spring HATEOAS does),
 * so they are kept as the text before it (`head`) and after it (`tail`), and each request's own URL goes
 * between the two; other answers are `head` alone.
 */
export interface CachedAnswer {
  head: Buffer;
  tail: Buffer | null;
  type: string;
  lastModified: string;
  /** The entity tag without W/ (see entityTagOf). */
  etag: string;
  at: number;
}

// A Map entry, the key's UTF-16 text and the answer's fields, roughly: small next to any answer.
const ENTRY_OVERHEAD_BYTES = 256;
export const DEFAULT_RESPONSE_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Serialized answers per normalised request (answer-key.ts), valid for one registry version (and a few
 * seconds at most, see registry-version.ts): every answer of the browse API is a function of what its
 * route reads of the request and of the registry's content, and a page of 20 namespaces costs far more to
 * query and write than to send again. Bounded in bytes: the least recently used answers go first.
 */
export class ResponseCache {
  private version: RegistryVersion | undefined = undefined;
  private readonly entries: LRUCache<string, CachedAnswer> | null;
  private readonly ttlMs: () => number;

  constructor(options: ResponseCacheOptions = {}) {
    const maxBytes = Number.isFinite(options.maxBytes) ? Math.max(0, Math.floor(options.maxBytes!)) : DEFAULT_RESPONSE_CACHE_BYTES;
    // A page of 1,000 namespaces of the real registry is about 1 MB.
    const maxEntryBytes = Math.min(options.maxEntryBytes ?? 2 * 1024 * 1024, maxBytes);
    this.entries =
      maxBytes > 0
        ? new LRUCache<string, CachedAnswer>({
            maxSize: maxBytes,
            maxEntrySize: maxEntryBytes,
            sizeCalculation: (answer, key) => answer.head.length + (answer.tail?.length ?? 0) + 2 * key.length + ENTRY_OVERHEAD_BYTES,
          })
        : null;
    this.ttlMs = maxAgeFunction(options.ttlMs);
  }

  /** Bytes held, as counted against maxBytes. */
  get bytes(): number {
    return this.entries?.calculatedSize ?? 0;
  }

  get(key: string, version: RegistryVersion): CachedAnswer | undefined {
    if (!this.entries) return undefined;
    if (version !== this.version) {
      this.entries.clear();
      this.version = version;
      return undefined;
    }
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (Date.now() - entry.at >= this.ttlMs()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  set(key: string, version: RegistryVersion, answer: CachedAnswer): void {
    // An answer too large for maxEntryBytes is simply not kept (lru-cache drops it).
    if (this.entries && version === this.version) this.entries.set(key, answer);
  }
}

/** What a route marks when its answer's self link is the request URL (see CachedAnswer). */
export function markSelfAsRequestUrl(ctx: Context, href: string): void {
  ctx.state.selfHrefIsRequestUrl = href;
}

// Stands for the self link while an answer is split; random, so no text of the registry can contain it.
const SELF_PLACEHOLDER = `\u0000self-${randomUUID()}\u0000`;
const SELF_PLACEHOLDER_JSON = JSON.stringify(SELF_PLACEHOLDER);

interface HalBody {
  _links?: { self?: { href?: unknown } };
  _embedded?: Record<string, unknown>;
}

// A page's items are written this many at a time (about a millisecond of work), a turn of the loop between.
const ITEMS_PER_SLICE = 100;
// Stands for a list of embedded items while the rest of the answer is written; random as SELF_PLACEHOLDER.
const ITEMS_PLACEHOLDER_JSON = JSON.stringify(`\u0000items-${randomUUID()}\u0000`);

/**
 * JSON.stringify(body), a large page's embedded items written in slices (loop-turns.ts): a page of 1,000
 * resources written at once held the event loop for some 20 ms.
 */
async function writeJson(body: object): Promise<string> {
  const embedded = (body as HalBody)._embedded;
  const large = embedded && Object.entries(embedded).find(([, items]) => Array.isArray(items) && items.length > ITEMS_PER_SLICE);
  if (!embedded || !large) return JSON.stringify(body);
  const [name, items] = large as [string, unknown[]];
  const itemsJson = await joinJsonInSlices(items, (item) => item, ITEMS_PER_SLICE);
  embedded[name] = JSON.parse(ITEMS_PLACEHOLDER_JSON);
  const text = JSON.stringify(body);
  embedded[name] = items;
  const at = text.indexOf(ITEMS_PLACEHOLDER_JSON);
  return `${text.slice(0, at)}[${itemsJson}]${text.slice(at + ITEMS_PLACEHOLDER_JSON.length)}`;
}

/** The answer as cached, or null when the self link the route marked cannot be found in it. */
async function splitAnswer(body: unknown, selfHref: string | undefined): Promise<{ head: Buffer; tail: Buffer | null } | null> {
  if (typeof body === 'string') return selfHref === undefined ? { head: Buffer.from(body), tail: null } : null;
  if (selfHref === undefined) return { head: Buffer.from(await writeJson(body as object)), tail: null };
  const self = (body as HalBody)._links?.self;
  if (!self || self.href !== selfHref) return null;
  self.href = SELF_PLACEHOLDER;
  const text = await writeJson(body as object);
  self.href = selfHref;
  const at = text.lastIndexOf(SELF_PLACEHOLDER_JSON);
  return { head: Buffer.from(text.slice(0, at)), tail: Buffer.from(text.slice(at + SELF_PLACEHOLDER_JSON.length)) };
}

/**
 * The answer's entity tag, from its content (the self link aside, which is the request URL, the same for
 * every answer a tag is compared with): the registry version these answers are kept by is this process's own
 * count of changes (registry-version.ts), which another registry process behind the same CDN may have at
 * other content. Worked out once per cached answer, when it is kept.
 */
function entityTagOf(head: Buffer, tail: Buffer | null): string {
  const hash = createHash('sha256').update(head);
  if (tail) hash.update(tail);
  return `"h-${hash.digest('base64url').slice(0, 27)}"`;
}

/**
 * ETag (weak: the bytes differ by the self link) and 304 when the client holds this answer: If-None-Match, or
 * without one If-Modified-Since against the item's Last-Modified (conditional-get.ts).
 */
function answerConditionally(ctx: Context, etag: string, lastModified: string): void {
  ctx.set('ETag', `W/${etag}`);
  const modified = lastModified ? new Date(lastModified) : undefined;
  if (isNotModified(ctx.get('If-None-Match'), ctx.get('If-Modified-Since'), [etag], modified)) ctx.status = 304;
}

function joinAnswer(answer: Pick<CachedAnswer, 'head' | 'tail'>, selfHref: string): Buffer {
  return answer.tail ? Buffer.concat([answer.head, Buffer.from(JSON.stringify(selfHref)), answer.tail]) : answer.head;
}

/**
 * Reads the registry version (into ctx.state.registryVersion), answers a GET from the cache when the
 * registry has not changed since an equivalent request was answered, and keeps every 200 answer of the
 * routes behind it, with its entity tag: a client or cache holding the answer gets 304. Errors are never
 * cached. `requestHref`: the request URL as routes give it as self.
 */
export function answerFromCache(versions: RegistryVersionSource, cache: ResponseCache, requestHref: (ctx: Context) => string): Middleware {
  return async function cachedAnswer(ctx, next) {
    // One index probe per request: a change committed a moment ago shows in the very next answer.
    const version = await versions.read();
    // The routes' other caches use the same version: one read per request.
    ctx.state.registryVersion = version;
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const key = answerKey(ctx.path, ctx.query, ctx.url);
    const hit = cache.get(key, version);
    if (hit) {
      ctx.type = hit.type;
      if (hit.lastModified) ctx.set('Last-Modified', hit.lastModified);
      ctx.body = hit.tail ? joinAnswer(hit, requestHref(ctx)) : hit.head;
      answerConditionally(ctx, hit.etag, hit.lastModified);
      return;
    }
    const started = Date.now();
    await next();
    const body: unknown = ctx.body;
    if (ctx.status !== 200 || body === null || body === undefined || Buffer.isBuffer(body)) return;
    if (typeof body !== 'string' && (typeof body !== 'object' || typeof (body as { pipe?: unknown }).pipe === 'function')) return;
    const selfHref = ctx.state.selfHrefIsRequestUrl as string | undefined;
    const split = await splitAnswer(body, selfHref);
    if (!split) return;
    // The type set by the route survives: Koa only guesses a type for a body when none is set.
    ctx.body = split.tail && selfHref !== undefined ? joinAnswer(split, selfHref) : split.head;
    const etag = entityTagOf(split.head, split.tail);
    const lastModified = ctx.response.get('Last-Modified');
    cache.set(key, version, { ...split, type: ctx.response.get('Content-Type'), lastModified, etag, at: started });
    answerConditionally(ctx, etag, lastModified);
  };
}
