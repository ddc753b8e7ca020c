/**
 * Resolution and reverse lookup against the complete identifiers.org dataset (REGISTRY_DATASET, e.g.
 * ../shared/data/identifiers-org-registry.json): every namespace's sample identifier resolves to every
 * provider as the reference builds the URLs, and every active provider's sample URL maps back to its
 * namespace. The core functions are checked on everything, HTTP on a sample.
 */
import { readFile } from 'node:fs/promises';
import type { RequestListener } from 'node:http';
import request from 'supertest';
import type { RegistrySnapshot } from '../../src/core/registry-snapshot.js';
import { resolveCompactId } from '../../src/core/resolve.js';
import { buildReverseIndex, type ReverseIndex } from '../../src/core/reverse-index.js';
import { reverseByPrefix } from '../../src/core/reverse-lookup.js';
import { presentResolution, resolutionJson } from '../../src/resolver/resolution.presenter.js';
import { loadRegistry } from '../../src/resolver/snapshot-loader.js';
import { REGISTRY_URL, RESOLVER_URL, startStack, type AreaStack } from '../support/areas.js';
import { describeRequiring, registryDataset } from '../support/requirements.js';
import { requiredEmbeddedSpelling } from '../support/embedded-spelling.js';

const datasetFile = registryDataset();
const dataset = datasetFile.file ?? '';

interface DatasetResource {
  id: number;
  urlPattern: string;
  sampleId: string | null;
  deprecated: boolean;
}
interface DatasetNamespace {
  prefix: string;
  pattern: string;
  sampleId: string;
  namespaceEmbeddedInLui: boolean;
  deprecated: boolean;
  resources: DatasetResource[];
}

/**
 * Namespaces whose own sample id does not match their own LUI pattern in the published data, so the
 * reference answers their sample CURIE with 400 as well.
 */
const SAMPLE_ID_MISMATCHES: Record<string, string> = {
  // `\w` has no `.`: the sample id HOMO_3.PE998 cannot match ^\w+$.
  hogenom: 'HOMO_3.PE998',
  // The sample id carries a version suffix (.1) that ^SEQF\d+$ does not allow.
  'homd.seq': 'SEQF1003.1',
};

/** Sample URLs that map to another namespace whose URL prefix differs, each for a stated reason. */
const REVERSE_EXCEPTIONS: Record<string, { prefix: string; curie: string; why: string }> = {
  // .../resolveMirId/MIR:00100037 also fits miriam.resource's .../resolveMirId/{$id} (^MIR:001\d{5}$): the
  // reference's guess (the last path segment, with the key right before it) finds miriam.resource, and
  // answers the reference gives with a CURIE are kept.
  'mir#1665': { prefix: 'miriam.resource', curie: 'miriam.resource:MIR:00100037', why: 'reference guess kept' },
};

/** Own-namespace matches whose CURIE is not the sample one, each for a stated reason. */
const CURIE_EXCEPTIONS: Record<string, { curie: string; why: string }> = {
  // URL pattern .../{$id}.md and LUI pattern ^\w+(\-|\.|\w)*$: `sed-ml.level-1.version-1.md` is a valid LUI
  // too, so the URL alone is ambiguous and the reference's guess (the whole last segment) is kept.
  'combine.specifications#766': {
    curie: 'combine.specifications:sed-ml.level-1.version-1.md',
    why: 'ambiguous suffix',
  },
};

const embeddedSpelling = requiredEmbeddedSpelling;

/** The sample CURIE, its LUI, and the id the reference puts into URL patterns (§1.4 B5). */
function sampleOf(ns: DatasetNamespace, sampleId = ns.sampleId): { curie: string; lui: string; urlId: string } {
  if (!ns.namespaceEmbeddedInLui) return { curie: `${ns.prefix}:${sampleId}`, lui: sampleId, urlId: sampleId };
  const lui = `${embeddedSpelling(ns)}:${sampleId}`;
  return { curie: lui, lui, urlId: lui.slice(lui.indexOf(':') + 1) };
}

const fill = (urlPattern: string, id: string) => urlPattern.split('{$id}').join(id);

/** The reference's normalizeUrl, case-insensitive on scheme and www., cut before the placeholder. */
function urlKey(urlPattern: string): string {
  const normalised = urlPattern.replace(/^https?:\/\/(www\.)?/i, '').replace(/\/$/, '');
  return normalised.slice(0, normalised.indexOf('{$id}'));
}

describeRequiring([datasetFile], 'resolver conformance on the real identifiers.org registry', () => {
  let t: AreaStack;
  let records: DatasetNamespace[];
  let snapshot: RegistrySnapshot;
  let index: ReverseIndex;
  let app: RequestListener;
  const options = { publicRegistryUrl: REGISTRY_URL };
  const reverseOptions = { publicResolverUrl: RESOLVER_URL };

  beforeAll(async () => {
    records = JSON.parse(await readFile(dataset, 'utf8')) as DatasetNamespace[];
    t = await startStack('resolver_conformance', { data: { file: dataset } });
    snapshot = (await loadRegistry(t.db)).snapshot;
    index = buildReverseIndex(snapshot);
    app = (await t.resolverApp({ registry: { snapshot, staleReason: null } })).koa.callback();
  }, 120_000);
  afterAll(() => t.close());

  /** Every active resource of every active namespace, with its sample URL and the answer byPrefix gives. */
  const activeSamples = () =>
    records
      .filter((ns) => !ns.deprecated)
      .flatMap((ns) =>
        ns.resources
          .filter((resource) => !resource.deprecated)
          .map((resource) => {
            const sample = sampleOf(ns, resource.sampleId || ns.sampleId);
            const url = fill(resource.urlPattern, sample.urlId);
            return { ns, resource, sample, url, match: reverseByPrefix(index, { url }, reverseOptions) };
          }),
      );

  it('loads every namespace of the dataset into the snapshot', () => {
    expect(snapshot.namespacesByPrefix.size).toBe(records.length);
  });

  it("resolves every namespace's sample identifier to all its providers, in dataset order", () => {
    const problems: string[] = [];
    let resolved = 0;
    for (const ns of records) {
      const { curie, lui, urlId } = sampleOf(ns);
      const resolution = resolveCompactId(curie, snapshot, options);
      const { status, body } = presentResolution(resolution);
      // The service writes the answer from cached fragments; it must be the very text JSON.stringify gives.
      if (resolutionJson(resolution) !== JSON.stringify(body)) problems.push(`${curie}: serialised text differs`);
      if (ns.prefix in SAMPLE_ID_MISMATCHES) {
        const expected = `Resolution request '${curie}' is NOT A NAMESPACE; For namespace '${ns.prefix}', provided local ID '${lui}' DOES NOT MATCH local IDs definition pattern '${ns.pattern}'`;
        if (status !== 400 || body.errorMessage !== expected) problems.push(`${curie}: expected the known 400, got ${status} ${body.errorMessage}`);
        continue;
      }
      if (status !== 200) {
        problems.push(`${curie}: ${status} ${body.errorMessage}`);
        continue;
      }
      const got = (body.payload.resolvedResources ?? []).map((x) => ({ id: x.id, url: x.compactIdentifierResolvedUrl }));
      const want = ns.resources.map((x) => ({ id: x.id, url: fill(x.urlPattern, urlId) }));
      if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`${curie}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
      if (body.payload.parsedCompactIdentifier?.localId !== lui) problems.push(`${curie}: localId ${body.payload.parsedCompactIdentifier?.localId}`);
      resolved++;
    }

    expect(problems).toEqual([]);
    expect(resolved).toBe(records.length - Object.keys(SAMPLE_ID_MISMATCHES).length);
  });

  it('reverse-resolves the sample URL of every active provider to its namespace or one with the same URL prefix', () => {
    const prefixesByKey = new Map<string, Set<string>>();
    for (const ns of records) {
      for (const resource of ns.resources) {
        const key = urlKey(resource.urlPattern);
        prefixesByKey.set(key, (prefixesByKey.get(key) ?? new Set()).add(ns.prefix));
      }
    }

    const problems: string[] = [];
    const samples = activeSamples();
    for (const { ns, resource, sample, url, match } of samples) {
      const name = `${ns.prefix}#${resource.id}`;
      const exception = REVERSE_EXCEPTIONS[name];
      if (exception) {
        if (match?.prefix !== exception.prefix || match.possible_resolver_curie !== exception.curie) {
          problems.push(`${name} (${exception.why}): ${url} -> ${JSON.stringify(match)}`);
        }
        continue;
      }
      if (!match) {
        problems.push(`${name}: ${url} -> no match`);
        continue;
      }
      if (match.prefix !== ns.prefix && !prefixesByKey.get(urlKey(resource.urlPattern))?.has(match.prefix)) {
        problems.push(`${name}: ${url} -> ${match.prefix}`);
        continue;
      }
      // A sample that does not match its own pattern cannot give a CURIE; every other one must.
      const known = ns.prefix in SAMPLE_ID_MISMATCHES;
      if (match.lui_pattern_match === known) problems.push(`${name}: ${url} -> lui_pattern_match ${match.lui_pattern_match}`);
      if (match.prefix === ns.prefix && !known) {
        const expected = CURIE_EXCEPTIONS[name]?.curie ?? sample.curie;
        if (match.possible_resolver_curie !== expected) problems.push(`${name}: ${url} -> ${match.possible_resolver_curie}, want ${expected}`);
        if (match.possible_resolver_url !== `${RESOLVER_URL}/${expected}`) problems.push(`${name}: url ${match.possible_resolver_url}`);
      }
    }

    expect(problems).toEqual([]);
    expect(samples.length).toBeGreaterThan(900);
  });

  it('answers a sample of resolutions over HTTP exactly as the core does', async () => {
    const sample = records.filter((_, position) => position % 10 === 0);
    for (const ns of sample) {
      const { curie } = sampleOf(ns);
      const core = presentResolution(resolveCompactId(curie, snapshot, options));
      const res = await request(app).get(`/${encodeURIComponent(curie)}`);
      expect({ curie, status: res.status }).toEqual({ curie, status: core.status });
      expect(res.body).toEqual(JSON.parse(JSON.stringify(core.body)));
    }
  });

  it('answers a sample of reverse lookups over HTTP exactly as the core does', async () => {
    const sample = activeSamples().filter((_, position) => position % 10 === 0);
    for (const { url, match } of sample) {
      const res = await request(app).post('/reverse/byPrefix').send({ apiVersion: '1.0', payload: { url } });
      expect({ url, status: res.status }).toEqual({ url, status: match ? 200 : 204 });
      if (match) expect(res.body).toEqual({ apiVersion: '1.0', errorMessage: null, payload: match });
    }
  });
});
