import { Layout } from '../web/layout.js';
import { registryHref, resolverHref, type Site } from '../web/site.js';

/** The resolver's `/` for a browser: what this address does, and where the registry, the docs and the API are. */
export function ResolverHomePage({ site, example }: { site: Site; example: string | null }) {
  const registryHome = registryHref(site, '/');
  return (
    <Layout site={site} title="Resolver">
      <h1>Compact identifier resolver</h1>
      <p>
        This address takes a compact identifier to a page about it at one of its providers
        {example ? (
          <>
            :{' '}
            <a href={resolverHref(site, example)}>
              <code>{resolverHref(site, example)}</code>
            </a>
          </>
        ) : null}
        . A program asking for JSON gets every provider instead, ranked.
      </p>
      <ul>
        <li>
          <a href={registryHome}>The registry</a>: find a namespace, its identifiers and its providers, or resolve an identifier from its
          home page.
        </li>
        <li>
          <a href="/docs">The resolver’s API documentation</a>: resolution, reverse lookup (a provider’s address to its compact
          identifier) and batches, to read and try.
        </li>
        <li>
          <a href="/openapi.json">The API’s OpenAPI document</a>, for programs.
        </li>
      </ul>
    </Layout>
  );
}
