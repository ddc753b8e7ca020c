import { Layout } from '../../web/layout.js';
import type { Site } from '../../web/site.js';
import type { HomeData } from './registry-pages.service.js';
import { namespaceHref, SEARCH_SCRIPTS, SearchBox } from '../../web/search-box.js';

/** `/` for browsers: the three boxes (resolve, reverse, search), the registry's size, the latest namespaces. */
export function HomePage({ site, home }: { site: Site; home: HomeData }) {
  return (
    <Layout site={site} title="Home" section="home" scripts={SEARCH_SCRIPTS}>
      <h1>Compact Identifier Registry</h1>
      <p>
        Resolve compact identifiers such as <code>taxonomy:9606</code> to the pages of their providers, find a
        namespace, or turn a provider's address back into a compact identifier.
      </p>
      <div class="cards">
        <section aria-labelledby="resolve-heading">
          <h2 id="resolve-heading">Resolve</h2>
          <form class="box" action="/resolve" method="get">
            <div class="field">
              <label for="resolve-id">Compact identifier</label>
              <span class="hint" id="resolve-hint">
                prefix:accession, e.g. GO:0006915
              </span>
              <input type="text" id="resolve-id" name="id" required aria-describedby="resolve-hint" />
            </div>
            <button type="submit">Resolve</button>
          </form>
        </section>
        <section aria-labelledby="reverse-heading">
          <h2 id="reverse-heading">Find the identifier of a URL</h2>
          <form class="box" action="/reverse-lookup" method="get">
            <div class="field">
              <label for="reverse-url">Provider address</label>
              <span class="hint" id="reverse-hint">
                A page of a provider, e.g. https://www.ebi.ac.uk/QuickGO/term/GO:0006915
              </span>
              <input type="url" id="reverse-url" name="url" required aria-describedby="reverse-hint" />
            </div>
            <button type="submit">Look up</button>
          </form>
        </section>
      </div>
      <section aria-labelledby="search-heading">
        <h2 id="search-heading">Search</h2>
        <SearchBox id="home-search" />
        <p>
          <a href="/embed">Put a search box on your own site</a>
        </p>
      </section>
      <section aria-labelledby="size-heading">
        <h2 id="size-heading">The registry</h2>
        <div class="stats">
          <p>
            <strong>{home.namespaceCount}</strong> namespaces
          </p>
          <p>
            <strong>{home.resourceCount}</strong> resources (providers)
          </p>
        </div>
        <h3>Recently added namespaces</h3>
        <ul>
          {home.recent.map((ns) => (
            <li key={ns.id}>
              <a href={namespaceHref(ns.prefix)}>{ns.name}</a> <code>{ns.prefix}</code>{' '}
              <span class="muted">{ns.created.toISOString().slice(0, 10)}</span>
            </li>
          ))}
        </ul>
      </section>
    </Layout>
  );
}
