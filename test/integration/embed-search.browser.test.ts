/**
 * The embeddable search box (/embed/curie-search.js) in real Chromium, on a page of another origin: a
 * loopback server on a port of its own serves a host page that loads the script from the registry's
 * origin, with styles that would break the box if they reached it. Typing suggests namespaces across
 * origins, the keyboard chooses one, Enter resolves through the resolver to the provider (a local
 * stand-in), axe-core finds no serious violation, and the script stays under 10 KB. The registry's /embed
 * page shows the same box.
 */
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { startBothAreas, type BothAreas } from '../support/areas.js';
import { chromiumBrowser, launchChromium, openLoopbackPage, saveScreenshot, seriousAxeViolations, visitPage, type LoopbackPage } from '../support/browser.js';
import { resolveTaxonomyToSites, startSites, type Sites } from '../support/fixture-sites.js';
import { startRawServer, type RawServer } from '../support/raw-http.js';
import { describeRequiring } from '../support/requirements.js';
import { waitFor } from '../support/wait.js';

const SCRIPT_PATH = '/embed/curie-search.js';
const TEN_KB = 10 * 1024;

/** A host page that embeds the box, with rules that would hide or restyle a box living in the page's own DOM. */
function hostPage(registry: string, resolver: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A host page</title>
<style>
html { font-size: 10px; }
* { color: #ff00ff; font-family: fantasy; letter-spacing: 4px; }
body { background: #fff; }
input, ul, li, label, button { display: none !important; }
</style></head>
<body><main><h1>A host page</h1>
<curie-search resolver="${resolver}"></curie-search>
<script src="${registry}${SCRIPT_PATH}" defer></script>
</main></body></html>`;
}

describeRequiring([chromiumBrowser()], 'the embeddable search box on another origin', () => {
  let areas: BothAreas;
  let sites: Sites;
  let host: RawServer;
  let browser: Browser;
  let tab: LoopbackPage;
  let page: Page;
  let registry: string;
  let resolver: string;
  let hostUrl: string;

  beforeAll(async () => {
    sites = await startSites();
    areas = await startBothAreas('embed_browser', { listeningPublicUrls: true });
    registry = `http://127.0.0.1:${areas.registry.port}`;
    resolver = `http://127.0.0.1:${areas.resolver.port}`;
    await resolveTaxonomyToSites(areas, sites);
    const html = hostPage(registry, resolver);
    host = await startRawServer((req, res) => {
      res.writeHead(req.url === '/' ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
      res.end(req.url === '/' ? html : 'missing');
    });
    hostUrl = `http://127.0.0.1:${host.port}/`;
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await areas?.close();
    await sites?.close();
  });

  beforeEach(async () => {
    tab = await openLoopbackPage(browser);
    page = tab.page;
  });
  afterEach(async () => {
    await tab?.context.close();
    expect(tab.refused).toEqual([]);
  });

  const box = () => page.getByRole('combobox', { name: 'Compact identifier or namespace' });
  const openHostPage = async () => {
    await page.goto(hostUrl);
    await box().waitFor();
  };

  it('suggests namespaces from the registry as one types, across origins, in a box the host page\'s styles do not reach', async () => {
    await openHostPage();
    expect(new URL(page.url()).origin).not.toBe(registry);
    const [search] = await Promise.all([
      page.waitForResponse((r) => r.url().startsWith(`${registry}/registry/search?`)),
      box().pressSequentially('taxon', { delay: 20 }),
    ]);
    // The registry answered the page's origin (the browser would have hidden the answer otherwise).
    expect(search.status()).toBe(200);
    expect(search.headers()['access-control-allow-origin']).toBe('*');
    expect(search.request().headers().origin).toBe(new URL(hostUrl).origin);

    const option = page.getByRole('option', { name: /^taxonomy — / });
    await option.waitFor();
    await expect(box().getAttribute('aria-expanded')).resolves.toBe('true');
    await expect(page.getByRole('status').textContent()).resolves.toMatch(/^\d+ suggestions?, use the arrow keys$/);
    // The host's rules hide every input, list and label of its own and paint its text magenta: not the box's.
    await expect(box().isVisible()).resolves.toBe(true);
    await expect(option.isVisible()).resolves.toBe(true);
    const label = page.locator('curie-search').locator('label');
    await expect(label.evaluate((el) => getComputedStyle(el).color)).resolves.toBe('rgb(27, 31, 36)');
    await expect(label.evaluate((el) => getComputedStyle(el).letterSpacing)).resolves.toBe('normal');

    // Open list included: nothing serious for axe-core (which looks into the shadow root).
    expect(await seriousAxeViolations(page)).toEqual([]);
    await saveScreenshot(page, 'embed-host-suggestions');
  });

  it('moves through the suggestions with the arrow keys, chooses with Enter, closes with Escape, as the site\'s box does', async () => {
    await openHostPage();
    // Several namespaces start with p (pdb, pmc, pubmed…).
    await box().pressSequentially('p', { delay: 20 });
    const options = page.getByRole('option');
    await page.getByRole('option', { name: /^pubmed — / }).waitFor();
    const count = await options.count();
    expect(count).toBeGreaterThan(1);

    await box().press('ArrowDown');
    await expect(options.nth(0).getAttribute('aria-selected')).resolves.toBe('true');
    const firstId = await options.nth(0).getAttribute('id');
    await expect(box().getAttribute('aria-activedescendant')).resolves.toBe(firstId);
    // Up from the first wraps to the last.
    await box().press('ArrowUp');
    await expect(options.nth(count - 1).getAttribute('aria-selected')).resolves.toBe('true');
    await expect(options.nth(0).getAttribute('aria-selected')).resolves.toBe('false');

    // Escape closes the list only: what was typed stays, and the list comes back on the next key.
    await box().press('Escape');
    await expect(box().getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(page.getByRole('listbox', { includeHidden: true }).isHidden()).resolves.toBe(true);
    await expect(box().inputValue()).resolves.toBe('p');
    await expect(box().getAttribute('aria-activedescendant')).resolves.toBeNull();
    expect(page.url()).toBe(hostUrl);

    await box().press('u');
    await page.getByRole('option', { name: /^pubmed — / }).waitFor();
    await expect(box().getAttribute('aria-expanded')).resolves.toBe('true');
    const position = (await options.allTextContents()).findIndex((text) => text.startsWith('pubmed — '));
    for (let i = 0; i <= position; i++) await box().press('ArrowDown');
    await expect(options.nth(position).getAttribute('aria-selected')).resolves.toBe('true');
    await box().press('Enter');
    // Choosing writes the prefix for the accession to follow, announces it, and leaves the page where it is.
    await expect(box().inputValue()).resolves.toBe('pubmed:');
    await expect(box().getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(page.getByRole('status').textContent()).resolves.toBe('pubmed: written, type the accession after the colon');
    expect(page.url()).toBe(hostUrl);
    await expect(box().evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).resolves.toBe(true);
  });

  it('chooses a suggestion with a click too', async () => {
    await openHostPage();
    await box().pressSequentially('taxon', { delay: 20 });
    await page.getByRole('option', { name: /^taxonomy — / }).click();
    await expect(box().inputValue()).resolves.toBe('taxonomy:');
  });

  it('opens a compact identifier at the resolver on Enter, which sends the browser on to the provider', async () => {
    await openHostPage();
    await box().pressSequentially('taxonomy:9606', { delay: 20 });
    const [first] = await Promise.all([
      page.waitForRequest((r) => r.isNavigationRequest() && r.url().startsWith(resolver)),
      page.waitForURL(sites.url('/taxonomy/items/9606')),
      box().press('Enter'),
    ]);
    expect(first.url()).toBe(`${resolver}/taxonomy:9606`);
    await expect(page.locator('body').textContent()).resolves.toBe('ok');
    expect(sites.hits).toContain('/taxonomy/items/9606');
  });

  it('opens the registry\'s search page on Enter over words that are not an identifier', async () => {
    await openHostPage();
    await box().fill('taxon');
    await Promise.all([page.waitForURL((url) => url.origin === registry && url.pathname === '/registry'), box().press('Enter')]);
    expect(new URL(page.url()).searchParams.get('q')).toBe('taxon');
  });

  it('lets the host page take over with the curie-search-go event, and resolves through the registry without a resolver attribute', async () => {
    await openHostPage();
    await page.evaluate(() => {
      const w = window as unknown as { taken: unknown[] };
      w.taken = [];
      document.addEventListener('curie-search-go', (event) => {
        w.taken.push((event as CustomEvent).detail);
        event.preventDefault();
      });
    });
    await box().fill('GO:0006915');
    await box().press('Enter');
    await waitFor(() => page.evaluate(() => (window as unknown as { taken: unknown[] }).taken.length === 1), { timeoutMs: 10_000, what: 'the event' });
    await expect(page.evaluate(() => (window as unknown as { taken: unknown[] }).taken)).resolves.toEqual([
      { id: 'GO:0006915', query: null, url: `${resolver}/GO:0006915` },
    ]);
    expect(page.url()).toBe(hostUrl);

    // Without `resolver` (and without the host's listener): the registry's /resolve, which sends the browser on.
    await openHostPage();
    await page.evaluate(() => document.querySelector('curie-search')!.removeAttribute('resolver'));
    await box().fill('taxonomy:9606');
    const [first] = await Promise.all([
      page.waitForRequest((r) => r.isNavigationRequest() && r.url().startsWith(registry)),
      page.waitForURL(sites.url('/taxonomy/items/9606')),
      box().press('Enter'),
    ]);
    expect(first.url()).toBe(`${registry}/resolve?id=taxonomy%3A9606`);
  });

  it('serves one script under 10 KB to any origin, cached by ETag or for a year at its versioned address', async () => {
    const origin = new URL(hostUrl).origin;
    const answer = await areas.registry.send({ method: 'GET', path: SCRIPT_PATH, headers: { Origin: origin } });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    expect(answer.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(answer.headers['cache-control']).toBe('public, max-age=300');
    const raw = Buffer.byteLength(answer.text);
    const gzipped = gzipSync(answer.text).length;
    console.info(`${SCRIPT_PATH}: ${raw} bytes as served, ${gzipped} gzipped`);
    expect(raw).toBeLessThan(TEN_KB);

    const etag = answer.headers.etag!;
    const again = await areas.registry.send({ method: 'GET', path: SCRIPT_PATH, headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    const versioned = await areas.registry.send({ method: 'GET', path: `${SCRIPT_PATH}?v=${etag.replaceAll('"', '')}` });
    expect(versioned.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(versioned.text).toBe(answer.text);

    // What the browser loaded on the host page is that script, and all the script it loaded.
    const scripts: string[] = [];
    page.on('response', (r) => {
      if (r.request().resourceType() === 'script') scripts.push(r.url());
    });
    const [loaded] = await Promise.all([page.waitForResponse((r) => r.url() === `${registry}${SCRIPT_PATH}`), openHostPage()]);
    expect((await loaded.body()).length).toBe(raw);
    expect(scripts).toEqual([`${registry}${SCRIPT_PATH}`]);
  });

  it('shows the box and how to embed it on the registry\'s /embed page', async () => {
    await visitPage(page, 'embed', () => page.goto(`${registry}/embed`));
    await expect(page.locator('main h1').textContent()).resolves.toBe('Embed the search box');
    await expect(page.locator('pre code').textContent()).resolves.toContain(`<script src="${registry}${SCRIPT_PATH}" defer></script>`);
    await box().pressSequentially('taxon', { delay: 20 });
    await page.getByRole('option', { name: /^taxonomy — / }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await saveScreenshot(page, 'embed-page-suggestions');
  });
});
