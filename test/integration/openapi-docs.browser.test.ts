/**
 * The docs page in real Chromium, on loopback, for both areas: Swagger UI starts from the package's files
 * and our initializer, reads the area's /openapi.json and lists its tags; a tag unfolds into its operations,
 * and "Try it out" asks the area itself. Every file answers 200 and nothing is asked of another host (no
 * CDN, no validator badge). A screenshot of each goes to test/artifacts/.
 */
import type { Browser, Response } from 'playwright-core';
import { startBothAreas, type BothAreas } from '../support/areas.js';
import { chromiumBrowser, launchChromium, openLoopbackPage, saveScreenshot } from '../support/browser.js';
import { describeRequiring } from '../support/requirements.js';

describeRequiring([chromiumBrowser()], 'the docs page in a browser', () => {
  let areas: BothAreas;
  let browser: Browser;

  beforeAll(async () => {
    areas = await startBothAreas('openapi_docs_browser', { listeningPublicUrls: true });
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await areas?.close();
  });

  it.each([
    ['resolver', 'Resolution', 'getByCompactId'],
    ['registry', 'Browse', 'getRestApiNamespacesById'],
  ] as const)('shows the %s area\'s operations from its own document, and tries one out', async (area, tag, operationId) => {
    const tab = await openLoopbackPage(browser);
    try {
      const answers: { url: string; status: number }[] = [];
      tab.page.on('response', (r: Response) => answers.push({ url: new URL(r.url()).pathname, status: r.status() }));
      const errors: string[] = [];
      tab.page.on('pageerror', (error) => errors.push(error.message));
      // What the page's Content-Security-Policy refused shows as console errors.
      tab.page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      const base = `http://127.0.0.1:${areas[area].port}`;
      const openapi = JSON.parse((await areas[area].send({ method: 'GET', path: '/openapi.json' })).text) as { tags: unknown[] };
      const docs = await tab.page.goto(`${base}/docs`);
      expect(docs?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
      await tab.page.waitForFunction((n) => document.querySelectorAll('.opblock-tag').length === n, openapi.tags.length, { timeout: 30_000 });
      expect(answers.filter((a) => a.status !== 200)).toEqual([]);
      expect(answers.map((a) => a.url).sort()).toEqual(
        ['/docs', '/docs/assets/swagger-initializer.js', '/docs/assets/swagger-ui-bundle.js', '/docs/assets/swagger-ui.css', '/openapi.json'].sort(),
      );

      await tab.page.click(`#operations-tag-${tag}`);
      const operation = tab.page.locator(`#operations-${tag}-${operationId}`);
      await operation.locator('.opblock-summary').click();
      await operation.locator('.try-out__btn').click();
      await operation.locator('.execute').click();
      // The area itself answers, from the example filled in (taxonomy:9606, namespace 28).
      await operation.locator('.live-responses-table tbody .response-col_status').first().waitFor({ timeout: 20_000 });
      expect(await operation.locator('.live-responses-table tbody .response-col_status').first().innerText()).toContain('200');
      await saveScreenshot(tab.page, `openapi-docs-${area}`);
      expect(answers.some((a) => a.url !== '/openapi.json' && !a.url.startsWith('/docs'))).toBe(true);
      expect(errors).toEqual([]);
      expect(tab.refused).toEqual([]);
    } finally {
      await tab.context.close();
    }
  }, 60_000);
});
