/**
 * The resolver's pages in real Chromium on a phone (390 × 844), on loopback: `taxonomy:human` typed into the
 * registry's resolve box ends on the resolver's failure page, which explains it, leads to the namespace's
 * page and searches the registry; the resolver's `/` points to the registry and the docs. Every page passes
 * axe-core, its weight budget and its Content-Security-Policy (visitPage), has nothing wider than the screen,
 * and is photographed into test/artifacts/.
 */
import type { Browser, Page } from 'playwright-core';
import { startBothAreas, type BothAreas } from '../support/areas.js';
import { chromiumBrowser, launchChromium, openLoopbackPage, visitPage, type LoopbackPage } from '../support/browser.js';
import { describeRequiring } from '../support/requirements.js';

const PHONE = { width: 390, height: 844 };

describeRequiring([chromiumBrowser()], 'the resolver\'s pages in a browser, on a phone', () => {
  let areas: BothAreas;
  let browser: Browser;
  let tab: LoopbackPage;
  let page: Page;
  let registry: string;
  let resolver: string;

  beforeAll(async () => {
    areas = await startBothAreas('resolver_pages_browser', { listeningPublicUrls: true });
    registry = `http://127.0.0.1:${areas.registry.port}`;
    resolver = `http://127.0.0.1:${areas.resolver.port}`;
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await areas?.close();
  });

  beforeEach(async () => {
    tab = await openLoopbackPage(browser, { viewport: PHONE });
    page = tab.page;
  });
  afterEach(async () => {
    await tab?.context.close();
    expect(tab.refused).toEqual([]);
  });

  /** The widest thing on the page against the screen: no sideways scrolling. */
  const pageWidth = () => page.evaluate(() => document.documentElement.scrollWidth);

  it('explains taxonomy:human typed into the registry\'s resolve box, and leads on to the namespace and the search', async () => {
    await page.goto(`${registry}/`);
    await page.getByLabel('Compact identifier').fill('taxonomy:human');
    await Promise.all([page.waitForURL(`${resolver}/taxonomy:human`), page.getByRole('button', { name: 'Resolve' }).click()]);
    await expect(page.locator('main p').first().textContent()).resolves.toBe(
      'human is not a valid identifier in taxonomy: taxonomy identifiers are numbers, such as taxonomy:9606.',
    );

    await visitPage(page, 'resolver-failure-phone', () => page.reload(), { status: 404 });
    expect(await pageWidth()).toBeLessThanOrEqual(PHONE.width);
    // The stylesheet is the registry's: the header is the site's band, not the browser's default white.
    await expect(page.locator('header.site-header').evaluate((header) => getComputedStyle(header).backgroundColor)).resolves.toBe('rgb(243, 245, 247)');

    await visitPage(page, 'resolver-failure-to-namespace', () => page.locator('main').getByRole('link', { name: 'Taxonomy', exact: true }).click());
    expect(page.url()).toBe(`${registry}/registry/taxonomy`);

    await page.goBack();
    await page.getByLabel('Search the registry').fill('taxon');
    await visitPage(page, 'resolver-failure-to-search', () => page.getByRole('button', { name: 'Search' }).click());
    expect(page.url()).toBe(`${registry}/registry?q=taxon`);
  });

  it('suggests the close prefixes of an unknown one, and keeps a long request within the screen', async () => {
    await visitPage(page, 'resolver-failure-unknown-prefix-phone', () => page.goto(`${resolver}/taxonmy:9606`), { status: 404 });
    await expect(page.locator('ul.suggested li').first().textContent()).resolves.toBe('taxonomy:9606 (Taxonomy)');
    expect(await pageWidth()).toBeLessThanOrEqual(PHONE.width);

    await visitPage(page, 'resolver-failure-long-phone', () => page.goto(`${resolver}/taxonomy:${'x'.repeat(400)}`), { status: 404 });
    expect(await pageWidth()).toBeLessThanOrEqual(PHONE.width);
  });

  it('shows the resolver\'s own address as a page leading to the registry and the docs', async () => {
    await visitPage(page, 'resolver-home-phone', () => page.goto(`${resolver}/`));
    expect(await pageWidth()).toBeLessThanOrEqual(PHONE.width);
    await visitPage(page, 'resolver-home-to-registry', () => page.getByRole('link', { name: 'The registry', exact: true }).click());
    expect(page.url()).toBe(`${registry}/`);
  });
});
