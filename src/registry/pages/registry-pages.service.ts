/**
 * What the registry's pages read, through the services the APIs use (the HAL browse items and pages, the
 * shared registry reads, the statistics service), with the page-only reads (link-check states, the
 * prefixes a 404 suggests) beside them. Registry data is cached per registry version like the browse
 * API's; usage figures and link checks, which move without a registry change, for a minute.
 */
import { LRUCache } from 'lru-cache';
import { MAX_SYNONYM_LENGTH } from '../../core/prefix-synonyms.js';
import { findNamespaceBySynonym } from '../../db/namespace-synonyms.js';
import { completeNamespaceRows, type NamespaceItemRow } from '../model/namespace-synonyms.js';
import { closestPrefixes } from '../../core/close-prefixes.js';
import type { Db } from '../../db/knex.js';
import { findNamespaceByPrefixIgnoringCase, findNamespaceSuccessor, selectResourcesWithInstitution, type ResourceWithInstitutionRow } from '../../db/registry-reads.js';
import type { LinkCheckRow, NamespaceRow } from '../../db/tables.js';
import { reliabilityOf, type SampleMeasurement } from '../../core/reliability.js';
import type { NamespaceEntry } from '../../core/registry-snapshot.js';
import { readNamespaceEntries } from '../../db/namespace-entries.js';
import type { HealthApiService } from '../model/link-health.js';
import { COLLECTIONS } from '../model/collections.js';
import { getItem, listItems } from '../model/items.service.js';
import type { RestApiData, RestApiStore } from '../model/page-query.js';
import type { RegistryVersionSource } from '../model/registry-version.js';
import { VersionedCache } from '../model/versioned-cache.js';
import type { StatisticsService } from '../model/usage-statistics.js';
import { sampleRouteOf, type SampleRoute } from './sample-route.js';

export interface HomeData {
  namespaceCount: number;
  resourceCount: number;
  /** The namespaces added last, newest first. */
  recent: NamespaceRow[];
}

/** A resource's latest link check (of its sample URL, else of its home page), with its reliability score. */
export type LinkHealth = Pick<LinkCheckRow, 'urlKind' | 'outcome' | 'httpStatus' | 'checkedAt'> & {
  /** 0–100, from its sample checks of the reliability window (core/reliability.ts), as the resolver ranks it. */
  reliability: number;
};

export interface ResourceView extends ResourceWithInstitutionRow {
  health: LinkHealth | null;
}

export interface MonthlyVisits {
  month: string;
  visits: number;
}

export interface NamespacePageData {
  namespace: NamespaceItemRow;
  successor: Pick<NamespaceRow, 'prefix' | 'name'> | null;
  resources: ResourceView[];
  /** Visits over the last 12 months, oldest first; null while the usage counters cannot be read. */
  usage: MonthlyVisits[] | null;
  /** Where the resolver sends the sample identifier today, and why; null without a sample identifier. */
  route: SampleRoute | null;
}

interface NamespaceRecords {
  namespace: NamespaceItemRow;
  successor: Pick<NamespaceRow, 'prefix' | 'name'> | null;
  resources: ResourceWithInstitutionRow[];
  /** The namespace as the resolver's snapshot holds it (sample-route.ts resolves over it). */
  entry: NamespaceEntry;
}

interface LiveHealth {
  states: Map<number, LinkHealth>;
  measurements: Map<number, SampleMeasurement>;
}

export interface RegistryPagesDeps {
  db: Db;
  data: RestApiData;
  versions: RegistryVersionSource;
  statistics: StatisticsService;
  /** The link checks' health API service, whose reads the page's link-check column shows. */
  health: HealthApiService;
  now?: () => Date;
}

const RECENT_NAMESPACES = 8;
const MONTHS_OF_USAGE = 12;
// Usage counts and link checks change without a registry change; a minute old is fresh enough for a page.
const LIVE_FIGURES_TTL_MS = 60_000;

/** The last `count` months (YYYY-MM) up to the one `now` is in, oldest first. */
export function lastMonths(now: Date, count: number): string[] {
  const months: string[] = [];
  for (let back = count - 1; back >= 0; back--) {
    months.push(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1)).toISOString().slice(0, 7));
  }
  return months;
}

export class RegistryPagesService {
  private readonly records: VersionedCache<NamespaceRecords | null>;
  private readonly prefixes: VersionedCache<readonly string[]>;
  private readonly usage = new LRUCache<string, { figures: MonthlyVisits[] | null }>({ max: 5000, ttl: LIVE_FIGURES_TTL_MS });
  private readonly health = new LRUCache<string, LiveHealth>({ max: 5000, ttl: LIVE_FIGURES_TTL_MS });
  private readonly now: () => Date;

  constructor(private readonly deps: RegistryPagesDeps) {
    this.now = deps.now ?? (() => new Date());
    // Kept as the browse API's caches are: while the registry version stands, at most its maximum age.
    this.records = new VersionedCache({ maxEntries: 5000, ttlMs: deps.versions.maxAgeMs });
    this.prefixes = new VersionedCache({ maxEntries: 1, ttlMs: deps.versions.maxAgeMs });
  }

  private async store(): Promise<RestApiStore> {
    return this.deps.data.storeAt(await this.deps.versions.read());
  }

  async home(): Promise<HomeData> {
    const store = await this.store();
    const first = { page: 0, size: 1, sort: [] };
    const [namespaces, resources, recent] = await Promise.all([
      listItems(store, COLLECTIONS.namespaces, first),
      listItems(store, COLLECTIONS.resources, first),
      listItems<NamespaceRow>(store, COLLECTIONS.namespaces, {
        page: 0,
        size: RECENT_NAMESPACES,
        sort: [{ property: 'created', column: 'created', direction: 'desc' }],
      }),
    ]);
    return { namespaceCount: namespaces.totalElements, resourceCount: resources.totalElements, recent: recent.items };
  }

  /** The namespace whose prefix is this one whatever its case, with what its page shows; undefined if none. */
  async namespacePage(prefix: string): Promise<NamespacePageData | undefined> {
    const store = await this.store();
    const records = await this.records.get(store.version, prefix.toLowerCase(), () => this.readRecords(store, prefix));
    if (!records) return undefined;
    const [usage, health] = await Promise.all([this.usageOf(records.namespace.prefix), this.healthOf(records)]);
    const { entry, ...shown } = records;
    return {
      ...shown,
      resources: records.resources.map((r) => ({ ...r, health: health.states.get(r.id) ?? null })),
      usage,
      route: sampleRouteOf(entry, health.measurements),
    };
  }

  private async readRecords(store: RestApiStore, prefix: string): Promise<NamespaceRecords | null> {
    const found = await findNamespaceByPrefixIgnoringCase(store.db, prefix);
    if (!found) return null;
    const [namespace, successor, resources, [entry]] = await Promise.all([
      getItem<NamespaceRow>(store, COLLECTIONS.namespaces, String(found.id)),
      findNamespaceSuccessor(store.db, found.id),
      selectResourcesWithInstitution(store.db).where('r.namespaceId', found.id).orderBy('r.id'),
      readNamespaceEntries(store.db, [found.id]),
    ]);
    await completeNamespaceRows(store.db, [namespace]);
    if (!entry) return null;
    return { namespace, successor: successor ? { prefix: successor.prefix, name: successor.name } : null, resources, entry };
  }

  /** The prefix of the namespace `name` is a synonym of (issue 15 item 1), whatever its case; undefined if none. */
  async prefixOfSynonym(name: string): Promise<string | undefined> {
    if (name.length > MAX_SYNONYM_LENGTH) return undefined;
    return (await findNamespaceBySynonym((await this.store()).db, name))?.prefix;
  }

  private async usageOf(prefix: string): Promise<MonthlyVisits[] | null> {
    const cached = this.usage.get(prefix);
    if (cached) return cached.figures;
    const now = this.now();
    // Without Redis the page still renders, with the chart left out.
    const figures = await this.deps.statistics
      .visitsPerMonth(prefix, lastMonths(now, MONTHS_OF_USAGE), now.toISOString().slice(0, 10))
      .catch(() => null);
    this.usage.set(prefix, { figures });
    return figures;
  }

  /**
   * Each resource's latest check, of its sample URL when there is one, else of its home page; and the
   * measurements the resolver ranks the resources by.
   */
  private async healthOf(records: NamespaceRecords): Promise<LiveHealth> {
    const key = records.namespace.prefix;
    const cached = this.health.get(key);
    if (cached) return cached;
    const found = records.resources.length === 0 ? undefined : await this.deps.health.namespaceHealth(key);
    const live: LiveHealth = { states: new Map(), measurements: new Map() };
    for (const resource of found?.resources ?? []) {
      if (resource.measurement) live.measurements.set(resource.resourceId, resource.measurement);
      const latest = resource.latest.sample ?? resource.latest.home;
      if (!latest) continue;
      const { urlKind, outcome, httpStatus, checkedAt } = latest;
      live.states.set(resource.resourceId, { urlKind, outcome, httpStatus, checkedAt, reliability: reliabilityOf(resource.measurement) });
    }
    this.health.set(key, live);
    return live;
  }

  /** Up to five prefixes close to one no namespace has: those starting with it, then the nearest by edits. */
  async nearestPrefixes(asked: string): Promise<string[]> {
    const version = await this.deps.versions.read();
    const all = await this.prefixes.get(version, 'all', async () => (await this.deps.db('namespaces').select('prefix')).map((row) => row.prefix));
    return closestPrefixes(asked, all);
  }
}
