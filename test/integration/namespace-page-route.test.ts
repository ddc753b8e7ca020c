/**
 * The namespace page answers a researcher's first question: where does following an identifier take me, and
 * why? It names the provider the resolver redirects the sample identifier to, with the resolver's own
 * explanation, writes the identifier as its community does (`GO:0006915`, not `go:0006915`), and shows how
 * to pick another provider. The page's answer is checked against the resolver's redirect, for every
 * namespace of the sample registry and after link checks change the ranking.
 */
import request from 'supertest';
import { announceLinkChecks } from '../../src/db/link-check-changes.js';
import { startStack, type AreaStack } from '../support/areas.js';
import { waitFor } from '../support/wait.js';
import type { RequestListener } from 'node:http';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

let t: AreaStack;
let registry: RequestListener;
let resolver: RequestListener;

beforeAll(async () => {
  t = await startStack('namespace_page_route');
  registry = t.registryApp().callback();
  resolver = (await t.resolverApp()).koa.callback();
});
afterAll(() => t.close());

/** The page's text without tags and buttons (a space for each block's end), white space collapsed. */
function words(html: string): string {
  return html
    .replace(/<\/(dt|dd|p|li|h\d)>/g, ' ')
    .replace(/<button[^>]*>[^<]*<\/button>/g, '')
    .replace(/<[^>]+>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

async function page(prefix: string): Promise<string> {
  const res = await request(registry).get(`/registry/${prefix}`).set('Accept', BROWSER);
  expect(res.status).toBe(200);
  return res.text;
}

/** The sample link of a namespace page, and the provider its "where it takes you" names (by resource id). */
function routeOf(html: string): { sampleHref: string; chosenId: number | null } {
  const sampleHref = /<a href="([^"]+)" class="sample-link">/.exec(html)![1]!;
  const chosen = /takes you to <a href="#resource-(\d+)">/.exec(html);
  return { sampleHref, chosenId: chosen ? Number(chosen[1]) : null };
}

/** Where the resolver redirects a browser for the compact identifier at `href`. */
async function redirectOf(href: string): Promise<string> {
  const path = href.slice('https://resolver.test'.length);
  const res = await request(resolver).get(path).set('Accept', 'text/html');
  expect(res.status).toBe(302);
  return res.headers.location as string;
}

/** The address the resolver's JSON answer gives the resource `resourceId` for the compact identifier at `href`. */
async function resolvedUrlOf(href: string, resourceId: number): Promise<string | undefined> {
  const res = await request(resolver).get(href.slice('https://resolver.test'.length));
  expect(res.status).toBe(200);
  const resources = res.body.payload.resolvedResources as { id: number; compactIdentifierResolvedUrl: string }[];
  return resources.find((r) => r.id === resourceId)?.compactIdentifierResolvedUrl;
}

describe('where an identifier takes you', () => {
  it('names the provider the resolver sends GO:0006915 to, with its explanation, and how to pick another', async () => {
    const html = await page('go');
    const text = words(html);
    expect(text).toContain('GO:0006915 takes you to AmiGO 2 (official 100, no availability measured yet (counted as 50), not hosted at EBI).');
    expect(text).toContain('To go to another provider, put its code before the identifier: quickgo/GO:0006915');
    expect(html).toContain('class="sample-link">GO:0006915</a>');
    expect(html).toContain('<a href="https://resolver.test/GO:0006915" class="sample-link">');
    // Each provider with a code is given the compact identifier that picks it, and its address.
    expect(text).toContain('Pick it with quickgo/GO:0006915 at https://resolver.test/quickgo/GO:0006915');
    expect(text).toContain('Pick it with amigo/GO:0006915');
    // A Copy button beside each identifier and each address.
    expect(html).toContain('data-copy="quickgo/GO:0006915" aria-label="Copy quickgo/GO:0006915"');
    expect(html).toContain('data-copy="https://resolver.test/quickgo/GO:0006915" aria-label="Copy the address of quickgo/GO:0006915"');
    expect(html).not.toContain('go:0006915');
  });

  it('writes embedded identifiers as their communities do, matching the pattern shown beside them', async () => {
    expect(await page('chebi')).toContain('class="sample-link">CHEBI:36927</a>');
    expect(await page('taxonomy')).toContain('class="sample-link">taxonomy:9606</a>');
    // The sample is stored with its prefix's spelling already: not prefixed twice.
    expect(await page('did')).toContain('class="sample-link">did:sov:WRfXPg8dantKVubE3HX8pw</a>');
  });

  it('names the official provider pdb resolves to, though five others are listed before it', async () => {
    const html = await page('pdb');
    expect(words(html)).toMatch(/2gc4 takes you to Worldwide Protein Data Bank \(official 100/);
    expect(html).toContain('class="provider chosen"');
  });

  it('says for every namespace of the sample registry what the resolver does with its sample identifier', async () => {
    const prefixes = (await t.db('namespaces').pluck('prefix')) as string[];
    expect(prefixes.length).toBeGreaterThan(20);
    for (const prefix of prefixes) {
      const html = await page(prefix);
      const { sampleHref, chosenId } = routeOf(html);
      if (chosenId === null) continue;
      expect({ prefix, goesTo: await redirectOf(sampleHref) }).toEqual({ prefix, goesTo: await resolvedUrlOf(sampleHref, chosenId) });
    }
  });

  it('follows the link checks as the resolver does: a provider whose sample page is gone for days is passed over', async () => {
    const amigo = (await t.db('resources').where({ name: 'AmiGO 2' }).first('id'))!.id as number;
    await t.db('link_check_runs').insert({ id: 'run-route', planned: 10 });
    for (const age of ['4 days', '3 days', '2 days', '1 day', '1 hour']) {
      await t.db('link_checks').insert({
        resourceId: amigo,
        urlKind: 'sample',
        url: 'https://amigo.example/GO:0006915',
        checkedAt: t.db.raw('now() - ?::interval', [age]),
        outcome: 'not_found',
        httpStatus: 404,
      });
    }
    await announceLinkChecks(t.db);
    // The page's link checks are kept a minute: a new registry area reads them afresh.
    const fresh = t.registryApp().callback();
    const html = (await request(fresh).get('/registry/go').set('Accept', BROWSER)).text;
    const { sampleHref, chosenId } = routeOf(html);
    expect(chosenId).not.toBe(amigo);
    expect(chosenId).not.toBeNull();
    const chosenUrl = await resolvedUrlOf(sampleHref, chosenId!);
    await waitFor(async () => (await redirectOf(sampleHref)) === chosenUrl, {
      timeoutMs: 10_000,
      what: 'the resolver sending GO:0006915 where the page says',
    });
  });
});
