import { formatReferenceDate } from '../../lib/dates.js';
import { COLLECTIONS, type CollectionDefinition, type CollectionName } from './collections.js';
import type { Page } from './page-query.js';
import type { GivenParam, PageRequest } from './paging.js';
import type { PersonRow } from './rows.js';

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

  /** An item of a browsable collection: its fields in the collection's order, then its links (self, associations). */
  item<Column extends string>(collection: CollectionDefinition<Column>, row: Readonly<Record<Column, unknown>>): HalItem {
    const path = `${this.api}/${collection.name}/${encodeURIComponent(String(row[collection.key.column]))}`;
    const links: Links = { self: { href: path }, [collection.itemRel]: { href: path } };
    for (const rel of collection.associations) links[rel] = { href: `${path}/${rel}` };
    return Object.assign(collection.itemRecord.present(row), { _links: links });
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
      _links: { self: { href: path }, person: { href: path } },
    };
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
