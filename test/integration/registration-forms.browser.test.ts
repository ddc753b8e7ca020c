/**
 * The request forms and the requester's status page in real Chromium, on loopback: a prefix request typed
 * field by field (a wrong field shows the validator's message as it is typed, is fixed, and the request is
 * sent), its status page with a curator's comment and the requester's answer; the same form sent without
 * JavaScript; the namespace suggestions of a provider request. Every page passes axe-core without a
 * serious or critical violation (where scripts run) and ships at most 30 KB of JavaScript and of CSS; each
 * is photographed into test/artifacts/.
 */
import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { unique } from '../factories/registration.factory.js';
import { startStack, type AreaStack } from '../support/areas.js';
import { chromiumBrowser, launchChromium, openLoopbackPage, saveScreenshot, seriousAxeViolations, visitPage, type LoopbackPage } from '../support/browser.js';
import { startRawServer, type RawServer } from '../support/raw-http.js';
import { describeRequiring } from '../support/requirements.js';
import { regexpChecks } from '../support/stand-in-checks.js';

const LONG = 90_000;
const CURATOR_TOKEN = randomBytes(24).toString('hex');
const DESCRIPTION = 'A collection of example records, described at length for the curators of the registry.';

describeRequiring([chromiumBrowser()], 'the request forms in a browser', () => {
  let stack: AreaStack;
  let server: RawServer;
  let browser: Browser;
  let tab: LoopbackPage;
  let page: Page;
  let registry: string;

  beforeAll(async () => {
    stack = await startStack('forms_browser', { env: { CURATOR_TOKEN } });
    server = await startRawServer(stack.registryApp({ registration: regexpChecks }).callback());
    registry = `http://127.0.0.1:${server.port}`;
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await stack?.close();
  });

  async function openTab(javaScriptEnabled = true): Promise<void> {
    tab = await openLoopbackPage(browser, { javaScriptEnabled });
    page = tab.page;
  }
  afterEach(async () => {
    await tab?.context.close();
    expect(tab.refused).toEqual([]);
  });

  const visit = (name: string, action: () => Promise<unknown>, status = 200, scripts = true) => visitPage(page, name, action, { status, scripts });

  const message = (field: string) => page.locator(`#f-${field}-msg`);
  /** A form field by its whole label ("Name (required)" is not "Provider name (required)"). */
  const field = (label: string) => page.getByLabel(label, { exact: true });

  /** Types into a field, leaves it (its check runs), and waits for the check's verdict. */
  /** Waits until the message next to a field reads `text` (the checks answer in their own time). */
  async function messageReads(name: string, text: string): Promise<void> {
    await page.waitForFunction(([id, expected]) => document.getElementById(id!)?.textContent === expected, [`f-${name}-msg`, text]);
  }

  /** Types into a field and leaves it (its check runs), then waits for the check of this value. */
  async function typeField(label: string, text: string): Promise<void> {
    const input = field(label);
    const validator = await input.getAttribute('data-validate');
    await input.fill(text);
    const answered = page.waitForResponse((r) => r.url().endsWith(`/${validator}`) && (r.request().postData() ?? '').includes(JSON.stringify(text)));
    await input.blur();
    await answered;
  }

  /** Every field of a valid prefix request, as a person fills it in (the description given by the caller). */
  async function fillPrefixRequest(prefix: string, description: string, typing: (label: string, text: string) => Promise<void>): Promise<void> {
    await typing('Name (required)', `Example records ${prefix}`);
    await typing('Description (required)', description);
    await typing('Requested prefix (required)', prefix);
    await typing('Provider name (required)', `Example provider ${prefix}`);
    await typing('Provider description (required)', DESCRIPTION);
    await typing('Provider home page (required)', `https://${prefix}.example.org/`);
    await typing('Provider URL pattern (required)', `https://${prefix}.example.org/items/{$id}`);
    await typing('Sample identifier (required)', '12345');
    await typing('Identifier pattern (required)', '^\\d+$');
    await typing('Provider code (required)', `p${prefix}`);
    await typing('Provider country (required)', 'GB');
    await typing('Institution name (required)', 'Example institute');
    await typing('Institution description (required)', DESCRIPTION);
    await typing('Institution home page (required)', 'https://institute.example.org/');
    await typing('Institution country (required)', 'GB');
    await typing('Your name (required)', 'Ann Example');
    await typing('Your e-mail address (required)', 'ann@example.org');
  }

  async function curatorComments(token: string, comment: string): Promise<void> {
    const session = await stack.db('prefixRegistrationSessions').where({ token }).first();
    const answer = await server.send({
      method: 'POST',
      path: `/prefixRegistrationApi/commentPrefixRegistrationRequest/${session.id}`,
      headers: { authorization: `Bearer ${CURATOR_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: '1.0', payload: { comment } }),
    });
    expect(answer.status).toBe(200);
  }

  it('checks a prefix request field by field as it is typed, sends it, and follows it on its status page', async () => {
    await openTab();
    await visit('prefix-request-form', () => page.goto(`${registry}/prefixregistrationrequest`));
    const prefix = unique('br');

    // A wrong field gets the validator's message next to it as it is typed, in plain words under the form's
    // labels (the JSON API says "Description MUST be longer than 50 characters"), and loses it once fixed.
    const description = field('Description (required)');
    await description.pressSequentially('Too short', { delay: 15 });
    await message('description').filter({ hasText: 'Description needs more than 50 characters' }).waitFor();
    await expect(description.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(message('description').getAttribute('aria-live')).resolves.toBe('polite');
    await expect(description.getAttribute('aria-describedby')).resolves.toContain('f-description-msg');
    await typeField('Requested prefix (required)', 'taxonomy');
    await messageReads('requestedPrefix', 'The prefix “taxonomy” is taken: a namespace has it already');
    await typeField('Provider URL pattern (required)', 'https://example.org/items/');
    await messageReads('providerUrlPattern', 'Provider URL pattern must contain {$id} where the identifier goes');
    await saveScreenshot(page, 'prefix-request-form-messages');
    expect(await seriousAxeViolations(page)).toEqual([]);

    await fillPrefixRequest(prefix, DESCRIPTION, typeField);
    await messageReads('description', '');
    await expect(description.getAttribute('aria-invalid')).resolves.toBeNull();
    await messageReads('requestedPrefix', '');

    // The ROR id fills the institution from the registry's own institutions.
    await field('ROR id (optional)').fill('02catss52');
    await page.getByRole('button', { name: 'Look up' }).click();
    await message('institutionRorId').filter({ hasText: 'Filled in from the registry' }).waitFor();
    await expect(field('Institution name (required)').inputValue()).resolves.toBe('European Bioinformatics Institute');
    await expect(field('Institution country (required)').inputValue()).resolves.toBe('GB');
    await saveScreenshot(page, 'prefix-request-form-filled');

    await visit('request-status-sent', () => page.getByRole('button', { name: 'Send the request' }).click());
    expect(new URL(page.url()).pathname).toMatch(/^\/requests\/[A-Za-z0-9_-]{43}$/);
    await expect(page.locator('h1').textContent()).resolves.toBe(`Request for prefix “${prefix}”`);
    await expect(page.locator('.notice-ok').textContent()).resolves.toContain('Your request was sent.');
    await expect(page.locator('dl.facts').first().textContent()).resolves.toContain('Under review');
    await expect(page.locator('main').textContent()).resolves.not.toContain('ann@example.org');
    const token = new URL(page.url()).pathname.split('/')[2]!;

    // A curator asks; the requester answers on the page.
    await curatorComments(token, 'Which licence do the records have?');
    await visit('request-status-comment', () => page.goto(`${registry}/requests/${token}`));
    await expect(page.locator('ol.history').textContent()).resolves.toContain('Which licence do the records have?');
    await field('Your answer or more information').fill('CC BY 4.0, as the home page says.');
    await visit('request-status-answered', () => page.getByRole('button', { name: 'Send the answer' }).click());
    await expect(page.locator('.notice-ok').textContent()).resolves.toBe('Your answer was sent to the curators.');
    await expect(page.locator('ol.history li.by-requester blockquote').textContent()).resolves.toBe('CC BY 4.0, as the home page says.');
    const events = await stack.db('prefixRegistrationSessionEvents').join('prefixRegistrationSessions', 'prefixRegistrationSessions.id', 'sessionId').where({ token });
    expect(events.map((e: { eventName: string; actor: string }) => `${e.eventName} ${e.actor}`)).toEqual(['START ANONYMOUS', 'COMMENT curator', 'COMMENT REQUESTER']);
  }, LONG);

  it('draws a refused text, web address or e-mail field with the red border, as a refused description', async () => {
    await openTab();
    await visit('prefix-request-form-red-borders', () => page.goto(`${registry}/prefixregistrationrequest`));
    const borderOf = (label: string) => field(label).evaluate((element) => getComputedStyle(element).borderTopColor);
    const red = await page.evaluate(() => {
      const probe = document.createElement('span');
      probe.style.color = getComputedStyle(document.documentElement).getPropertyValue('--bad');
      document.body.append(probe);
      const color = getComputedStyle(probe).color;
      probe.remove();
      return color;
    });
    const untouched = await borderOf('Requested prefix (required)');
    expect(untouched).not.toBe(red);
    for (const [label, name, text] of [
      ['Requested prefix (required)', 'requestedPrefix', 'Not A Prefix!'],
      ['Provider home page (required)', 'providerHomeUrl', 'not an address'],
      ['Your e-mail address (required)', 'requesterEmail', 'not-an-address'],
      ['Description (required)', 'description', 'Too short'],
    ] as const) {
      await typeField(label, text);
      // The script marks the field once it has read the answer.
      await page.waitForFunction((id) => document.getElementById(id)?.getAttribute('aria-invalid') === 'true', `f-${name}`);
      expect([label, await borderOf(label)]).toEqual([label, red]);
    }
    await saveScreenshot(page, 'prefix-request-form-red-borders');
  }, LONG);

  it('sends the same form without JavaScript: the server checks it, keeps the values, and sends it once fixed', async () => {
    await openTab(false);
    await visit('prefix-request-form-without-javascript', () => page.goto(`${registry}/prefixregistrationrequest`), 200, false);
    const prefix = unique('nj');
    await fillPrefixRequest(prefix, 'Too short', (label, text) => field(label).fill(text));
    // Enter in a field sends the request (the form's default button), not the ROR lookup.
    await field('ROR id (optional)').fill('02catss52');
    await visit('prefix-request-refused-without-javascript', () => field('Name (required)').press('Enter'), 422, false);
    await expect(page.locator('.error-summary').textContent()).resolves.toContain('Description needs more than 50 characters');
    await expect(message('description').textContent()).resolves.toBe('Description needs more than 50 characters');
    await expect(field('Requested prefix (required)').inputValue()).resolves.toBe(prefix);
    await expect(field('Provider URL pattern (required)').inputValue()).resolves.toBe(`https://${prefix}.example.org/items/{$id}`);

    await field('Description (required)').fill(DESCRIPTION);
    await visit('request-status-without-javascript', () => page.getByRole('button', { name: 'Send the request' }).click(), 200, false);
    expect(new URL(page.url()).pathname).toMatch(/^\/requests\//);
    await expect(page.locator('h1').textContent()).resolves.toBe(`Request for prefix “${prefix}”`);
    expect(await stack.db('prefixRegistrationRequests').where({ requestedPrefix: prefix }).select('id')).toHaveLength(1);
  }, LONG);

  it('suggests namespaces for a provider request and checks the chosen prefix', async () => {
    await openTab();
    await visit('resource-request-form', () => page.goto(`${registry}/resourceregistrationrequest`));
    const box = field('Prefix of the namespace (required)');
    await box.pressSequentially('ncbig', { delay: 20 });
    await page.getByRole('option', { name: /^ncbigene — / }).waitFor();
    await expect(box.getAttribute('aria-expanded')).resolves.toBe('true');
    await saveScreenshot(page, 'resource-request-suggestions');
    const checked = page.waitForResponse(
      (r) => r.url().endsWith('/resourceregistrationrequest/check/validateNamespacePrefix') && (r.request().postData() ?? '').includes('"ncbigene"'),
    );
    await page.getByRole('option', { name: /^ncbigene — / }).click();
    expect((await checked).status()).toBe(200);
    await expect(box.inputValue()).resolves.toBe('ncbigene');
    await messageReads('namespacePrefix', '');
    expect(await seriousAxeViolations(page)).toEqual([]);
  }, LONG);
});
