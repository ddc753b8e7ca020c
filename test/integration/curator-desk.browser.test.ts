/**
 * The whole life of a prefix request in real Chromium, on loopback, with both areas listening at their
 * published addresses: a requester sends it through the form and follows it on the status page; a curator
 * signs in to the desk, reads it with its checks (one navigation bar, the values of every group of fields
 * in one column), comments; the requester answers; the curator accepts; the namespace page exists and the
 * resolver resolves the identifier. Then the curator maintains the new namespace (whose changes start with
 * the acceptance), its provider and institution, reviews the curation warnings, finds and deletes an unused
 * institution, and signs out; on a phone a request's page reads without scrolling sideways. Every desk page
 * passes axe-core without a serious or critical violation, ships at most 30 KB of JavaScript and of CSS,
 * and is photographed into test/artifacts/.
 */
import type { Browser, Page } from 'playwright-core';
import { prefixRegistration, unique } from '../factories/registration.factory.js';
import { startBothAreas, type BothAreas } from '../support/areas.js';
import { chromiumBrowser, launchChromium, openLoopbackPage, saveScreenshot, visitPage, type LoopbackPage } from '../support/browser.js';
import { describeRequiring } from '../support/requirements.js';
import { waitFor } from '../support/wait.js';

const LONG = 120_000;
const DESCRIPTION = 'A collection of example records, described at length for the curators of the registry.';

describeRequiring([chromiumBrowser()], 'the curator desk in a browser', () => {
  let areas: BothAreas;
  let browser: Browser;
  let requester: LoopbackPage;
  let curator: LoopbackPage;
  let registry: string;

  beforeAll(async () => {
    areas = await startBothAreas('desk_browser', { listeningPublicUrls: true });
    registry = `http://127.0.0.1:${areas.registry.port}`;
    browser = await launchChromium();
    requester = await openLoopbackPage(browser);
    curator = await openLoopbackPage(browser);
  }, 60_000);

  afterAll(async () => {
    await requester?.context.close();
    await curator?.context.close();
    expect(requester.refused).toEqual([]);
    expect(curator.refused).toEqual([]);
    await browser?.close();
    await areas?.close();
  });

  const visit = (on: Page, name: string, action: () => Promise<unknown>, status = 200) => visitPage(on, name, action, { status });

  /** The names of the page's navigation landmarks, but for the pagers of its lists. */
  const navigationBars = (on: Page) => on.locator('nav:not(.pages)').evaluateAll((bars) => bars.map((bar) => bar.getAttribute('aria-label')));

  /** The curator token typed into the desk's sign-in, from wherever the page is. */
  async function signIn(on: Page, name: string): Promise<void> {
    await on.goto(`${registry}/curation/sign-in`);
    await field(on, 'Curator token').fill(areas.curatorToken);
    await visit(on, name, () => on.getByRole('button', { name: 'Sign in' }).click());
  }

  const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

  async function sendPrefixRequest(page: Page, prefix: string): Promise<string> {
    await visit(page, 'desk-flow-request-form', () => page.goto(`${registry}/prefixregistrationrequest`));
    const typing = (label: string, text: string) => field(page, label).fill(text);
    await typing('Name (required)', `Example records ${prefix}`);
    await typing('Description (required)', DESCRIPTION);
    await typing('Requested prefix (required)', prefix);
    await typing('Provider name (required)', `Example provider ${prefix}`);
    await typing('Provider description (required)', DESCRIPTION);
    await typing('Provider home page (required)', `https://${prefix}.example.org/`);
    await typing('Provider URL pattern (required)', `https://${prefix}.example.org/items/{$id}`);
    await typing('Sample identifier (required)', '12345');
    await typing('Identifier pattern (required)', '^\\d+$');
    await typing('Provider code (required)', `p${prefix}`);
    await typing('Provider country (required)', 'GB');
    await typing('Institution name (required)', `Institute of ${prefix}`);
    await typing('Institution description (required)', DESCRIPTION);
    await typing('Institution home page (required)', 'https://institute.example.org/');
    await typing('Institution country (required)', 'GB');
    await typing('Your name (required)', 'Ann Example');
    await typing('Your e-mail address (required)', 'ann@example.org');
    await visit(page, 'desk-flow-request-sent', () => page.getByRole('button', { name: 'Send the request' }).click());
    expect(new URL(page.url()).pathname).toMatch(/^\/requests\/[A-Za-z0-9_-]{43}$/);
    return page.url().replace(/\?.*$/, '');
  }

  it('takes a prefix request from the form through the desk to a namespace the resolver resolves', async () => {
    const prefix = unique('bd');
    const statusPage = await sendPrefixRequest(requester.page, prefix);
    const page = curator.page;

    // The desk sends a visitor to the sign-in; a wrong token is refused, the right one lets the curator in.
    await visit(page, 'desk-sign-in', () => page.goto(`${registry}/curation`));
    expect(new URL(page.url()).pathname).toBe('/curation/sign-in');
    await field(page, 'Curator token').fill('not the token');
    await visit(page, 'desk-sign-in-refused', () => page.getByRole('button', { name: 'Sign in' }).click(), 401);
    await expect(page.locator('.error-summary').textContent()).resolves.toContain('That is not the curator token');
    await field(page, 'Curator token').fill(areas.curatorToken);
    await visit(page, 'desk-open-requests', () => page.getByRole('button', { name: 'Sign in' }).click());
    expect(new URL(page.url()).pathname).toBe('/curation');
    const row = page.locator('tr', { has: page.locator(`code:text-is("${prefix}")`) });
    await expect(row.locator('td').last().textContent()).resolves.toBe('Passes every check');

    // The request, its checks; the curator asks a question.
    await visit(page, 'desk-request', () => row.getByRole('link', { name: prefix }).click());
    await expect(page.locator('h1').textContent()).resolves.toBe(`Prefix request “${prefix}”`);
    // One navigation bar, the desk's, in the header.
    await expect(navigationBars(page)).resolves.toEqual(['Curator desk']);
    await expect(page.locator('header').getByRole('link', { name: 'Warnings', exact: true }).count()).resolves.toBe(1);
    // The values of every group of the request start in one column, whatever the length of their labels.
    const valueColumns = await page.locator('dl.facts dd').evaluateAll((values) => [...new Set(values.map((dd) => Math.round(dd.getBoundingClientRect().left)))]);
    expect(valueColumns).toHaveLength(1);
    await expect(page.getByRole('link', { name: `https://${prefix}.example.org/`, exact: true }).first().getAttribute('rel')).resolves.toBe('nofollow noopener');
    await expect(page.locator('#review-heading + p').textContent()).resolves.toBe('Passes every check.');
    await expect(page.locator('table').first().textContent()).resolves.toContain(`https://${prefix}.example.org/items/12345`);
    await field(page, 'Comment to the requester (required)').fill('Which licence do the records have?');
    await visit(page, 'desk-request-commented', () => page.getByRole('button', { name: 'Send the comment' }).click());
    await expect(page.locator('.notice-ok').textContent()).resolves.toBe('Your comment was sent to the requester.');
    await expect(page.locator('ol.history').textContent()).resolves.toContain('Comment by curator');

    // The requester reads it on the status page and answers.
    const reply = requester.page;
    await visit(reply, 'desk-flow-status-comment', () => reply.goto(statusPage));
    await expect(reply.locator('ol.history').textContent()).resolves.toContain('Which licence do the records have?');
    await field(reply, 'Your answer or more information').fill('CC BY 4.0.');
    await visit(reply, 'desk-flow-status-answered', () => reply.getByRole('button', { name: 'Send the answer' }).click());

    // The curator sees the answer, and accepts.
    await visit(page, 'desk-request-answered', () => page.reload());
    await expect(page.locator('ol.history li.by-requester blockquote').textContent()).resolves.toBe('CC BY 4.0.');
    await field(page, 'Reason for accepting (optional)').fill('Complete and working.');
    await visit(page, 'desk-request-accepted', () => page.getByRole('button', { name: 'Accept the request' }).click());
    await expect(page.locator('.notice-ok').textContent()).resolves.toContain('The request was accepted');
    await visit(page, 'desk-flow-namespace-page', () => page.getByRole('link', { name: `See the namespace page of ${prefix}` }).click());
    expect(new URL(page.url()).pathname).toBe(`/registry/${prefix}`);
    await expect(page.locator('main h1').textContent()).resolves.toContain(`Example records ${prefix}`);

    // The resolver serves the new namespace.
    await waitFor(async () => (await areas.resolver.send({ method: 'GET', path: `/${prefix}:12345` })).status === 200, {
      timeoutMs: 10_000,
      what: 'the resolver resolving the accepted prefix',
    });
    const resolved = JSON.parse((await areas.resolver.send({ method: 'GET', path: `/${prefix}:12345` })).text);
    expect(resolved.payload.resolvedResources[0].compactIdentifierResolvedUrl).toBe(`https://${prefix}.example.org/items/12345`);

    // The requester's page says so too.
    await visit(reply, 'desk-flow-status-accepted', () => reply.goto(statusPage));
    await expect(reply.locator('dl.facts').first().textContent()).resolves.toContain('Accepted');
    const events = await areas.db('prefixRegistrationSessionEvents').join('prefixRegistrationSessions', 'prefixRegistrationSessions.id', 'sessionId').where({ token: statusPage.split('/').pop() });
    expect(events.map((e: { eventName: string; actor: string }) => `${e.eventName} ${e.actor}`)).toEqual(['START ANONYMOUS', 'COMMENT curator', 'COMMENT REQUESTER', 'ACCEPT curator']);
  }, LONG);

  it('maintains the registry from the desk: namespace, provider, institution; then signs out', async () => {
    const page = curator.page;
    const prefix = (await areas.db('namespaces').where('prefix', 'like', 'bd%').orderBy('id', 'desc').first())!.prefix as string;
    await page.goto(`${registry}/curation`);
    await visit(page, 'desk-registry-find', () => page.getByRole('link', { name: 'Registry maintenance' }).click());
    await field(page, 'Prefix or name').fill(prefix);
    await visit(page, 'desk-registry-found', () => page.getByRole('button', { name: 'Find' }).click());
    await visit(page, 'desk-namespace', () => page.getByRole('link', { name: prefix, exact: true }).click());
    // Its changes start with the acceptance that made it.
    await expect(page.locator('#changes-heading + ol').textContent()).resolves.toContain('namespace.create by curator');

    // A field that breaks a rule gets the message next to it; fixed, the change is saved and logged.
    await field(page, 'Description (required)').fill('Too short');
    await visit(page, 'desk-namespace-refused', () => page.getByRole('button', { name: 'Save the namespace' }).click(), 422);
    await expect(page.locator('#edit-description-msg').textContent()).resolves.toBe('Description needs more than 50 characters');
    await expect(field(page, 'Description (required)').getAttribute('aria-invalid')).resolves.toBe('true');
    await field(page, 'Description (required)').fill(DESCRIPTION);
    await field(page, 'Name (required)').fill(`Renamed records ${prefix}`);
    await visit(page, 'desk-namespace-saved', () => page.getByRole('button', { name: 'Save the namespace' }).click());
    await expect(page.locator('.notice-ok').textContent()).resolves.toContain('Saved.');
    await expect(page.locator('#changes-heading + ol').textContent()).resolves.toContain('namespace.update: name by curator');

    await visit(page, 'desk-resource', () => page.getByRole('link', { name: `Example provider ${prefix}` }).click());
    await visit(page, 'desk-institution', () => page.getByRole('link', { name: `Institute of ${prefix}` }).first().click());

    // Keyboard users see where they are.
    await page.keyboard.press('Tab');
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline).not.toBe('none');

    // The curation warnings: a table of what they are about, each one's warnings below its row.
    const institution = (await areas.db('institutions').where({ name: `Institute of ${prefix}` }).first())!;
    const notified = await areas.registry.send({
      method: 'POST',
      path: '/curationApi/notifications',
      headers: { Authorization: `Bearer ${areas.curatorToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        apiVersion: '1.0',
        payload: [
          {
            targetType: 'institution',
            targetId: institution.id,
            globalId: `url-not-ok:institution:home-url:${institution.id}`,
            type: 'url-not-ok',
            details: { url: 'https://institute.example.org/', 'http-status': 503, error: 'Service Unavailable' },
          },
        ],
      }),
    });
    expect(notified.status).toBe(200);
    await visit(page, 'desk-warnings', () => page.getByRole('link', { name: 'Warnings', exact: true }).click());
    await expect(navigationBars(page)).resolves.toEqual(['Curator desk']);
    const warned = page.locator('table.warnings tr:not(.warning-details)', { has: page.getByRole('link', { name: `Institute of ${prefix}` }) });
    await expect(warned.locator('td').nth(1).textContent()).resolves.toBe('1');
    await page.getByText(`1 open warning of Institute of ${prefix}`).click();
    await expect(page.getByRole('link', { name: 'https://institute.example.org/' }).last().isVisible()).resolves.toBe(true);
    await saveScreenshot(page, 'desk-warnings-details');

    // The institutions: found by name; an unused one deleted, with its notice.
    const unused = unique('Unused institute ');
    await areas.db('institutions').insert({ name: unused, homeUrl: 'https://unused.example.org/', description: DESCRIPTION, locationCountryCode: 'GB' });
    await visit(page, 'desk-institutions', () => page.getByRole('link', { name: 'Institutions', exact: true }).click());
    await field(page, 'Name, or a part of it').fill(unused);
    await visit(page, 'desk-institutions-found', () => page.getByRole('button', { name: 'Find' }).click());
    await expect(page.locator('tbody tr').count()).resolves.toBe(1);
    await visit(page, 'desk-institution-deleted', () => page.getByRole('button', { name: `Delete ${unused}` }).click());
    await expect(page.locator('.notice-ok').textContent()).resolves.toContain('The institution was deleted.');
    expect(await areas.db('institutions').where({ name: unused }).first()).toBeUndefined();

    await visit(page, 'desk-signed-out', () => page.getByRole('button', { name: 'Sign out' }).click());
    await expect(page.locator('.notice-ok').textContent()).resolves.toBe('You have signed out.');
    await page.goto(`${registry}/curation`);
    expect(new URL(page.url()).pathname).toBe('/curation/sign-in');
  }, LONG);

  it('shows a request’s page on a phone without scrolling sideways', async () => {
    const phone = await openLoopbackPage(browser, { viewport: { width: 390, height: 844 } });
    try {
      const prefix = unique('bp');
      const sent = await areas.registry.send({
        method: 'POST',
        path: '/prefixRegistrationApi/registerPrefix',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          apiVersion: '1.0',
          payload: prefixRegistration(prefix, {
            providerHomeUrl: `https://${prefix}.example.org/a/rather/long/address/that/a/phone/cannot/show/on/one/line/${'x'.repeat(60)}`,
            additionalInformation: `See https://${prefix}.example.org/${'documentation/'.repeat(6)} for the licence.`,
          }),
        }),
      });
      expect(sent.status).toBe(200);
      const session = (await areas.db('prefixRegistrationSessions').where({ token: JSON.parse(sent.text).payload.token }).first())!;
      await signIn(phone.page, 'desk-phone-open-requests');
      await visit(phone.page, 'desk-phone-request', () => phone.page.goto(`${registry}/curation/requests/prefix/${session.id}`));
      const widths = await phone.page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: document.documentElement.clientWidth }));
      expect(widths.page).toBeLessThanOrEqual(widths.window);
      await expect(navigationBars(phone.page)).resolves.toEqual(['Curator desk']);
    } finally {
      await phone.context.close();
      expect(phone.refused).toEqual([]);
    }
  }, LONG);
});
