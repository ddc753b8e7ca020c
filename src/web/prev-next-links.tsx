/** The previous and next page links of a paged list (search results, the desk's open requests), as a list. */
export function PrevNextLinks({ page, pages, href }: { page: number; pages: number; href: (page: number) => string }) {
  return (
    <ul>
      {page > 0 ? (
        <li>
          <a href={href(page - 1)} rel="prev">
            Previous page
          </a>
        </li>
      ) : null}
      {page + 1 < pages ? (
        <li>
          <a href={href(page + 1)} rel="next">
            Next page
          </a>
        </li>
      ) : null}
    </ul>
  );
}

/** A paged list's navigation: where the reader is, and the previous and next pages; nothing for one page. */
export function PageNavigation({ label, page, pages, href }: { label: string; page: number; pages: number; href: (page: number) => string }) {
  if (pages <= 1) return null;
  return (
    <nav class="pages" aria-label={label}>
      <p>
        Page {page + 1} of {pages}
      </p>
      <PrevNextLinks page={page} pages={pages} href={href} />
    </nav>
  );
}
