import { Layout } from '../../web/layout.js';
import type { Site } from '../../web/site.js';
import { namespaceHref, SEARCH_SCRIPTS, SearchBox } from '../../web/search-box.js';

/** `/registry/{prefix}` for a prefix no namespace has: the prefixes close to it, and the search box. */
export function UnknownNamespacePage({ site, prefix, suggestions }: { site: Site; prefix: string; suggestions: string[] }) {
  return (
    <Layout site={site} title="Namespace not found" section="browse" scripts={SEARCH_SCRIPTS}>
      <h1>No namespace “{prefix}”</h1>
      <p>The registry has no namespace with this prefix.</p>
      {suggestions.length > 0 ? (
        <>
          <h2>Did you mean</h2>
          <ul class="suggested">
            {suggestions.map((s) => (
              <li key={s}>
                <a href={namespaceHref(s)}>{s}</a>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <SearchBox id="notfound-search" value={prefix} />
    </Layout>
  );
}
