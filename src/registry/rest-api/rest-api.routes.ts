import { Router } from '@koa/router';
import type { Context } from 'koa';
import { notFound } from '../../http/http-error.js';
import { mapInSlices } from '../../lib/loop-turns.js';
import { COLLECTIONS, isCollectionName, sortWhitelist, type CollectionDefinition, type CollectionName, type Columns } from '../model/collections.js';
import { HalPresenter, type HalItem } from '../model/hal.presenter.js';
import * as institutions from './institutions.service.js';
import { findItem, getItem, listItems } from '../model/items.service.js';
import { completeNamespaceRows, type NamespaceItemRow } from '../model/namespace-synonyms.js';
import * as namespaces from './namespaces.service.js';
import type { Page, RestApiData, RestApiStore } from '../model/page-query.js';
import { parsePageRequest, requireParam, type GivenParam, type PageRequest } from '../model/paging.js';
import { presentProfile, presentProfileIndex } from './profile.presenter.js';
import { quote } from '../model/query-values.js';
import * as resources from './resources.service.js';
import type { RegistryVersion, RegistryVersionSource } from '../model/registry-version.js';
import { answerFromCache, markSelfAsRequestUrl, ResponseCache } from './response-cache.js';
import type { InstitutionRow, LocationRow, NamespaceRow, ResourceRow } from '../model/rows.js';

const HAL_JSON = 'application/hal+json';
// Rows presented at a time: about a millisecond of work.
const ITEMS_PER_SLICE = 100;
const presented = (item: HalItem): HalItem => item;

export interface RestApiDeps {
  /** The services' database and their caches of counts and key lists. */
  data: RestApiData;
  publicRegistryUrl: string;
  /**
   * What the caches key by; a source that does not listen for changes keeps cached values a few seconds at
   * most (see registry-version.ts).
   */
  versions: RegistryVersionSource;
  /** The cache of whole answers per request (one per router unless given). */
  answers?: ResponseCache;
  /** REGISTRY_CACHE_MAX_MB in bytes: the bound of the answer cache made here when `answers` is not given. */
  answerCacheBytes?: number;
}

/**
 * `/restApi`: the Spring Data REST browse and search API of the reference for namespaces, resources,
 * institutions and locations (reads; the curators' writes are in maintenance/, the items' curationWarnings
 * in curation-warnings/). Handlers read the query, call one service function and hand the result to the
 * HAL presenter.
 */
export function restApiRoutes(deps: RestApiDeps): Router {
  const { versions } = deps;
  const hal = new HalPresenter(deps.publicRegistryUrl);
  const whitelists = {
    namespaces: sortWhitelist(COLLECTIONS.namespaces),
    resources: sortWhitelist(COLLECTIONS.resources),
    institutions: sortWhitelist(COLLECTIONS.institutions),
    locations: sortWhitelist(COLLECTIONS.locations),
  };
  const router = new Router({ prefix: '/restApi' });
  const requestHref = (ctx: Context) => `${deps.publicRegistryUrl}${ctx.path}${ctx.querystring ? `?${ctx.querystring}` : ''}`;
  const answers = deps.answers ?? new ResponseCache({ maxBytes: deps.answerCacheBytes, ttlMs: versions.maxAgeMs });
  router.use(answerFromCache(versions, answers, requestHref));

  // Pages and lists give the request URL as self; the answer cache writes each request's own into a shared answer.
  const selfHref = (ctx: Context) => {
    const href = requestHref(ctx);
    markSelfAsRequestUrl(ctx, href);
    return href;
  };
  const pageOf = (ctx: Context, collection: CollectionName): PageRequest => parsePageRequest(ctx.query, whitelists[collection]);
  const param = (ctx: Context, ...names: [string, ...string[]]): GivenParam => requireParam(ctx.query, names);
  const id = (ctx: Context): string => ctx.params.id ?? '';
  // The registry version answerFromCache read for this request (it runs before every route of this router).
  const store = (ctx: Context): RestApiStore => deps.data.storeAt(ctx.state.registryVersion as RegistryVersion);

  function send(ctx: Context, body: unknown, lastModified?: Date): void {
    ctx.type = HAL_JSON;
    if (lastModified) ctx.lastModified = lastModified;
    // A bare boolean (existsNamespaceByPrefix) goes out as its JSON text, so that every body is a string or object.
    ctx.body = typeof body === 'boolean' ? JSON.stringify(body) : body;
  }
  /**
   * `search` names the paged search and the parameters its page links repeat; none for the collection root.
   * Items are presented a slice at a time (loop-turns.ts): a page of 1,000 is tens of milliseconds of work.
   */
  async function sendPage<T>(
    ctx: Context,
    collection: CollectionName,
    page: Page<T>,
    present: (row: T) => HalItem,
    search?: { name: string; params: GivenParam[] },
  ): Promise<void> {
    const path = search ? `/${collection}/search/${search.name}` : `/${collection}`;
    const items = await mapInSlices(page.items, present, ITEMS_PER_SLICE);
    send(ctx, hal.page(collection, { ...page, items }, presented, { path, selfHref: selfHref(ctx), searchParams: search?.params }));
  }
  async function sendList<T>(ctx: Context, collection: CollectionName, rows: T[], present: (row: T) => HalItem): Promise<void> {
    const items = await mapInSlices(rows, present, ITEMS_PER_SLICE);
    send(ctx, hal.list(collection, items, presented, selfHref(ctx)));
  }

  router.get('/', (ctx) => send(ctx, hal.root()));
  router.get('/profile', (ctx) => send(ctx, presentProfileIndex(hal.api)));
  router.get('/profile/:collection', (ctx, next) => {
    const name = ctx.params.collection ?? '';
    if (!isCollectionName(name)) return next();
    ctx.type = 'application/alps+json';
    ctx.body = presentProfile(hal.api, COLLECTIONS[name]);
  });

  /**
   * What every collection answers alike, ahead of its own routes (`search` is not an item's key): its pages,
   * its search index, its `item` searches (each compares its one parameter with the column of that name)
   * and an item by its key. Returns the collection's item presenter.
   */
  function serveCollection<Row extends object>(
    collection: CollectionDefinition<Columns<Row>>,
    complete: (ctx: Context, rows: Row[]) => Promise<void> = async () => {},
  ): (row: Row) => HalItem {
    const { name } = collection;
    const present = (row: Row) => hal.item(collection, row);
    router.get(`/${name}`, async (ctx) => {
      const page = await listItems<Row>(store(ctx), collection, pageOf(ctx, name));
      await complete(ctx, page.items);
      await sendPage(ctx, name, page, present);
    });
    router.get(`/${name}/search`, (ctx) => send(ctx, hal.searchIndex(collection)));
    for (const search of collection.searches) {
      const [column] = search.params;
      if (search.result !== 'item' || column === undefined) continue;
      router.get(`/${name}/search/${search.name}`, async (ctx) => {
        const row = await findItem<Row>(store(ctx), collection, column, param(ctx, column).value);
        await complete(ctx, [row]);
        send(ctx, present(row));
      });
    }
    router.get(`/${name}/:id`, async (ctx) => {
      const row = await getItem<Row>(store(ctx), collection, id(ctx));
      await complete(ctx, [row]);
      send(ctx, present(row), 'modified' in row && row.modified instanceof Date ? row.modified : undefined);
    });
    return present;
  }

  // Namespace items carry their synonyms, which are no column (namespace-synonyms.ts).
  const withSynonyms = async <T extends NamespaceItemRow>(ctx: Context, rows: T[]): Promise<T[]> => {
    await completeNamespaceRows(store(ctx).db, rows);
    return rows;
  };
  const withSynonymsOnPage = async (ctx: Context, page: Page<NamespaceRow>): Promise<Page<NamespaceRow>> => {
    await withSynonyms(ctx, page.items);
    return page;
  };
  const ns = serveCollection<NamespaceRow>(COLLECTIONS.namespaces, async (ctx, rows) => void (await withSynonyms(ctx, rows)));
  const res = serveCollection<ResourceRow>(COLLECTIONS.resources);
  const inst = serveCollection<InstitutionRow>(COLLECTIONS.institutions);
  const loc = serveCollection<LocationRow>(COLLECTIONS.locations);

  // Namespaces
  router.get('/namespaces/search/existsNamespaceByPrefix', async (ctx) => {
    send(ctx, await namespaces.namespaceExistsByPrefix(store(ctx), param(ctx, 'prefix').value));
  });
  router.get('/namespaces/search/findByPrefixStartsWith', async (ctx) => {
    const given = param(ctx, 'prefixStart');
    const page = await withSynonymsOnPage(ctx, await namespaces.findNamespacesByPrefixStartingWith(store(ctx), given.value, pageOf(ctx, 'namespaces')));
    await sendPage(ctx, 'namespaces', page, ns, { name: 'findByPrefixStartsWith', params: [given] });
  });
  router.get('/namespaces/search/findByPrefixStartsWithNumbers', async (ctx) => {
    const page = await withSynonymsOnPage(ctx, await namespaces.findNamespacesByPrefixStartingWithNumbers(store(ctx), pageOf(ctx, 'namespaces')));
    await sendPage(ctx, 'namespaces', page, ns, { name: 'findByPrefixStartsWithNumbers', params: [] });
  });
  router.get('/namespaces/search/findByPrefixContaining', async (ctx) => {
    const given = param(ctx, 'content');
    const page = await withSynonymsOnPage(ctx, await namespaces.findNamespacesByPrefixContaining(store(ctx), given.value, pageOf(ctx, 'namespaces')));
    await sendPage(ctx, 'namespaces', page, ns, { name: 'findByPrefixContaining', params: [given] });
  });
  router.get('/namespaces/:id/successor', async (ctx) => {
    const [row] = await withSynonyms(ctx, [await namespaces.getNamespaceSuccessor(store(ctx), id(ctx))]);
    send(ctx, ns(row!));
  });
  router.get('/namespaces/:id/resources', async (ctx) => {
    await sendList(ctx, 'resources', await namespaces.listNamespaceResources(store(ctx), id(ctx)), res);
  });

  // Resources
  router.get('/resources/search/findAllByNamespaceId', async (ctx) => {
    await sendList(ctx, 'resources', await resources.findAllResourcesByNamespaceId(store(ctx), param(ctx, 'id').value), res);
  });
  router.get('/resources/search/findAllByInstitutionId', async (ctx) => {
    await sendList(ctx, 'resources', await resources.findAllResourcesByInstitutionId(store(ctx), param(ctx, 'id').value), res);
  });
  router.get('/resources/search/findByNamespaceIdAndProviderCode', async (ctx) => {
    // The reference's parameter is namespaceId; the published interface also writes it as id.
    const namespaceId = param(ctx, 'namespaceId', 'id').value;
    const rows = await resources.findResourcesByNamespaceIdAndProviderCode(store(ctx), namespaceId, param(ctx, 'providerCode').value);
    await sendList(ctx, 'resources', rows, res);
  });
  router.get('/resources/search/findByProviderCode', async (ctx) => {
    const given = param(ctx, 'providerCode');
    const page = await resources.findResourcesByProviderCode(store(ctx), given.value, pageOf(ctx, 'resources'));
    await sendPage(ctx, 'resources', page, res, { name: 'findByProviderCode', params: [given] });
  });
  router.get('/resources/:id/namespace', async (ctx) => {
    const [row] = await withSynonyms(ctx, [await resources.getResourceNamespace(store(ctx), id(ctx))]);
    send(ctx, ns(row!));
  });
  router.get('/resources/:id/institution', async (ctx) => send(ctx, inst(await resources.getResourceInstitution(store(ctx), id(ctx)))));
  router.get('/resources/:id/location', async (ctx) => send(ctx, loc(await resources.getResourceLocation(store(ctx), id(ctx)))));

  // Institutions
  router.get('/institutions/search/findByNameContaining', async (ctx) => {
    // The reference's parameter is nameContent; the published interface also lists it as name.
    const given = param(ctx, 'nameContent', 'name');
    const page = await institutions.findInstitutionsByNameContaining(store(ctx), given.value, pageOf(ctx, 'institutions'));
    await sendPage(ctx, 'institutions', page, inst, { name: 'findByNameContaining', params: [given] });
  });
  router.get('/institutions/search/findByNameContainingIgnoreCase', async (ctx) => {
    const given = param(ctx, 'nameContent', 'name');
    const page = await institutions.findInstitutionsByNameContainingIgnoringCase(store(ctx), given.value, pageOf(ctx, 'institutions'));
    await sendPage(ctx, 'institutions', page, inst, { name: 'findByNameContainingIgnoreCase', params: [given] });
  });
  router.get('/institutions/search/findByLocationCountryCode', async (ctx) => {
    const given = param(ctx, 'countryCode');
    const page = await institutions.findInstitutionsByLocationCountryCode(store(ctx), given.value, pageOf(ctx, 'institutions'));
    await sendPage(ctx, 'institutions', page, inst, { name: 'findByLocationCountryCode', params: [given] });
  });
  router.get('/institutions/:id/location', async (ctx) => send(ctx, loc(await institutions.getInstitutionLocation(store(ctx), id(ctx)))));
  router.get('/institutions/:id/resource', async (ctx) => institutions.getInstitutionResource(store(ctx), id(ctx)));

  // Routes above answer every known search; anything else under a collection's search is unknown.
  router.get('/:collection/search/:name', (ctx, next) => {
    const collection = ctx.params.collection ?? '';
    if (!isCollectionName(collection)) return next();
    throw notFound(`No search ${quote(ctx.params.name ?? '')} on ${collection}; see ${hal.api}/${collection}/search`);
  });

  return router;
}
