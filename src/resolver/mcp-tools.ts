/**
 * What the MCP tools answer (mcp-server.ts registers them), computed by the same core functions as the
 * resolver's HTTP routes: resolveCompactId (GET /{compactId}), chooseBestProvider and landingUrl (the
 * browser's redirect), reverseByPrefix and SimilarityLookup (POST /reverse/*), on the same snapshot and the
 * same reverse-lookup index. Plain functions of their arguments; a refusal is thrown as McpToolRefusal,
 * which the SDK turns into a tool result with isError.
 */
import { chooseBestProvider } from '../core/best-provider.js';
import { searchNamespaces } from '../core/namespace-search.js';
import type { NamespaceEntry } from '../core/registry-snapshot.js';
import { resolveCompactId, type Resolution } from '../core/resolve.js';
import { reverseResolverUrl } from '../core/resolver-url-lookup.js';
import type { ReverseIndex } from '../core/reverse-index.js';
import { reverseByPrefix, SimilarityLookup } from '../core/reverse-lookup.js';
import { asciiLocation } from '../http/ascii-location.js';
import { DEPRECATED_LANDING, landingUrl, PROTECTED_LANDING, type ResolutionCounter } from './front-handler.js';
import type { HeavyWork } from './heavy-work.js';
import { landingRequestOf } from './landing-request.js';
import { readReverseQuery, SIMILARITY_SLICE_WORK, type ReverseLookupEndpoint } from './reverse.routes.js';
import type { SnapshotSource } from './snapshot-source.js';

/** A request the tool cannot answer (an unknown prefix, a URL that is not one): its message is the result's text. */
export class McpToolRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'McpToolRefusal';
  }
}

export interface McpToolDeps {
  registry: SnapshotSource;
  publicResolverUrl: string;
  publicRegistryUrl: string;
  /** The reverse lookups' index of the current snapshot, shared with POST /reverse/* (ReverseIndexCache). */
  reverseIndex: () => ReverseIndex;
  /** Similarity lookups are done in turns with the other clients' heavy work, as POST /reverse/bySimilarity's. */
  heavy: HeavyWork;
  /** The description of a namespace (Postgres: the snapshot has none); null when it cannot be read. */
  readDescription: (namespace: NamespaceEntry) => Promise<string | null>;
  /** Usage counting of resolutions; absent when not counting. */
  count?: ResolutionCounter;
}

/** Who is asking: the heavy work's turns and the usage counts are per client, as on the HTTP routes. */
export interface McpClient {
  address: string;
  userAgent: string;
  /** DNT: 1 — the client's resolutions are not counted. */
  doNotTrack: boolean;
}

export interface ResolveAnswer {
  urls: string[];
  /** Why the list is empty (the resolution's message); null when the identifier resolved. */
  errorMessage: string | null;
}

export interface ResolveBestAnswer {
  url: string;
}

export interface ConvertAnswer {
  /** byPrefix's possible_resolver_url (the reference's possible_idorg_url): null without a match. */
  url: string | null;
  curie: string | null;
}

export interface SimilarAnswer {
  /** bySimilarity's possible_resolver_url of each match, nearest first (null where the LUI pattern does not match). */
  urls: (string | null)[];
}

export interface NamespaceSummary {
  prefix: string;
  mirId: string;
  name: string;
  pattern: string;
  sampleId: string;
  deprecated: boolean;
}

export interface SearchAnswer {
  query: string;
  total: number;
  namespaces: NamespaceSummary[];
}

export interface ProviderDescription {
  providerCode: string;
  mirId: string;
  name: string;
  description: string | null;
  urlPattern: string;
  homeUrl: string;
  official: boolean;
  deprecated: boolean;
  protectedUrls: boolean;
  institution: string;
  countryCode: string;
  /** The namespace's sample identifier at this provider; null when the sample does not resolve. */
  sampleUrl: string | null;
  /** Its recommendation index when resolving the sample (what the redirect ranks by). */
  recommendationIndex: number | null;
}

export interface NamespaceDescription extends NamespaceSummary {
  /** Other names the namespace answers to (sorted), each usable in place of the prefix. */
  synonyms: string[];
  description: string | null;
  namespaceEmbeddedInLui: boolean;
  /** Whether what follows the part of a LUI the pattern matches is passed through to the providers (core/lui-suffix.ts). */
  suffixPassthrough: boolean;
  deprecationDate: string | null;
  /** `{resolver}/{prefix}:{sampleId}`. */
  sampleCompactIdentifierUrl: string;
  registryPage: string;
  providers: ProviderDescription[];
}

export interface McpTools {
  resolve(curie: string, client: McpClient): ResolveAnswer;
  resolveBest(curie: string, client: McpClient): ResolveBestAnswer;
  convert(providerUrl: string, accession: string | undefined): ConvertAnswer;
  getSimilar(providerUrl: string, accession: string | undefined, client: McpClient): Promise<SimilarAnswer>;
  searchRegistry(query: string, limit: number): SearchAnswer;
  describeNamespace(prefix: string): Promise<NamespaceDescription>;
}

function summaryOf(ns: NamespaceEntry): NamespaceSummary {
  return { prefix: ns.prefix, mirId: ns.mirId, name: ns.name, pattern: ns.pattern, sampleId: ns.sampleId, deprecated: ns.deprecated };
}

export function createMcpTools(deps: McpToolDeps): McpTools {
  const resolveOptions = { publicRegistryUrl: deps.publicRegistryUrl };
  const reverseOptions = { publicResolverUrl: deps.publicResolverUrl };

  /** Resolves as GET /{curie} does, counted as one resolution of its namespace as there. */
  function resolveCounted(curie: string, client: McpClient): Resolution {
    const snapshot = deps.registry.snapshot;
    const resolution = resolveCompactId(curie, snapshot, resolveOptions);
    const namespace = resolution.kind === 'resolved' ? resolution.parsedCompactIdentifier.namespace : null;
    if (deps.count && namespace && !client.doNotTrack) {
      deps.count(snapshot.namespacesByPrefix.get(namespace.toLowerCase())?.prefix ?? namespace, client.address, client.userAgent);
    }
    return resolution;
  }

  function reverseQuery(providerUrl: string, accession: string | undefined, endpoint: ReverseLookupEndpoint) {
    const query = readReverseQuery({ url: providerUrl, accession }, endpoint);
    if (typeof query === 'string') throw new McpToolRefusal(query);
    return query;
  }

  return {
    resolve(curie, client) {
      const resolution = resolveCounted(curie, client);
      if (resolution.kind !== 'resolved') return { urls: [], errorMessage: resolution.message };
      return { urls: resolution.resolvedResources.map((r) => r.compactIdentifierResolvedUrl), errorMessage: null };
    },

    resolveBest(curie, client) {
      const resolution = resolveCounted(curie, client);
      if (resolution.kind !== 'resolved') throw new McpToolRefusal(resolution.message);
      // Exactly the browser's redirect (front-handler.ts answerRedirect): the same choice, failing providers
      // skipped, the landing pages, and the Location's ASCII form.
      const choice = chooseBestProvider(resolution.resolvedResources, resolution.parsedCompactIdentifier, deps.registry.failingProviders);
      if (choice.kind === 'failed') throw new McpToolRefusal(choice.errorMessage);
      const url =
        choice.kind === 'provider'
          ? choice.url
          : landingUrl(deps.publicResolverUrl, choice.kind === 'deprecated-landing' ? DEPRECATED_LANDING : PROTECTED_LANDING, landingRequestOf(curie, resolution));
      return { url: asciiLocation(url) };
    },

    convert(providerUrl, accession) {
      const query = reverseQuery(providerUrl, accession, 'byPrefix');
      // As POST /reverse/byPrefix: a resolver's own URL names its compact identifier.
      const match =
        reverseResolverUrl(query.url, deps.registry.snapshot, deps.publicResolverUrl) ?? reverseByPrefix(deps.reverseIndex(), query, reverseOptions);
      return { url: match?.possible_resolver_url ?? null, curie: match?.possible_resolver_curie ?? null };
    },

    async getSimilar(providerUrl, accession, client) {
      const lookup = new SimilarityLookup(deps.reverseIndex(), reverseQuery(providerUrl, accession, 'bySimilarity'), reverseOptions);
      try {
        await deps.heavy.runInTurns(client.address, () => lookup.advance(SIMILARITY_SLICE_WORK));
      } catch (error) {
        lookup.release();
        throw error;
      }
      return { urls: lookup.matches().map((m) => m.possible_resolver_url) };
    },

    searchRegistry(query, limit) {
      const result = searchNamespaces(deps.registry.snapshot, query, limit);
      return { query: result.query, total: result.total, namespaces: result.namespaces.map(summaryOf) };
    },

    async describeNamespace(prefix) {
      const snapshot = deps.registry.snapshot;
      const key = prefix.trim().toLowerCase();
      // A synonym names its namespace here as in a compact identifier.
      const ns = snapshot.namespacesByPrefix.get(key) ?? snapshot.namespacesBySynonym.get(key);
      if (!ns) throw new McpToolRefusal(`No namespace has the prefix '${prefix}', nor as a synonym; the tool searchRegistry finds namespaces by prefix, synonym or name`);
      const sampleCurie = `${ns.prefix}:${ns.sampleId}`;
      // The providers' sample URLs and ranks as a resolution of the sample gives them.
      const sample = resolveCompactId(sampleCurie, snapshot, resolveOptions);
      const resolvedById = new Map(sample.kind === 'resolved' ? sample.resolvedResources.map((r) => [r.id, r]) : []);
      const registryUrl = deps.publicRegistryUrl.replace(/\/+$/, '');
      return {
        ...summaryOf(ns),
        synonyms: [...(ns.synonyms ?? [])],
        description: await deps.readDescription(ns),
        namespaceEmbeddedInLui: ns.namespaceEmbeddedInLui,
        suffixPassthrough: ns.suffixPassthrough === true,
        deprecationDate: ns.deprecationDate,
        sampleCompactIdentifierUrl: `${deps.publicResolverUrl}/${sampleCurie}`,
        registryPage: `${registryUrl}/registry/${ns.prefix}`,
        providers: ns.resources.map((r) => {
          const resolved = resolvedById.get(r.id);
          return {
            providerCode: r.providerCode,
            mirId: r.mirId,
            name: r.name,
            description: r.description,
            urlPattern: r.urlPattern,
            homeUrl: r.resourceHomeUrl,
            official: r.official,
            deprecated: r.deprecated,
            protectedUrls: r.protectedUrls,
            institution: r.institution.name,
            countryCode: r.location.countryCode,
            sampleUrl: resolved?.compactIdentifierResolvedUrl ?? null,
            recommendationIndex: resolved?.recommendation.recommendationIndex ?? null,
          };
        }),
      };
    },
  };
}
