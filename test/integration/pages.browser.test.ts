/**
 * The registry's pages in real Chromium, on loopback: a person goes from the home page through the search
 * to a namespace page and follows its sample link through the resolver to the provider (a local stand-in).
 * Every page must pass axe-core without a serious or critical violation and ship at most 30 KB of
 * JavaScript and 30 KB of CSS; each is photographed into test/artifacts/.
 */
import type { Browser, Page } from 'playwright-core';
import { startBothAreas, type BothAreas } from '../support/areas.js';
import { chromiumBrowser, launchChromium, openLoopbackPage, saveScreenshot, visitPage, type LoopbackPage } from '../support/browser.js';
import { resolveTaxonomyToSites, startSites, type Sites } from '../support/fixture-sites.js';
import { describeRequiring } from '../support/requirements.js';


describeRequiring([chromiumBrowser()], 'the registry pages in a browser', () => {
  let areas: BothAreas;
  let sites: Sites;
  let browser: Browser;
  let tab: LoopbackPage;
  let page: Page;
  let registry: string;

  beforeAll(async () => {
    sites = await startSites();
    areas = await startBothAreas('pages_browser', { listeningPublicUrls: true });
    registry = `http://127.0.0.1:${areas.registry.port}`;
    await resolveTaxonomyToSites(areas, sites);
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
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

  const visit = (name: string, action: () => Promise<unknown>, status = 200, scripts = true) => visitPage(page, name, action, { status, scripts });

  it('goes from the home page through the search to a namespace and its sample at the provider', async () => {
    await visit('home', () => page.goto(`${registry}/`));
    await expect(page.locator('main h1').textContent()).resolves.toBe('Compact Identifier Registry');

    // The search box suggests as one types (the script), and still submits as a form.
    const box = page.getByLabel('Search the registry');
    await box.pressSequentially('taxon', { delay: 20 });
    await page.getByRole('option', { name: /^taxonomy — / }).waitFor();
    await expect(box.getAttribute('aria-expanded')).resolves.toBe('true');
    await saveScreenshot(page, 'home-suggestions');
    await box.press('Escape');
    await visit('search', () => box.press('Enter'));
    expect(new URL(page.url()).search).toBe('?q=taxon');
    await expect(page.locator('ol.results li').first().locator('code').textContent()).resolves.toBe('taxonomy');

    await visit('namespace', () => page.locator('ol.results').getByRole('link', { name: 'Taxonomy', exact: true }).click());
    expect(new URL(page.url()).pathname).toBe('/registry/taxonomy');
    await expect(page.locator('h1').textContent()).resolves.toContain('taxonomy');
    // Nothing resolved yet: the usage section says so instead of drawing empty axes.
    await expect(page.locator('figure.chart svg').count()).resolves.toBe(0);
    await expect(page.getByText('No resolution of its identifiers has been counted in the last 12 months yet.').count()).resolves.toBe(1);

    // The sample link goes to the resolver, which sends the browser on to the provider.
    await Promise.all([page.waitForURL(sites.url('/taxonomy/items/9606')), page.locator('a.sample-link').click()]);
    await expect(page.locator('body').textContent()).resolves.toBe('ok');
    expect(sites.hits).toContain('/taxonomy/items/9606');
  });

  it('answers an unknown prefix with a page suggesting the close ones, and any unknown address with an error page', async () => {
    await visit('namespace-not-found', () => page.goto(`${registry}/registry/taxonmy`), 404);
    await expect(page.locator('ul.suggested a').first().textContent()).resolves.toBe('taxonomy');
    await visit('not-found', () => page.goto(`${registry}/no/such/page`), 404);
  });

  it('finds the compact identifier of a provider address, and resolves one from the home page', async () => {
    await visit('home-for-boxes', () => page.goto(`${registry}/`));
    await page.getByLabel('Provider address').fill(sites.url('/taxonomy/items/9606'));
    await visit('reverse-lookup', () => page.getByRole('button', { name: 'Look up' }).click());
    await expect(page.locator('code.curie').textContent()).resolves.toBe('taxonomy:9606');

    await page.goto(`${registry}/`);
    await page.getByLabel('Compact identifier').fill('taxonomy:9606');
    await Promise.all([page.waitForURL(sites.url('/taxonomy/items/9606')), page.getByRole('button', { name: 'Resolve' }).click()]);
  });

  it('serves the search and the error pages without JavaScript', async () => {
    await tab.context.close();
    tab = await openLoopbackPage(browser, { javaScriptEnabled: false });
    page = tab.page;
    await visit('home-without-javascript', () => page.goto(`${registry}/`), 200, false);
    await page.getByLabel('Search the registry').fill('gene');
    await visit('search-without-javascript', () => page.getByRole('button', { name: 'Search' }).click(), 200, false);
    await expect(page.locator('ol.results li code').first().textContent()).resolves.toBe('go');
    await visit('browse', () => page.goto(`${registry}/registry`), 200, false);
    await visit('browse-page-2', () => page.getByRole('link', { name: 'Next page' }).click(), 200, false);
    await expect(page.locator('ol.results').getAttribute('start')).resolves.toBe('21');
  });
  it('answers on a phone where GO:0006915 takes a reader, readable at 390 and 320 px wide, with copy buttons', async () => {
    for (const width of [390, 320]) {
      await tab.context.close();
      tab = await openLoopbackPage(browser, { viewport: { width, height: 844 } });
      page = tab.page;
      await visit(`namespace-phone-${width}`, () => page.goto(`${registry}/registry/go`));
      await expect(page.locator('section.route p').first().textContent()).resolves.toMatch(/^GO:0006915 takes you to AmiGO 2 \(official 100/);
      // Nothing wider than the screen (no sideways scrolling), and every value of the facts and the provider
      // cards has the width of the column to itself, not a few characters beside its label.
      const layout = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        narrowestValue: Math.min(...Array.from(document.querySelectorAll('dl.facts dd')).map((dd) => dd.getBoundingClientRect().width)),
        widestCard: Math.max(...Array.from(document.querySelectorAll('li.provider')).map((li) => li.getBoundingClientRect().right)),
      }));
      expect(layout.scrollWidth).toBeLessThanOrEqual(width);
      expect(layout.widestCard).toBeLessThanOrEqual(width);
      expect(layout.narrowestValue).toBeGreaterThan(width * 0.6);
    }
    await tab.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: 'Copy quickgo/GO:0006915' }).first().click();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe('quickgo/GO:0006915');
    await expect(page.getByRole('status').textContent()).resolves.toBe('Copied quickgo/GO:0006915');
  });

  it('fits the home page, a search, browsing, both request forms and the embed page on a phone, with nothing to scroll sideways', async () => {
    await tab.context.close();
    tab = await openLoopbackPage(browser, { viewport: { width: 390, height: 844 } });
    page = tab.page;
    const pages: [string, string][] = [
      ['home-phone', '/'],
      ['search-phone', '/registry?q=protein'],
      ['browse-phone', '/registry?size=5'],
      ['prefix-request-phone', '/prefixregistrationrequest'],
      ['provider-request-phone', '/resourceregistrationrequest'],
      ['embed-phone', '/embed'],
    ];
    const tooWide: string[] = [];
    for (const [name, path] of pages) {
      await visit(name, () => page.goto(`${registry}${path}`));
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      if (scrollWidth > 390) tooWide.push(`${path}: ${scrollWidth} px`);
    }
    expect(tooWide).toEqual([]);
  });
});
