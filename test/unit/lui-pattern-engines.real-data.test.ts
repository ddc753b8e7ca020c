/**
 * Both LUI engines on the complete identifiers.org registry (REGISTRY_DATASET, e.g.
 * ../shared/data/identifiers-org-registry.json): every pattern has a linear-time equivalent, and it gives
 * V8's verdict on every sample id of the registry and on inputs derived from them.
 */
import { readFile } from 'node:fs/promises';
import { compileLinearMatcher } from '../../src/core/linear-lui-pattern.js';
import { luiPatternSource } from '../../src/core/lui-pattern.js';
import { describeRequiring, registryDataset } from '../support/requirements.js';

const realDataset = registryDataset();

interface DatasetNamespace {
  prefix: string;
  pattern: string;
  sampleId: string;
  resources: { sampleId: string | null }[];
}

/** Near misses of a sample id: what a wrong engine would most likely get wrong. */
function probes(sample: string): string[] {
  return [
    sample, sample + '!', '!' + sample, sample.toLowerCase(), sample.toUpperCase(), sample + '\n', sample + '\r',
    sample + '\u2028', sample + sample, sample.slice(1), sample.slice(0, -1), sample + '😀', '\uD83D' + sample,
    sample.replace(/./, ' '), sample.replace(/./, '\u00a0'),
  ];
}

describeRequiring([realDataset], 'the LUI engines on the real identifiers.org registry', () => {
  let namespaces: DatasetNamespace[];

  beforeAll(async () => {
    namespaces = JSON.parse(await readFile(realDataset.file as string, 'utf8')) as DatasetNamespace[];
  });

  it('has a linear-time equivalent for every pattern, with the same verdict on every sample id and near miss', () => {
    const refused: { prefix: string; error: string }[] = [];
    const differences: { prefix: string; input: string; native: boolean }[] = [];
    let compared = 0;
    let sampleIdsMatched = 0;
    for (const ns of namespaces) {
      const source = luiPatternSource(ns.pattern);
      const native = new RegExp(source);
      const linear = compileLinearMatcher(source);
      if ('error' in linear) {
        refused.push({ prefix: ns.prefix, error: linear.error });
        continue;
      }
      const samples = [ns.sampleId, ...ns.resources.map((r) => r.sampleId).filter((s): s is string => s !== null && s !== '')];
      const inputs = new Set(['', '0'.repeat(50) + '!', ...samples.flatMap(probes)]);
      for (const input of inputs) {
        const verdict = native.test(input);
        compared++;
        if (samples.includes(input) && verdict) sampleIdsMatched++;
        if (linear.test(input) !== verdict) differences.push({ prefix: ns.prefix, input, native: verdict });
      }
    }
    expect(refused).toEqual([]);
    expect(differences).toEqual([]);
    expect(namespaces.length).toBeGreaterThan(800);
    expect(compared).toBeGreaterThan(10_000);
    expect(sampleIdsMatched).toBeGreaterThan(800);
  });
});
