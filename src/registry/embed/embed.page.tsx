import { createElement } from 'preact';
import { Layout } from '../../web/layout.js';
import type { Site } from '../../web/site.js';
import { EMBED_SCRIPT_PATH } from './embed-script.js';

/** `/embed`: the search box at work, and the lines another site adds to have it. */
export function EmbedPage({ site, scriptUrl, size }: { site: Site; scriptUrl: string; size: number }) {
  const snippet = [
    `<script src="${site.publicRegistryUrl}${EMBED_SCRIPT_PATH}" defer></script>`,
    `<curie-search resolver="${site.publicResolverUrl}"></curie-search>`,
  ].join('\n');
  return (
    <Layout site={site} title="Embed the search box" description="Put the registry's search and resolve box on your own site: one script, one element.">
      <h1>Embed the search box</h1>
      <p>
        Put the registry's search box on your own pages. It suggests namespaces as one types; Enter on a compact
        identifier such as <code>taxonomy:9606</code> opens it at the resolver, Enter on other words the registry's
        search.
      </p>
      <section aria-labelledby="try-heading">
        <h2 id="try-heading">Try it</h2>
        {/* The element as another site has it: the registry is the script's own address. */}
        {createElement('curie-search', { resolver: site.publicResolverUrl })}
        <script src={scriptUrl} defer />
      </section>
      <section aria-labelledby="how-heading">
        <h2 id="how-heading">How</h2>
        <p>Add the script once, and the element wherever the box goes:</p>
        <pre>
          <code>{snippet}</code>
        </pre>
        <p>
          The script ({(size / 1024).toFixed(1)} KB, no dependencies) defines the element; its styles stay in its
          shadow root, so the page's styles and the box's leave each other alone. The address above always serves
          the current version (browsers check it every few minutes); <code>{`${site.publicRegistryUrl}${scriptUrl}`}</code> is this version,
          kept by browsers for a year.
        </p>
        <dl class="facts">
          <dt>
            <code>registry</code>
          </dt>
          <dd>The registry to search: the one the script comes from when absent (name it when loading the script as a module).</dd>
          <dt>
            <code>resolver</code>
          </dt>
          <dd>The resolver that opens identifiers: the registry's own when absent.</dd>
          <dt>
            <code>label</code>, <code>placeholder</code>
          </dt>
          <dd>The field's label (“Compact identifier or namespace”) and placeholder (none).</dd>
          <dt>
            <code>target</code>
          </dt>
          <dd>
            <code>_blank</code> opens identifiers in a new tab.
          </dd>
        </dl>
        <p>
          Before leaving the page the element sends a cancellable <code>curie-search-go</code> event whose detail
          holds the identifier (<code>id</code>) or the words (<code>query</code>) and the <code>url</code> it would
          open; <code>--curie-search-accent</code> sets the button's colour. A page with a Content-Security-Policy
          needs the registry in <code>script-src</code> and <code>connect-src</code>.
        </p>
      </section>
    </Layout>
  );
}
