/**
 * Canonical LUIs against the complete identifiers.org dataset (REGISTRY_DATASET, e.g.
 * ../shared/data/identifiers-org-registry.json): the importer stores the rules each pattern calls for; every
 * namespace's sample identifier is left alone by its rules and resolves byte for byte as without them; the
 * non-canonical variants its rules undo (the LUI in the other case, a redundant prefix, without its zero
 * padding, all three at once) resolve to the sample's providers and echo the sample's compact identifier;
 * a trailing `/` keeps the reference's 400; a browser is redirected where the canonical form sends it.
 */
import { readFile } from 'node:fs/promises';
import type { RequestListener } from 'node:http';
import request from 'supertest';
import { applyLuiRules, deriveLuiRules, type LuiRules } from '../../src/core/lui-rules.js';
import { buildSnapshot, type NamespaceEntry, type RegistrySnapshot } from '../../src/core/registry-snapshot.js';
import { resolveCompactId, type Resolution } from '../../src/core/resolve.js';
import { resolutionJson } from '../../src/resolver/resolution.presenter.js';
import { loadRegistry } from '../../src/resolver/snapshot-loader.js';
import { REGISTRY_URL, startStack, type AreaStack } from '../support/areas.js';
import { describeRequiring, registryDataset } from '../support/requirements.js';
import { requiredEmbeddedSpelling } from '../support/embedded-spelling.js';

const datasetFile = registryDataset();
const dataset = datasetFile.file ?? '';

interface DatasetNamespace {
  prefix: string;
  pattern: string;
  sampleId: string;
  namespaceEmbeddedInLui: boolean;
}

const embeddedSpelling = requiredEmbeddedSpelling;

/** The sample compact identifier and its LUI. */
function sampleOf(ns: DatasetNamespace): { curie: string; lui: string } {
  if (!ns.namespaceEmbeddedInLui) return { curie: `${ns.prefix}:${ns.sampleId}`, lui: ns.sampleId };
  const lui = `${embeddedSpelling(ns)}:${ns.sampleId}`;
  return { curie: lui, lui };
}

const swapCase = (text: string, fold: 'upper' | 'lower') =>
  fold === 'upper' ? text.replace(/[A-Z]+/g, (s) => s.toLowerCase()) : text.replace(/[a-z]+/g, (s) => s.toUpperCase());

/** The LUI without the zero padding its rule restores (`GO:0006915` → `GO:6915`), or null when it has none. */
function unpadded(lui: string, rules: LuiRules): string | null {
  const pad = rules.zeroPad;
  if (!pad || !lui.startsWith(pad.head)) return null;
  const digits = lui.slice(pad.head.length);
  const trimmed = digits.replace(/^0+(?=\d)/, '');
  return trimmed === digits ? null : pad.head + trimmed;
}

/** The non-canonical compact identifiers the namespace's rules should bring back to its sample, by kind. */
function variantsOf(ns: DatasetNamespace, rules: LuiRules): [string, string][] {
  const { curie, lui } = sampleOf(ns);
  const compact = (l: string) => (ns.namespaceEmbeddedInLui ? l : `${ns.prefix}:${l}`);
  const variants: [string, string][] = [];
  let all = lui;
  if (rules.fold) {
    all = swapCase(lui, rules.fold);
    if (all !== lui) variants.push(['case', compact(all)]);
  }
  const short = unpadded(all, rules) ?? unpadded(lui, rules);
  if (short !== null) {
    variants.push(['padding', compact(unpadded(lui, rules) ?? lui)]);
    all = short;
  }
  if (rules.stripPrefix) {
    variants.push(['prefix', `${ns.prefix}:${curie}`]);
    all = `${ns.prefix}:${compact(all)}`;
  } else all = compact(all);
  if (!variants.some(([, v]) => v === all) && all !== curie) variants.push(['all', all]);
  return variants;
}

describeRequiring([datasetFile], 'canonical LUIs on the real identifiers.org registry', () => {
  let t: AreaStack;
  let records: DatasetNamespace[];
  let snapshot: RegistrySnapshot;
  let withoutRules: RegistrySnapshot;
  let app: RequestListener;
  const options = { publicRegistryUrl: REGISTRY_URL };
  const entryOf = (ns: DatasetNamespace): NamespaceEntry => snapshot.namespacesByPrefix.get(ns.prefix.toLowerCase())!;
  const resolveOn = (on: RegistrySnapshot, raw: string): Resolution => resolveCompactId(raw, on, options);

  beforeAll(async () => {
    records = JSON.parse(await readFile(dataset, 'utf8')) as DatasetNamespace[];
    t = await startStack('lui_rules_real', { data: { file: dataset } });
    snapshot = (await loadRegistry(t.db)).snapshot;
    // The same registry as a resolver without canonical LUIs would hold it.
    withoutRules = buildSnapshot(snapshot.version, [...snapshot.namespacesByPrefix.values()].map((ns) => ({ ...ns, luiRules: null })));
    app = (await t.resolverApp({ registry: { snapshot, staleReason: null } })).koa.callback();
  }, 120_000);
  afterAll(() => t.close());

  it('stores the rules each pattern calls for with every imported namespace', async () => {
    const rows = await t.db('namespaces').select('prefix', 'pattern', 'luiRules');
    expect(rows).toHaveLength(records.length);
    const wrong = rows.filter((row) => JSON.stringify(row.luiRules) !== JSON.stringify(sortedKeys(deriveLuiRules(row))));
    expect(wrong).toEqual([]);
  });

  it("leaves every namespace's sample LUI as it is, and resolves it byte for byte as without rules", () => {
    const problems: string[] = [];
    for (const ns of records) {
      const { curie, lui } = sampleOf(ns);
      const rules = entryOf(ns).luiRules;
      if (rules && applyLuiRules(rules, ns.prefix, lui) !== lui) problems.push(`${curie}: rules give ${applyLuiRules(rules, ns.prefix, lui)}`);
      const text = resolutionJson(resolveOn(snapshot, curie));
      if (text !== resolutionJson(resolveOn(withoutRules, curie))) problems.push(`${curie}: answer differs`);
      if (text.includes('canonicalCompactIdentifier')) problems.push(`${curie}: canonicalised`);
    }
    expect(problems).toEqual([]);
  });

  it("resolves the non-canonical variants of every sample to the sample's providers, echoing its compact identifier", () => {
    const problems: string[] = [];
    const tested: Record<string, number> = { case: 0, padding: 0, prefix: 0, all: 0 };
    let validAsTyped = 0;
    for (const ns of records) {
      const { curie, lui } = sampleOf(ns);
      const sample = resolveOn(snapshot, curie);
      if (sample.kind !== 'resolved') continue; // the two namespaces whose sample fails its own pattern
      const rules = entryOf(ns).luiRules;
      if (!rules) continue;
      for (const [kind, variant] of variantsOf(ns, rules)) {
        // A variant the pattern takes as typed is not one the rules are for (and answers as it always did).
        if (resolveOn(withoutRules, variant).kind === 'resolved') {
          validAsTyped++;
          continue;
        }
        tested[kind]!++;
        const got = resolveOn(snapshot, variant);
        if (got.kind !== 'resolved') {
          problems.push(`${variant} (${kind}): ${got.message}`);
          continue;
        }
        if (got.canonicalCompactIdentifier !== curie) problems.push(`${variant} (${kind}): canonical ${got.canonicalCompactIdentifier}, want ${curie}`);
        if (got.parsedCompactIdentifier.localId !== lui) problems.push(`${variant} (${kind}): localId ${got.parsedCompactIdentifier.localId}`);
        if (JSON.stringify(got.resolvedResources) !== JSON.stringify(sample.resolvedResources)) problems.push(`${variant} (${kind}): other resources`);
      }
    }
    expect(problems).toEqual([]);
    console.log(`canonicalised variants: ${JSON.stringify(tested)}; valid as typed, left alone: ${validAsTyped}`);
    expect(tested.case).toBeGreaterThan(250);
    expect(tested.padding).toBeGreaterThan(50);
    expect(tested.prefix).toBeGreaterThan(800);
  });

  it('keeps the 400 of a trailing slash, on every sample and on its variants', () => {
    const problems: string[] = [];
    let refused = 0;
    for (const ns of records) {
      const rules = entryOf(ns).luiRules;
      const { curie } = sampleOf(ns);
      // A pattern that takes a trailing slash (ark, inchi, mzspec...) takes it on the canonical form too.
      if (resolveOn(withoutRules, `${curie}/`).kind === 'resolved') continue;
      const raws = [curie, ...(rules ? variantsOf(ns, rules).map(([, v]) => v) : [])].map((raw) => `${raw}/`);
      for (const raw of raws) {
        const got = resolveOn(snapshot, raw);
        const before = resolveOn(withoutRules, raw);
        if (before.kind === 'resolved') continue;
        refused++;
        if (got.kind === 'resolved') problems.push(`${raw}: resolved`);
        else if (resolutionJson(got) !== resolutionJson(before)) problems.push(`${raw}: ${got.message}`);
      }
    }
    expect(problems).toEqual([]);
    expect(refused).toBeGreaterThan(2000);
  });

  it('answers over HTTP as the core does, and redirects a browser where the canonical form sends it', async () => {
    const sample = records.filter((_, position) => position % 7 === 0);
    let redirected = 0;
    for (const ns of sample) {
      const rules = entryOf(ns).luiRules;
      const { curie } = sampleOf(ns);
      if (!rules || resolveOn(snapshot, curie).kind !== 'resolved') continue;
      const canonical = await request(app).get(`/${encodeURIComponent(curie)}`).set('Accept', 'text/html');
      for (const [, variant] of variantsOf(ns, rules)) {
        if (resolveOn(withoutRules, variant).kind === 'resolved') continue;
        const json = await request(app).get(`/${encodeURIComponent(variant)}`);
        expect({ variant, status: json.status, canonical: json.body.payload?.canonicalCompactIdentifier }).toEqual({ variant, status: 200, canonical: curie });
        expect(json.text).toBe(resolutionJson(resolveOn(snapshot, variant)));
        const browser = await request(app).get(`/${encodeURIComponent(variant)}`).set('Accept', 'text/html');
        expect({ variant, status: browser.status }).toEqual({ variant, status: canonical.status });
        const location = canonical.headers.location as string | undefined;
        if (canonical.status !== 302 || location === undefined) continue;
        // A landing page names the request as typed (it resolves it again, canonicalised); a provider URL is the canonical form's.
        const landing = /^.*\/(deactivated|protected)Landing\//.exec(location)?.[0];
        if (landing) expect({ variant, location: browser.headers.location }).toEqual({ variant, location: `${landing}${variant}` });
        else {
          expect({ variant, location: browser.headers.location }).toEqual({ variant, location });
          redirected++;
        }
      }
    }
    expect(redirected).toBeGreaterThan(100);
  });
});

/** The rules as jsonb hands them back: keys by length, then bytewise. */
function sortedKeys(rules: LuiRules): Record<string, unknown> {
  const entries = Object.entries(rules).sort(([a], [b]) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([key, value]) => [key, typeof value === 'object' && value !== null ? sortedKeys(value as LuiRules) : value]));
}
