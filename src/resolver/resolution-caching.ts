/**
 * HTTP caching of resolution answers, for a CDN or a browser cache in front of the resolvers.
 *
 * An answer is a function of the request (path, query, Accept) and of what the resolver holds: the registry
 * snapshot (its version, the same in every resolver process at the same registry content), the ranking of
 * providers by their link checks (which moves without a new version: SnapshotSource.rankingTag) and the
 * public URLs it prints. So the entity tag is `W/"<version>-<ranking>-<deployment>-<j|r>"`: no hash per
 * request, the strings are written once per snapshot and ranking. The path is not in it: an entity tag is
 * only ever compared with the tags of the same URL (RFC 9110 §8.8.3). `j` and `r` tell the JSON and redirect
 * representations apart, which share URLs and differ by Accept (hence `Vary: Accept`).
 *
 * Only 200 answers are conditional: a 302 carries its tag, but a request whose answer would be a redirect
 * ignores If-None-Match, as RFC 9110 §13.2.1 requires for any answer that is not 2xx. Failed resolutions
 * (400 and 404) carry no tag and a short max-age (RESOLVER_ERROR_CACHE_MAX_AGE), so that a namespace
 * registered a moment ago is not hidden long behind a cached 404.
 *
 * Every cacheable answer carries the open CORS headers, whether the request had an Origin or not: a shared
 * cache gives the same stored answer to browsers on other origins and to clients that send none.
 */
import { createHash } from 'node:crypto';

export interface ResolutionCachingOptions {
  maxAgeSeconds: number;
  errorMaxAgeSeconds: number;
  /** What the answers print besides the registry (the public URLs): part of every tag. */
  deployment: readonly string[];
}

export class ResolutionCaching {
  /** Headers of a 200 JSON answer (and of its 304), name and value in turn. */
  jsonHeaders: readonly string[] = [];
  /** Headers of a redirect. */
  redirectHeaders: readonly string[] = [];
  /** Headers of a failed resolution. */
  readonly errorHeaders: readonly string[];
  /** The JSON answers' tag without its W/ and quotes, as If-None-Match values are compared (weakly). */
  #jsonTag = '';
  #version = Number.NaN;
  #ranking: string | undefined = undefined;
  readonly #cacheControl: string;
  readonly #deployment: string;

  constructor(options: ResolutionCachingOptions) {
    this.#cacheControl = `public, max-age=${options.maxAgeSeconds}`;
    this.#deployment = createHash('sha256').update(options.deployment.join('\n')).digest('base64url').slice(0, 8);
    const errorCache = options.errorMaxAgeSeconds > 0 ? `public, max-age=${options.errorMaxAgeSeconds}` : 'no-store';
    this.errorHeaders = ['Cache-Control', errorCache, 'Vary', 'Accept'];
  }

  /** Brings the tags up to date; costs two comparisons when nothing changed. */
  update(version: number, ranking: string | undefined): void {
    if (version === this.#version && ranking === this.#ranking) return;
    this.#version = version;
    this.#ranking = ranking;
    const base = `${version}-${ranking ?? '0'}-${this.#deployment}`;
    this.#jsonTag = `"${base}-j"`;
    const common = ['Cache-Control', this.#cacheControl, 'Vary', 'Accept'];
    this.jsonHeaders = ['ETag', `W/${this.#jsonTag}`, ...common];
    this.redirectHeaders = ['ETag', `W/"${base}-r"`, ...common];
  }

  /**
   * Whether an If-None-Match value names the current JSON answer (or `*`), by the weak comparison RFC 9110
   * §13.1.2 asks for: `W/` is ignored on both sides.
   */
  matchesJson(ifNoneMatch: string): boolean {
    const tag = this.#jsonTag;
    if (ifNoneMatch === tag || ifNoneMatch === `W/${tag}`) return true;
    for (const part of ifNoneMatch.split(',')) {
      const given = part.trim();
      if (given === '*' || given === tag || given === `W/${tag}`) return true;
    }
    return false;
  }
}
