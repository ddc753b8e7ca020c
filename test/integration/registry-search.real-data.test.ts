/**
 * The registry search on the complete identifiers.org registry (REGISTRY_DATASET), issue 23 item 5: "protein"
 * put the deprecated AspGD Protein first, five deprecated namespaces among the first twenty, and no UniProt
 * on the first page. Now the prefix that is the text comes first, live namespaces before deprecated ones,
 * names before descriptions, and a year of use weighs in: UniProt (whose description, not its name, says
 * protein) is on the first page once it is used as much more than the little-used "X Protein" namespaces as
 * it is at identifiers.org.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import request from 'supertest';
import { refreshUsageTotals } from '../../src/db/usage-totals.js';
import { startRegistry, type RegistryUnderTest } from '../support/areas.js';
import { describeRequiring, registryDataset } from '../support/requirements.js';

const datasetFile = registryDataset();
const dataset = datasetFile.file ?? '';
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

interface Hit {
  prefix: string;
  deprecated: boolean;
}

/**
 * A year of visits: the registry's most used namespaces a million or so, every other one between none and
 * two thousand (the same figures on every run, from a hash of its prefix).
 */
const POPULAR: Readonly<Record<string, number>> = {
  go: 3_000_000,
  uniprot: 2_000_000,
  pdb: 1_500_000,
  pubmed: 1_200_000,
  taxonomy: 1_000_000,
  chebi: 900_000,
  ensembl: 700_000,
  ncbiprotein: 600_000,
  interpro: 300_000,
  pfam: 250_000,
};
const longTail = (prefix: string) => createHash('sha256').update(prefix).digest().readUInt16BE(0) % 2001;

describeRequiring([datasetFile], 'the registry search on the real identifiers.org registry', () => {
  let t: RegistryUnderTest;
  let app: RequestListener;
  let deprecated: Set<string>;

  beforeAll(async () => {
    const records = JSON.parse(readFileSync(dataset, 'utf8')) as Hit[];
    deprecated = new Set(records.filter((ns) => ns.deprecated).map((ns) => ns.prefix));
    t = await startRegistry('registry_search_real', { data: { file: dataset } });
    app = t.app;
  }, 120_000);
  afterAll(() => t?.close());

  const search = async (q: string, size: number, page = 0): Promise<{ total: number; results: Hit[] }> =>
    (await request(app).get('/registry/search').query({ q, size, page })).body as { total: number; results: Hit[] };

  /** Every hit, a hundred (the most one answer gives) at a time; `size` picks answers apart from other tests'. */
  async function allHits(q: string, size: number): Promise<Hit[]> {
    const hits: Hit[] = [];
    for (let page = 0; ; page++) {
      const { total, results } = await search(q, size, page);
      hits.push(...results);
      if (hits.length >= total || results.length === 0) return hits;
    }
  }

  /** Every deprecated hit comes after every live one. */
  function expectLiveFirst(hits: readonly Hit[]): void {
    const firstDeprecated = hits.findIndex((hit) => hit.deprecated);
    expect(firstDeprecated).toBeGreaterThan(0);
    expect(hits.slice(firstDeprecated).filter((hit) => !hit.deprecated).map((hit) => hit.prefix)).toEqual([]);
  }

  it('puts the prefix that is the text first, live namespaces before deprecated ones, names before descriptions', async () => {
    for (const prefix of ['go', 'pdb', 'uniprot', 'taxonomy', 'aspgd.protein']) {
      const { results } = await search(prefix.toUpperCase(), 5);
      expect([prefix, results[0]?.prefix]).toEqual([prefix, prefix]);
    }
    const results = await allHits('protein', 100);
    expect(results.length).toBeGreaterThan(100);
    expectLiveFirst(results);
    expect(results.slice(0, 20).filter((hit) => hit.deprecated)).toEqual([]);
    for (const hit of results) expect([hit.prefix, hit.deprecated]).toEqual([hit.prefix, deprecated.has(hit.prefix)]);
    // Without figures of use, every live namespace naming protein comes before UniProt, which only describes it.
    const uniprot = results.findIndex((hit) => hit.prefix === 'uniprot');
    const named = ['pdb', 'ncbiprotein', 'pr', 'tair.protein', 'mgnify.protein'].map((prefix) => results.findIndex((hit) => hit.prefix === prefix));
    for (const position of named) expect(position).toBeLessThan(uniprot);
  });

  it('weighs a year of use in: UniProt is on the first page of "protein", deprecated namespaces still last', async () => {
    const prefixes = (await t.db('namespaces').select('prefix')).map((row: { prefix: string }) => row.prefix);
    const lastMonth = new Date(Date.now() - 30 * 86400_000).toISOString().slice(0, 10);
    const rows = prefixes.map((prefix) => ({ day: lastMonth, prefix, visits: POPULAR[prefix] ?? longTail(prefix), uniqueVisitors: 1 }));
    await t.db('usage_daily').insert(rows);
    await refreshUsageTotals(t.db);

    // Other page sizes than the test above asked, so not its answers: the search keeps answers per registry
    // version (for 10 s here), which figures of use do not move.
    const page = await request(app).get('/registry?q=protein').set('Accept', BROWSER);
    const shown = [...page.text.matchAll(/<li><a href="\/registry\/([^"]+)">/g)].map((m) => decodeURIComponent(m[1]!));
    expect(shown).toHaveLength(20);
    expect(shown).toContain('uniprot');
    expect(shown.filter((prefix) => deprecated.has(prefix))).toEqual([]);
    expect(page.text).not.toContain('<span class="badge deprecated">');

    const results = await allHits('protein', 99);
    expectLiveFirst(results);
    expect(results.slice(0, 20).map((hit) => hit.prefix)).toEqual(shown);
    // The most used of the namespaces naming protein lead.
    expect(results.slice(0, 2).map((hit) => hit.prefix).sort()).toEqual(['ncbiprotein', 'pdb']);
    expect((await search('GO', 7)).results[0]!.prefix).toBe('go');
  });
});
