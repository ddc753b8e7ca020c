import { formatReferenceDate } from '../../lib/dates.js';
import { COLLECTIONS, type CollectionDefinition, type CollectionName } from './collections.js';
import type { CurationWarning } from './curation-warnings.service.js';
import type { Page } from './page-query.js';
import type { GivenParam, PageRequest } from './paging.js';
import type { InstitutionRow, LocationRow, NamespaceRow, PersonRow, ResourceRow } from './rows.js';


export interface Link {
  href: string;
  templated?: true;
}

export type Links = Record<string, Link>;

export interface HalItem {
  [field: string]: unknown;
  _links: Links;
}

const PAGING_TEMPLATE = ['page', 'size', 'sort'];

/**
 * Spring Data REST's HAL shapes for the four browsable collections: items with their fields in the
 * reference's (Java field) order and association links, pages, lists, the API root and search indexes.
 * Every href is absolute, built on the configured public registry URL (never the Host header).
 */
export class HalPresenter {
  readonly api: string;

  constructor(publicRegistryUrl: string) {
    this.api = `${publicRegistryUrl}/restApi`;
  }

  private links(path: string, rels: Record<string, string>): Links {
    const links: Links = {};
    for (const [rel, suffix] of Object.entries(rels)) links[rel] = { href: `${path}${suffix}` };
    return links;
  }

  namespace(ns: NamespaceRow): HalItem {
    const path = `${this.api}/namespaces/${ns.id}`;
    return {
      prefix: ns.prefix,
      mirId: ns.mirId,
      name: ns.name,
      pattern: ns.pattern,
      description: ns.description,
      created: formatReferenceDate(ns.created),
      modified: formatReferenceDate(ns.modified),
      deprecated: ns.deprecated,
      deprecationDate: formatReferenceDate(ns.deprecationDate),
      deprecationOfflineDate: formatReferenceDate(ns.deprecationOfflineDate),
      renderDeprecatedLanding: ns.renderDeprecatedLanding,
      deprecationStatement: ns.deprecationStatement,
      infoOnPostmortemAccess: ns.infoOnPostmortemAccess,
      sampleId: ns.sampleId,
      namespaceEmbeddedInLui: ns.namespaceEmbeddedInLui,
      _links: this.links(path, {
        self: '',
        namespace: '',
        successor: '/successor',
        contactPerson: '/contactPerson',
        resources: '/resources',
        curationWarnings: '/curationWarnings',
      }),
    };
  }

  resource(r: ResourceRow): HalItem {
    const path = `${this.api}/resources/${r.id}`;
    return {
      mirId: r.mirId,
      urlPattern: r.urlPattern,
      name: r.name,
      description: r.description,
      official: r.official,
      providerCode: r.providerCode,
      sampleId: r.sampleId,
      resourceHomeUrl: r.resourceHomeUrl,
      created: formatReferenceDate(r.created),
      modified: formatReferenceDate(r.modified),
      deprecated: r.deprecated,
      deprecationDate: formatReferenceDate(r.deprecationDate),
      deprecationOfflineDate: formatReferenceDate(r.deprecationOfflineDate),
      renderDeprecatedLanding: r.renderDeprecatedLanding,
      deprecationStatement: r.deprecationStatement,
      protectedUrls: r.protectedUrls,
      renderProtectedLanding: r.renderProtectedLanding,
      authHelpUrl: r.authHelpUrl,
      authHelpDescription: r.authHelpDescription,
      _links: this.links(path, {
        self: '',
        resource: '',
        institution: '/institution',
        location: '/location',
        namespace: '/namespace',
        contactPerson: '/contactPerson',
        curationWarnings: '/curationWarnings',
      }),
    };
  }

  institution(i: InstitutionRow): HalItem {
    const path = `${this.api}/institutions/${i.id}`;
    return {
      id: i.id,
      name: i.name,
      homeUrl: i.homeUrl,
      description: i.description,
      created: formatReferenceDate(i.created),
      modified: formatReferenceDate(i.modified),
      rorId: i.rorId,
      _links: this.links(path, {
        self: '',
        institution: '',
        location: '/location',
        resource: '/resource',
        curationWarnings: '/curationWarnings',
      }),
    };
  }

  /** The reference leaves countryCode out (it is the id); clients asked for it, so it leads here. */
  location(l: LocationRow): HalItem {
    const path = `${this.api}/locations/${encodeURIComponent(l.countryCode)}`;
    return {
      countryCode: l.countryCode,
      countryName: l.countryName,
      created: formatReferenceDate(l.created),
      _links: this.links(path, { self: '', location: '' }),
    };
  }

  /**
   * The reference's Person (`email, fullName, created, modified`). Its e-mail address and name are personal
   * data: only curators see them (the reference let no one else read persons at all); anyone else gets the
   * dates and links, so that a HAL client following contactPerson still finds an item.
   */
  person(p: PersonRow, view: { personal: boolean }): HalItem {
    const path = `${this.api}/persons/${p.id}`;
    const personal = view.personal ? { email: p.email, fullName: p.fullName } : {};
    return {
      ...personal,
      created: formatReferenceDate(p.created),
      modified: formatReferenceDate(p.modified),
      _links: this.links(path, { self: '', person: '' }),
    };
  }

  /**
   * The reference's CurationWarning item: `globalId, type, open, created, modified, lastNotification`, the
   * computed `latestEvent` and `moreDetails`, and a `target` link. Warnings computed on request have no
   * stored id, so no `self` or `events` link.
   */
  curationWarning(w: CurationWarning): HalItem {
    return {
      globalId: w.globalId,
      type: w.type,
      open: w.open,
      created: formatReferenceDate(w.created),
      modified: formatReferenceDate(w.modified),
      lastNotification: formatReferenceDate(w.lastNotification),
      latestEvent: { type: w.latestEvent.type, created: formatReferenceDate(w.latestEvent.created) },
      moreDetails: w.moreDetails,
      _links: { target: { href: `${this.api}${w.targetPath}` } },
    };
  }

  /**
   * An item's curation warnings, a to-many association whose items the reference files under the rel
   * `curationWarnings` (the rel key stays even when the list is empty, as Spring Data REST answers it).
   */
  curationWarnings(warnings: readonly CurationWarning[], selfHref: string): { _embedded: { curationWarnings: HalItem[] }; _links: Links } {
    return { _embedded: { curationWarnings: warnings.map((w) => this.curationWarning(w)) }, _links: { self: { href: selfHref } } };
  }

  /**
   * A page as Spring HATEOAS' PagedResourcesAssembler builds it: first/last when there is somewhere to
   * navigate, prev/next when those pages exist, self = the URL as requested; page links repeat the
   * search's parameters, page, size and the sort that was applied. Collection roots add profile and search.
   */
  page<T>(
    collection: CollectionName,
    page: Page<T>,
    present: (item: T) => HalItem,
    where: { path: string; selfHref: string; searchParams?: GivenParam[] },
  ): { _embedded: Record<string, HalItem[]>; _links: Links; page: Record<string, number> } {
    const { request, totalElements } = page;
    const totalPages = Math.ceil(totalElements / request.size);
    const hasPrevious = request.page > 0;
    const hasNext = request.page + 1 < totalPages;
    const pageHref = (number: number) => `${this.api}${where.path}?${pageQuery(where.searchParams ?? [], number, request)}`;
    const links: Links = {};
    if (hasPrevious || hasNext) links.first = { href: pageHref(0) };
    if (hasPrevious) links.prev = { href: pageHref(request.page - 1) };
    links.self = { href: where.selfHref };
    if (hasNext) links.next = { href: pageHref(request.page + 1) };
    if (hasPrevious || hasNext) links.last = { href: pageHref(Math.max(totalPages - 1, 0)) };
    if (where.path === `/${collection}`) {
      links.profile = { href: `${this.api}/profile/${collection}` };
      links.search = { href: `${this.api}/${collection}/search` };
    }
    return {
      _embedded: { [collection]: page.items.map(present) },
      _links: links,
      page: { size: request.size, totalElements, totalPages, number: request.page },
    };
  }

  /** A non-paged result (the reference's List searches and to-many associations): _embedded and self only. */
  list<T>(collection: CollectionName, items: T[], present: (item: T) => HalItem, selfHref: string) {
    return { _embedded: { [collection]: items.map(present) }, _links: { self: { href: selfHref } } };
  }

  root(): { _links: Links } {
    const links: Links = {};
    for (const name of Object.keys(COLLECTIONS)) {
      links[name] = { href: `${this.api}/${name}{?${PAGING_TEMPLATE.join(',')}}`, templated: true };
    }
    links.profile = { href: `${this.api}/profile` };
    return { _links: links };
  }

  searchIndex(collection: CollectionDefinition): { _links: Links } {
    const links: Links = {};
    for (const search of collection.searches) {
      const params = search.result === 'page' ? [...search.params, ...PAGING_TEMPLATE] : search.params;
      const template = params.length > 0 ? `{?${params.join(',')}}` : '';
      links[search.name] = { href: `${this.api}/${collection.name}/search/${search.name}${template}`, templated: true };
    }
    links.self = { href: `${this.api}/${collection.name}/search` };
    return { _links: links };
  }
}

// Commas stay readable in sort values (`sort=name,asc`), as in the reference's links.
function pageQuery(searchParams: GivenParam[], number: number, request: PageRequest): string {
  const parts = searchParams.map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(p.value)}`);
  parts.push(`page=${number}`, `size=${request.size}`);
  for (const order of request.sort) parts.push(`sort=${encodeURIComponent(order.property)},${order.direction}`);
  return parts.join('&');
}
