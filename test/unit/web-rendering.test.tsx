import { ErrorPage } from '../../src/web/error-page.js';
import { Layout } from '../../src/web/layout.js';
import { renderDocument } from '../../src/web/render-page.js';
import { StaticAssets } from '../../src/web/static-assets.js';
import type { Site } from '../../src/web/site.js';

const site: Site = { publicResolverUrl: 'https://resolver.test', publicRegistryUrl: 'https://registry.test', assets: new StaticAssets() };

describe('the page layout', () => {
  const html = renderDocument(
    <Layout site={site} title="A <title>" section="browse" scripts={['search-suggest.js']}>
      <h1>Heading</h1>
    </Layout>,
  );

  it('is an HTML5 document with a language, a title and the header, navigation, main and footer landmarks', () => {
    expect(html.startsWith('<!doctype html><html lang="en">')).toBe(true);
    expect(html).toContain('<title>A &lt;title> · Compact Identifier Registry</title>');
    for (const landmark of ['<header', '<nav aria-label="Main"', '<main id="main"', '<footer']) expect(html).toContain(landmark);
    expect(html).toContain('<a href="/registry" aria-current="page">');
  });

  it('links the stylesheet and the scripts by their content hash', () => {
    expect(html).toMatch(/<link rel="stylesheet" href="\/static\/registry\.css\?v=[\w-]{16}"\/?>/);
    expect(html).toMatch(/<script type="module" src="\/static\/search-suggest\.js\?v=[\w-]{16}"><\/script>/);
  });

  it('escapes every registry value it writes', () => {
    const page = renderDocument(<ErrorPage site={site} status={404} message={'<script>alert("x")</script> & "quotes"'} />);
    expect(page).not.toContain('<script>alert');
    expect(page).toContain('&lt;script>alert(&quot;x&quot;)&lt;/script> &amp; &quot;quotes&quot;');
  });

  it('refuses to link a static asset that public/ does not hold', () => {
    expect(() => site.assets.url('missing.js')).toThrow('No static asset public/missing.js');
  });
});
