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
