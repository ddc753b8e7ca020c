import type { Middleware } from 'koa';
import { maxAgeFunction, type MaxAge, type RegistryVersion, type RegistryVersionSource } from './registry-version.js';

export interface ResponseCacheOptions {
  /** Bound on the cached bodies and their URLs together (characters, about bytes for JSON). */
  maxBytes?: number;
  /** Bodies larger than this (a page of 1,000 resources) are not kept. */
  maxEntryBytes?: number;
  /** As VersionedCacheOptions.ttlMs. */
  ttlMs?: MaxAge;
}

interface CachedAnswer {
  body: string;
  type: string;
  lastModified: string;
  at: number;
  bytes: number;
}

/**
 * Serialized answers per request URL, valid for one registry version (and a few seconds at most, see
 * registry-version.ts): every answer of the browse API is a function of the URL and the registry's
 * content, and a page of 20 namespaces costs far more to query and write than to send again. Least
 * recently used answers are dropped beyond maxBytes.
 */
export class ResponseCache {
  private version: RegistryVersion | undefined = undefined;
  private readonly entries = new Map<string, CachedAnswer>();
  private bytes = 0;
  private readonly maxBytes: number;
  private readonly maxEntryBytes: number;
  private readonly ttlMs: () => number;

  constructor(options: ResponseCacheOptions = {}) {
    // Every page of 100,000 namespaces sorted one way is about 100 MB of answers.
    this.maxBytes = options.maxBytes ?? 256 * 1024 * 1024;
    this.maxEntryBytes = options.maxEntryBytes ?? 2 * 1024 * 1024;
    this.ttlMs = maxAgeFunction(options.ttlMs);
  }

  get(url: string, version: RegistryVersion): CachedAnswer | undefined {
    if (version !== this.version) {
      this.entries.clear();
      this.bytes = 0;
      this.version = version;
      return undefined;
    }
    const entry = this.entries.get(url);
    if (!entry) return undefined;
    this.entries.delete(url);
    if (Date.now() - entry.at >= this.ttlMs()) {
      this.bytes -= entry.bytes;
      return undefined;
    }
    // Re-inserted: Maps iterate in insertion order, so the first key is always the least recently used.
    this.entries.set(url, entry);
    return entry;
  }

  set(url: string, version: RegistryVersion, answer: Omit<CachedAnswer, 'bytes'>): void {
    const bytes = url.length + answer.body.length;
    if (version !== this.version || bytes > this.maxEntryBytes) return;
    const previous = this.entries.get(url);
    if (previous) {
      this.entries.delete(url);
      this.bytes -= previous.bytes;
    }
    for (const [oldUrl, old] of this.entries) {
      if (this.bytes + bytes <= this.maxBytes) break;
      this.entries.delete(oldUrl);
      this.bytes -= old.bytes;
    }
    this.entries.set(url, { ...answer, bytes });
    this.bytes += bytes;
  }
}

/**
 * Reads the registry version (into ctx.state.registryVersion), answers a GET from the cache when the
 * registry has not changed since the same URL was answered, and keeps every 200 answer of the routes
 * behind it. Errors are never cached.
 */
export function answerFromCache(versions: RegistryVersionSource, cache: ResponseCache): Middleware {
  return async function cachedAnswer(ctx, next) {
    // One index probe per request: a change committed a moment ago shows in the very next answer.
    const version = await versions.read();
    // The routes' other caches use the same version: one read per request.
    ctx.state.registryVersion = version;
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const hit = cache.get(ctx.url, version);
    if (hit) {
      ctx.type = hit.type;
      if (hit.lastModified) ctx.set('Last-Modified', hit.lastModified);
      ctx.body = hit.body;
      return;
    }
    const started = Date.now();
    await next();
    const body: unknown = ctx.body;
    if (ctx.status !== 200 || body === null || body === undefined || Buffer.isBuffer(body)) return;
    if (typeof body !== 'string' && (typeof body !== 'object' || typeof (body as { pipe?: unknown }).pipe === 'function')) return;
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    // The type set by the route survives: Koa only guesses a type for a string body when none is set.
    ctx.body = text;
    cache.set(ctx.url, version, { body: text, type: ctx.response.get('Content-Type'), lastModified: ctx.response.get('Last-Modified'), at: started });
  };
}
