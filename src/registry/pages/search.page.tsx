import { Layout } from '../../web/layout.js';
import { PrevNextLinks } from '../../web/prev-next-links.js';
import type { Site } from '../../web/site.js';
import type { SearchResult } from '../model/namespace-search.service.js';
import { namespaceHref, SEARCH_SCRIPTS, SearchBox } from '../../web/search-box.js';

/** The page sizes a reader may choose (the reference's browse offers the same), and the one by default. */
export const SEARCH_PAGE_SIZES = [5, 20, 50, 100] as const;
export const SEARCH_PAGE_SIZE = 20;

/**
 * `?size=` as the page takes it: an offered size as it is, another number as the largest offered size not
 * above it (at least the smallest), anything else (absent, not a number) the default.
 */
export function pageSizeOf(raw: string | undefined): number {
  if (raw === undefined || !/^\d{1,9}$/.test(raw)) return SEARCH_PAGE_SIZE;
  const asked = Number(raw);
  return SEARCH_PAGE_SIZES.findLast((size) => size <= asked) ?? SEARCH_PAGE_SIZES[0];
}

function pageHref(text: string, page: number, size: number): string {
  const params = new URLSearchParams();
  if (text) params.set('q', text);
  if (size !== SEARCH_PAGE_SIZE) params.set('size', String(size));
  if (page > 0) params.set('page', String(page));
  const query = params.toString();
  return query ? `/registry?${query}` : '/registry';
}

/** The page size chooser: a GET form of its own (a change starts again at the first page), useful without script. */
function PageSizeChooser({ text, size }: { text: string; size: number }) {
  return (
    <form class="page-size" action="/registry" method="get">
      {text ? <input type="hidden" name="q" value={text} /> : null}
      <label for="page-size">Namespaces per page</label>{' '}
      <select id="page-size" name="size">
        {SEARCH_PAGE_SIZES.map((option) => (
          <option key={option} value={String(option)} selected={option === size}>
            {option}
          </option>
        ))}
      </select>{' '}
      <button type="submit" class="secondary">
        Show
      </button>
    </form>
  );
}

/** A description cut at a word boundary: the list shows the start, the namespace page the whole. */
function shorten(text: string, max = 240): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max - 40))}…`;
}

/** `/registry?q=&page=`: the search (or, without text, the whole registry by prefix), paged. */
export function SearchPage({ site, result }: { site: Site; result: SearchResult }) {
  const page = Math.floor(result.offset / result.limit);
  const pages = Math.max(1, Math.ceil(result.total / result.limit));
  const heading = result.text ? `Namespaces matching “${result.text}”` : 'All namespaces';
  const first = result.total === 0 ? 0 : result.offset + 1;
  const last = result.offset + result.hits.length;
  return (
    <Layout site={site} title={result.text ? `Search: ${result.text}` : 'Browse the registry'} section="browse" scripts={SEARCH_SCRIPTS}>
      <h1>{heading}</h1>
      <SearchBox id="registry-search" value={result.text} pageSize={result.limit === SEARCH_PAGE_SIZE ? undefined : result.limit} />
      <p role="status">
        {result.total === 0
          ? 'No namespace matches.'
          : `${first}–${last} of ${result.total} namespace${result.total === 1 ? '' : 's'}${pages > 1 ? `, page ${page + 1} of ${pages}` : ''}.`}
      </p>
      <ol class="results" start={first || undefined}>
        {result.hits.map((hit) => (
          <li key={hit.id}>
            <a href={namespaceHref(hit.prefix)}>{hit.name}</a> <code>{hit.prefix}</code>
            {hit.deprecated ? <span class="badge deprecated">deprecated</span> : null}
            <p class="muted">{shorten(hit.description)}</p>
          </li>
        ))}
      </ol>
      {pages > 1 ? (
        <nav class="pages" aria-label="Result pages">
          <PrevNextLinks page={page} pages={pages} href={(n) => pageHref(result.text, n, result.limit)} />
        </nav>
      ) : null}
      {result.total > SEARCH_PAGE_SIZES[0] ? <PageSizeChooser text={result.text} size={result.limit} /> : null}
    </Layout>
  );
}
