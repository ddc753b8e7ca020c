/**
 * Real Chromium for the page tests: Debian's /usr/bin/chromium driven by playwright-core (no browser
 * download), kept on loopback (every request to another host is aborted), with the checks the pages must
 * pass: axe-core's serious and critical violations, the weight of scripts and stylesheets each page
 * ships, and a screenshot of each page in test/artifacts/ (ignored by git, kept by the run; not under CI=true
 * unless TEST_SCREENSHOTS=1).
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import axe from 'axe-core';
import { chromium, type Browser, type BrowserContext, type Page, type Response } from 'playwright-core';
import { ROOT } from './processes.js';
import type { Requirement } from './requirements.js';

export const CHROMIUM = '/usr/bin/chromium';
export const ARTIFACTS = path.join(ROOT, 'test/artifacts');

/** Chromium is there to drive; under CI=true its absence fails the browser tests (.ci/run installs it). */
export function chromiumBrowser(): Requirement {
  const met = existsSync(CHROMIUM);
  const need = `Chromium at ${CHROMIUM} (Debian package chromium) for the browser tests`;
  if (!met && process.env.CI !== 'true') console.warn(`Skipping the browser tests: ${need} is not installed (apt-get install -y chromium).`);
  return { met, need, requiredInCi: true };
}

/**
 * The run's shared Chromium (global-setup.ts starts one when the run has browser test files), else one of this
 * file's own. close() on a shared one closes only this file's connection and contexts.
 */
export function launchChromium(): Promise<Browser> {
  const shared = process.env.TEST_CHROMIUM_WS;
  if (shared) return chromium.connect(shared);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

function isLoopback(url: string): boolean {
  try {
    const { protocol, hostname } = new URL(url);
    if (protocol === 'data:' || protocol === 'about:') return true;
    return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]';
  } catch {
    return false;
  }
}

export interface LoopbackPage {
  context: BrowserContext;
  page: Page;
  /** The addresses of requests refused for leaving loopback. */
  refused: string[];
}

const policyRefusals = new WeakMap<Page, string[]>();

/**
 * A page in a context of its own whose requests may reach loopback only, with the browser cache off (so
 * that every page's assets are fetched, and weighed, again); a desktop window unless `viewport` says
 * otherwise (a phone's 390 × 844, say).
 */
export async function openLoopbackPage(
  browser: Browser,
  options: { javaScriptEnabled?: boolean; viewport?: { width: number; height: number } } = {},
): Promise<LoopbackPage> {
  const context = await browser.newContext({
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    viewport: options.viewport ?? { width: 1280, height: 900 },
  });
  const refused: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (isLoopback(url)) return route.continue();
    refused.push(url);
    return route.abort('blockedbyclient');
  });
  const page = await context.newPage();
  const refusedByPolicy: string[] = [];
  policyRefusals.set(page, refusedByPolicy);
  // Chromium tells what a page's Content-Security-Policy blocked as a console error.
  page.on('console', (message) => {
    if (message.type() === 'error' && message.text().includes('Content Security Policy')) refusedByPolicy.push(message.text());
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  return { context, page, refused };
}

export interface AxeViolation {
  id: string;
  impact: string | null | undefined;
  help: string;
  targets: string[];
}

/** axe-core's violations of impact serious or critical on the page as it is now. */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated rather than added as a script element: it leaves the document (and its weight) as it is, and
  // runs where the page's own scripts are off.
  await page.evaluate(axe.source);
  const results = await page.evaluate(() => (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] }));
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
}

/**
 * Whether pages are photographed: by default where someone looks at them, not under CI=true, where the
 * ~80 full-page PNGs (160 megapixels a run) cost CPU that no one sees; TEST_SCREENSHOTS=1 or 0 decides.
 */
export const TAKES_SCREENSHOTS = process.env.TEST_SCREENSHOTS === undefined ? process.env.CI !== 'true' : process.env.TEST_SCREENSHOTS !== '0';

/** Writes the page, whole, to test/artifacts/<name>.png (when TAKES_SCREENSHOTS); returns the file's path. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  const file = path.join(ARTIFACTS, `${name}.png`);
  if (!TAKES_SCREENSHOTS) return file;
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

export interface PageWeight {
  /** Bytes of JavaScript: external scripts as served (uncompressed) plus inline scripts. */
  script: number;
  /** Bytes of CSS: stylesheets as served plus inline style elements. */
  style: number;
}

/**
 * Starts weighing what the page loads; the returned function gives the weight of everything loaded since
 * (call it after the page has loaded), inline scripts and styles of the current document included.
 */
export function weighPage(page: Page): () => Promise<PageWeight> {
  const pending: Promise<PageWeight>[] = [];
  const listener = (response: Response) => {
    const type = response.request().resourceType();
    if (type !== 'script' && type !== 'stylesheet') return;
    pending.push(
      response
        .body()
        .then((body) => (type === 'script' ? { script: body.length, style: 0 } : { script: 0, style: body.length }))
        .catch(() => ({ script: 0, style: 0 })),
    );
  };
  page.on('response', listener);
  return async () => {
    page.off('response', listener);
    const external = await Promise.all(pending);
    const inline = await page.evaluate(() => ({
      script: Array.from(document.querySelectorAll('script:not([src])')).reduce((n, s) => n + new TextEncoder().encode(s.textContent ?? '').length, 0),
      style: Array.from(document.querySelectorAll('style')).reduce((n, s) => n + new TextEncoder().encode(s.textContent ?? '').length, 0),
    }));
    return external.reduce((sum, w) => ({ script: sum.script + w.script, style: sum.style + w.style }), inline);
  };
}

/** What every page a person sees must meet: at most 30 KB of JavaScript and 30 KB of CSS. */
export const PAGE_BUDGET_BYTES = 30 * 1024;

/**
 * Loads a page by an action (a goto, a click, a key press) and checks what a visitor gets: the status of
 * the page the navigation ends on (a 303 after a form post is followed), a title, a stylesheet, the weight
 * budget, axe-core without a serious or critical violation, nothing refused by its Content-Security-Policy;
 * then photographs it as test/artifacts/<name>.png.
 * Axe runs only where scripts do (`scripts: false` for a context without JavaScript): its run waits on
 * timers, which such a page never fires.
 */
export async function visitPage(
  page: Page,
  name: string,
  action: () => Promise<unknown>,
  { status = 200, scripts = true }: { status?: number; scripts?: boolean } = {},
): Promise<void> {
  const weigh = weighPage(page);
  const [response] = await Promise.all([page.waitForEvent('response', (r) => r.request().isNavigationRequest() && r.status() !== 303), action()]);
  await page.waitForLoadState('load');
  expect(response.status()).toBe(status);
  expect(await page.title()).toMatch(/\S/);
  const weight = await weigh();
  expect(weight.script).toBeLessThanOrEqual(PAGE_BUDGET_BYTES);
  expect(weight.style).toBeLessThanOrEqual(PAGE_BUDGET_BYTES);
  expect(weight.style).toBeGreaterThan(0);
  if (scripts) expect(await seriousAxeViolations(page)).toEqual([]);
  // Nothing the page needs (its scripts, styles, forms' fetches) is blocked by its Content-Security-Policy.
  expect(policyRefusals.get(page) ?? []).toEqual([]);
  await saveScreenshot(page, name);
}
