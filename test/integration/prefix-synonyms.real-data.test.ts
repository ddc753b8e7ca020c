/**
 * Prefix synonyms (issue 15 item 1) on the complete identifiers.org registry (REGISTRY_DATASET): with two
 * synonyms given to every namespace through the extension file's importer, every namespace's sample
 * identifier still resolves exactly as before (the same JSON text), and the same identifier written with a
 * synonym (in another case) answers the same resolved resources, the canonical prefix in
 * parsedCompactIdentifier and the synonym as written in prefixSynonym; over HTTP, the browser's redirect
 * through a synonym goes where the prefix's goes.
 */
import { readFile } from 'node:fs/promises';
import request from 'supertest';
import type { RegistrySnapshot } from '../../src/core/registry-snapshot.js';
import { resolveCompactId } from '../../src/core/resolve.js';
import { importSynonyms } from '../../src/importer/import-synonyms.js';
import { presentResolution, resolutionJson } from '../../src/resolver/resolution.presenter.js';
import { loadRegistry, refreshRegistry } from '../../src/resolver/snapshot-loader.js';
import { reverseResolverUrl } from '../../src/core/resolver-url-lookup.js';
import { REGISTRY_URL, RESOLVER_URL, startStack, type AreaStack } from '../support/areas.js';
import { describeRequiring, registryDataset } from '../support/requirements.js';
import { embeddedSpelling } from '../support/embedded-spelling.js';

const datasetFile = registryDataset();
const dataset = datasetFile.file ?? '';

interface DatasetNamespace {
  prefix: string;
  pattern: string;
  sampleId: string;
  namespaceEmbeddedInLui: boolean;
}

const spellingOf = (ns: DatasetNamespace): string => embeddedSpelling(ns) ?? ns.prefix;

/** The sample compact identifier, and its LUI after the namespace (the part a synonym is put before). */
function sampleOf(ns: DatasetNamespace): { curie: string; rest: string } {
  if (!ns.namespaceEmbeddedInLui) return { curie: `${ns.prefix}:${ns.sampleId}`, rest: ns.sampleId };
  return { curie: `${spellingOf(ns)}:${ns.sampleId}`, rest: ns.sampleId };
}

// A prefix holds lowercase letters, digits, '_' and '.', so neither of these is ever a prefix.
const synonymsOf = (prefix: string) => [`${prefix}-alt`, `alt-${prefix}`];

describeRequiring([datasetFile], 'prefix synonyms on the real identifiers.org registry', () => {
  let t: AreaStack;
  let records: DatasetNamespace[];
  let before: RegistrySnapshot;
  let after: RegistrySnapshot;
  const options = { publicRegistryUrl: REGISTRY_URL };

  beforeAll(async () => {
    records = JSON.parse(await readFile(dataset, 'utf8')) as DatasetNamespace[];
    t = await startStack('prefix_synonyms_real', { data: { file: dataset } });
    const loaded = await loadRegistry(t.db);
    before = loaded.snapshot;
    const summary = await importSynonyms(t.db, Object.fromEntries(records.map((ns) => [ns.prefix, synonymsOf(ns.prefix)])));
    expect(summary.skipped).toEqual([]);
    expect(summary.added).toBe(records.length * 2);
    after = (await refreshRegistry(t.db, loaded)).snapshot;
  }, 120_000);
  afterAll(() => t.close());

  it('maps every synonym to its namespace', () => {
    expect(after.namespacesBySynonym.size).toBe(records.length * 2);
    expect(after.namespacesByPrefix.size).toBe(records.length);
  });

  it("still answers every namespace's sample identifier with exactly the same JSON text", () => {
    const problems: string[] = [];
    for (const ns of records) {
      const { curie } = sampleOf(ns);
      const was = resolutionJson(resolveCompactId(curie, before, options));
      const now = resolutionJson(resolveCompactId(curie, after, options));
      if (now !== was) problems.push(curie);
      // The bare prefix (the namespace page) too.
      if (resolutionJson(resolveCompactId(ns.prefix, after, options)) !== resolutionJson(resolveCompactId(ns.prefix, before, options))) problems.push(ns.prefix);
    }
    expect(problems).toEqual([]);
  });

  it('answers the sample identifier written with a synonym with the same resources and the canonical prefix', () => {
    const problems: string[] = [];
    let compared = 0;
    for (const ns of records) {
      const { curie, rest } = sampleOf(ns);
      const canonical = presentResolution(resolveCompactId(curie, after, options));
      for (const [i, synonym] of synonymsOf(ns.prefix).entries()) {
        // One of them in upper case: synonyms are read whatever their case, as prefixes are.
        const typed = i === 0 ? synonym.toUpperCase() : synonym;
        const raw = `${typed}:${rest}`;
        const resolution = resolveCompactId(raw, after, options);
        const answer = presentResolution(resolution);
        if (resolutionJson(resolution) !== JSON.stringify(answer.body)) problems.push(`${raw}: serialised text differs`);
        if (answer.status !== canonical.status) {
          problems.push(`${raw}: ${answer.status} where ${curie} answers ${canonical.status}`);
          continue;
        }
        if (canonical.status !== 200) continue;
        const payload = answer.body.payload;
        if (JSON.stringify(payload.resolvedResources) !== JSON.stringify(canonical.body.payload.resolvedResources)) problems.push(`${raw}: other resources`);
        const expectedParse = { ...canonical.body.payload.parsedCompactIdentifier, rawRequest: raw };
        if (JSON.stringify(payload.parsedCompactIdentifier) !== JSON.stringify(expectedParse)) {
          problems.push(`${raw}: parsed ${JSON.stringify(payload.parsedCompactIdentifier)}, want ${JSON.stringify(expectedParse)}`);
        }
        if (payload.prefixSynonym !== typed) problems.push(`${raw}: prefixSynonym ${String(payload.prefixSynonym)}`);
        compared++;
      }
    }
    expect(problems).toEqual([]);
    expect(compared).toBeGreaterThan(records.length * 2 - 10);
  });

  it("reverse-looks up every sample identifier's identifiers.org URL, written with a synonym, to the canonical one", () => {
    const problems: string[] = [];
    for (const ns of records) {
      const { curie, rest } = sampleOf(ns);
      const canonical = resolveCompactId(curie, after, options);
      if (canonical.kind !== 'resolved') continue;
      // The LUI percent-encoded, as in any URL (sample ids hold `#`, `%`, `/`).
      const match = reverseResolverUrl(`https://identifiers.org/${synonymsOf(ns.prefix)[0]}:${encodeURIComponent(rest)}`, after, RESOLVER_URL);
      const { namespace, localId } = canonical.parsedCompactIdentifier;
      const expected = ns.namespaceEmbeddedInLui ? localId : `${namespace}:${localId}`;
      if (match?.prefix !== ns.prefix || match.possible_resolver_curie !== expected) problems.push(`${curie}: ${JSON.stringify(match)}`);
    }
    expect(problems).toEqual([]);
  });

  it('redirects a browser through a synonym where the prefix redirects it (a sample over HTTP)', async () => {
    const app = (await t.resolverApp({ registry: { snapshot: after, staleReason: null } })).koa.callback();
    const problems: string[] = [];
    for (const ns of records.filter((_, position) => position % 10 === 0)) {
      const { curie, rest } = sampleOf(ns);
      const canonical = await request(app).get(`/${curie}`).set('Accept', 'text/html');
      const viaSynonym = await request(app).get(`/${synonymsOf(ns.prefix)[1]}:${rest}`).set('Accept', 'text/html');
      if (viaSynonym.status !== canonical.status || viaSynonym.headers.location !== canonical.headers.location) {
        problems.push(`${curie}: ${canonical.status} ${canonical.headers.location} vs ${viaSynonym.status} ${viaSynonym.headers.location}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
