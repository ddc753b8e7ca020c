/**
 * The registry questions the validation rules ask: which namespace has this prefix, is this provider code
 * taken in that namespace, which resource has a URL pattern like this one, what home page the registry's
 * institution with this ROR id has. Asked directly (every call
 * queries: registerPrefix / registerResource, where an answer must be current) or through a cache for the
 * field validator endpoints, which a registration form calls on every pause in typing.
 */
import type { Db } from '../../../db/knex.js';
import { findNamespaceByPrefixIgnoringCase, providerCodeTaken, type NamespaceFacts } from '../../../db/registry-reads.js';
import { findInstitutionByRorId } from '../../model/institution-by-ror-id.js';
import { RegistryVersionSource, VERSIONED_CACHE_TTL_MS, type RegistryVersion } from '../../model/registry-version.js';
import type { RequestKind } from '../../model/request-kind.js';

/** The columns of a namespace that the rules read. */
export type { NamespaceFacts } from '../../../db/registry-reads.js';

/** The resource a new URL pattern resembles most, and the prefix of its namespace. */
export interface SimilarResource {
  providerCode: string;
  prefix: string;
}

export interface SimilarityQuery {
  kind: RequestKind;
  /** Resource requests: the namespace the provider joins, whose own resources are not compared. */
  namespacePrefix: string | null;
  threshold: number;
}

export interface RegistryLookups {
  /** The namespace whose prefix equals `prefix` case-insensitively (prefixes are unique that way). */
  namespace(prefix: string): Promise<NamespaceFacts | undefined>;
  /** Whether a resource of the namespace has this provider code, case-insensitively. */
  providerCodeTaken(namespaceId: number, code: string): Promise<boolean>;
  /** The most similar resource above the threshold (pg_trgm similarity of the URL patterns), if any. */
  similarResource(pattern: string, query: SimilarityQuery): Promise<SimilarResource | undefined>;
  /** The home URL of the registry's institution with this ROR id (in any of its written forms), if any. */
  institutionHomeUrl(rorId: string): Promise<string | undefined>;
}

// The longest stored prefix or provider code: a longer value cannot match, so it costs no query.
const NAME_MAX_LENGTH = 255;

/** Lookups that query every time. */
export function directLookups(db: Db): RegistryLookups {
  return {
    async namespace(prefix) {
      if (prefix.length > NAME_MAX_LENGTH) return undefined;
      return findNamespaceByPrefixIgnoringCase(db, prefix);
    },

    async providerCodeTaken(namespaceId, code) {
      if (code.length > NAME_MAX_LENGTH) return false;
      return providerCodeTaken(db, namespaceId, code);
    },

    async similarResource(pattern, { kind, namespacePrefix, threshold }) {
      const query = db('resources as r')
        .join('namespaces as n', 'n.id', 'r.namespaceId')
        .first<SimilarResource | undefined>('r.providerCode', 'n.prefix')
        .whereRaw('similarity(r.url_pattern, ?) > ?', [pattern, threshold])
        .orderByRaw('similarity(r.url_pattern, ?) DESC, r.id', [pattern]);
      if (kind === 'resource') {
        query.where('r.deprecated', false).where('n.deprecated', false);
        if (namespacePrefix !== null) query.whereRaw('lower(n.prefix) <> lower(?)', [namespacePrefix]);
      }
      return query;
    },

    async institutionHomeUrl(rorId) {
      return (await findInstitutionByRorId(db, rorId))?.homeUrl;
    },
  };
}

export interface CachedLookupsOptions {
  /** How often, at most, the registry version is read to learn whether cached answers still hold. */
  versionCheckIntervalMs?: number;
  /** Answers are dropped after this long even when the version has not moved (see registry-version.ts). */
  maxAgeMs?: number;
  /** Bound on the answers kept per question; the oldest go first. */
  maxEntries?: number;
}

/**
 * Answers kept while the registry version they were found at is current. The version is read at most once
 * per versionCheckIntervalMs (one index probe, shared by every request of that moment), so an answer may be
 * that much out of date: acceptable for the form's field checks, which registerPrefix repeats with
 * directLookups and acceptance with the database's constraints. Concurrent identical questions share one
 * query; failed queries are not kept.
 */
export class CachedRegistryLookups implements RegistryLookups {
  private readonly direct: RegistryLookups;
  private readonly versionCheckIntervalMs: number;
  private readonly maxAgeMs: number;
  private readonly maxEntries: number;
  private readonly versions: RegistryVersionSource;
  private version: RegistryVersion | undefined = undefined;
  private checkedAt = -Infinity;
  private clearedAt = -Infinity;
  private checking: Promise<void> | undefined;
  private readonly namespaces = new Map<string, Promise<NamespaceFacts | undefined>>();
  private readonly providerCodes = new Map<string, Promise<boolean>>();
  private readonly similar = new Map<string, Promise<SimilarResource | undefined>>();
  private readonly institutionHomeUrls = new Map<string, Promise<string | undefined>>();

  constructor(db: Db, options: CachedLookupsOptions = {}) {
    this.direct = directLookups(db);
    this.versions = new RegistryVersionSource(db);
    this.versionCheckIntervalMs = options.versionCheckIntervalMs ?? 1000;
    this.maxAgeMs = options.maxAgeMs ?? VERSIONED_CACHE_TTL_MS;
    this.maxEntries = options.maxEntries ?? 2000;
  }

  async namespace(prefix: string): Promise<NamespaceFacts | undefined> {
    await this.current();
    return this.remember(this.namespaces, prefix.toLowerCase(), () => this.direct.namespace(prefix));
  }

  async providerCodeTaken(namespaceId: number, code: string): Promise<boolean> {
    await this.current();
    return this.remember(this.providerCodes, `${namespaceId} ${code.toLowerCase()}`, () => this.direct.providerCodeTaken(namespaceId, code));
  }

  async similarResource(pattern: string, query: SimilarityQuery): Promise<SimilarResource | undefined> {
    await this.current();
    const scope = query.kind === 'prefix' ? 'p' : `r${query.namespacePrefix?.toLowerCase() ?? ''}`;
    return this.remember(this.similar, `${query.threshold} ${scope.length}:${scope}${pattern}`, () => this.direct.similarResource(pattern, query));
  }

  async institutionHomeUrl(rorId: string): Promise<string | undefined> {
    await this.current();
    return this.remember(this.institutionHomeUrls, rorId, () => this.direct.institutionHomeUrl(rorId));
  }

  // Resolves at once (no version read) while the last check is recent enough.
  private current(): Promise<void> | void {
    if (performance.now() - this.checkedAt < this.versionCheckIntervalMs) return;
    this.checking ??= this.checkVersion().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  private async checkVersion(): Promise<void> {
    const version = await this.versions.read();
    const now = performance.now();
    if (version !== this.version || now - this.clearedAt >= this.maxAgeMs) {
      this.namespaces.clear();
      this.providerCodes.clear();
      this.similar.clear();
      this.institutionHomeUrls.clear();
      this.version = version;
      this.clearedAt = now;
    }
    this.checkedAt = now;
  }

  private remember<V>(entries: Map<string, Promise<V>>, key: string, find: () => Promise<V>): Promise<V> {
    const known = entries.get(key);
    if (known) return known;
    if (entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: the first key is the oldest answer.
      const oldest = entries.keys().next();
      if (!oldest.done) entries.delete(oldest.value);
    }
    const found = find();
    entries.set(key, found);
    found.catch(() => {
      if (entries.get(key) === found) entries.delete(key);
    });
    return found;
  }
}
