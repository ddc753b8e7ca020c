/**
 * The registry search form: a GET to /registry (at `base`, the registry's public URL, on another origin's
 * page), which the suggestions script enhances. `pageSize`: the page size the reader chose on the search
 * page, kept for the next search.
 */
export function SearchBox({
  id,
  value = '',
  label = 'Search the registry',
  base = '',
  pageSize,
}: {
  id: string;
  value?: string;
  label?: string;
  base?: string;
  pageSize?: number;
}) {
  return (
    <form class="box" action={`${base}/registry`} method="get" role="search">
      {pageSize !== undefined ? <input type="hidden" name="size" value={String(pageSize)} /> : null}
      <div class="field">
        <label for={id}>{label}</label>
        <span class="hint" id={`${id}-hint`}>
          A prefix (taxonomy), a name or words of a description
        </span>
        <input type="search" id={id} name="q" value={value} data-suggest="" aria-describedby={`${id}-hint`} />
      </div>
      <button type="submit">Search</button>
    </form>
  );
}

/** A namespace's page, by prefix. */
export function namespaceHref(prefix: string): string {
  return `/registry/${encodeURIComponent(prefix)}`;
}

/** The scripts of the pages with a search box. */
export const SEARCH_SCRIPTS = ['search-suggest.js'] as const;
