/**
 * Prefix synonyms (issue 15 item 1) on a real database: the uniqueness rules the database enforces, the
 * extension file's import, the snapshot that follows every change, and resolution through a synonym.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveCompactId } from '../../src/core/resolve.js';
import { buildDataset } from '../../src/dataset/build-dataset.js';
import { setNamespaceSynonyms, synonymClashMessage } from '../../src/db/namespace-synonyms.js';
import { importSynonyms, validateSynonymFile } from '../../src/importer/import-synonyms.js';
import { SAMPLE_SYNONYMS_FILE } from '../../src/importer/seed-sample.js';
import { presentResolution, resolutionJson } from '../../src/resolver/resolution.presenter.js';
import { loadRegistry, refreshRegistry, type LoadedRegistry } from '../../src/resolver/snapshot-loader.js';
import { runImporterCli } from '../support/processes.js';
import { createTestDatabase, loadSample, SAMPLE_REGISTRY, type TestDatabase } from '../support/test-database.js';

const options = { publicRegistryUrl: 'https://registry.example.org' };

describe('prefix synonyms in the database', () => {
  let t: TestDatabase;
  let loaded: LoadedRegistry;
  const idOf = async (prefix: string) => Number((await t.db('namespaces').first('id').where({ prefix }))!.id);

  beforeAll(async () => {
    t = await createTestDatabase('prefix_synonyms');
    await loadSample(t.db);
    await importSynonyms(t.db, validateSynonymFile(JSON.parse(readFileSync(SAMPLE_SYNONYMS_FILE, 'utf8'))));
    loaded = await loadRegistry(t.db);
  });
  afterAll(async () => {
    await t.drop();
  });

  it('imports the sample file, folding spellings that differ only in case', async () => {
    const rows = await t.db('namespace_synonyms as s').join('namespaces as n', 'n.id', 's.namespaceId').where('n.prefix', 'taxonomy').orderBy('s.synonym').pluck('s.synonym');
    expect(rows).toEqual(['ncbi.taxon', 'ncbitaxon', 'taxon']);
    expect(loaded.snapshot.namespacesBySynonym.get('ncbitaxon')?.prefix).toBe('taxonomy');
  });

  it('refuses a synonym that is a prefix, or another namespace\'s synonym, whatever its case', async () => {
    const go = await idOf('go');
    const refused = async (synonym: string) => {
      try {
        await t.db('namespace_synonyms').insert({ namespaceId: go, synonym });
      } catch (error) {
        return synonymClashMessage(error);
      }
      return 'accepted';
    };
    expect(await refused('CHEBI')).toBe("'CHEBI' is the prefix of namespace 'chebi'; it cannot be a synonym");
    expect(await refused('NcbiTaxon')).toMatch(/already a synonym of another namespace/);
    expect(await refused('go:x')).toBeUndefined();
  });

  it('refuses a new namespace, or a renamed one, whose prefix is a synonym', async () => {
    const error = await t.db.raw("UPDATE namespaces SET prefix = 'NCBITaxon' WHERE prefix = 'chebi'").catch((e: unknown) => e);
    expect(synonymClashMessage(error)).toBe("'NCBITaxon' is a synonym of namespace 'taxonomy'; it cannot be a prefix");
  });

  it('lets a namespace be renamed to one of its own synonyms, which then gives way', async () => {
    await t.db.transaction(async (trx) => {
      await trx.raw("UPDATE namespaces SET prefix = 'pmid' WHERE prefix = 'pubmed'");
      expect(await trx('namespace_synonyms').where({ synonym: 'pmid' }).first()).toBeUndefined();
      await trx.rollback();
    }).catch(() => undefined);
  });

  it('shows a synonym change in the next refresh, as a change of its namespace', async () => {
    const before = loaded.snapshot.version;
    const go = await idOf('go');
    await t.db.transaction((trx) => setNamespaceSynonyms(trx, go, ['gene_ontology', 'geneontology']));
    const next = await refreshRegistry(t.db, loaded);
    expect(next.snapshot.version).toBeGreaterThan(before);
    expect(next.snapshot.namespacesBySynonym.get('geneontology')?.prefix).toBe('go');
    expect(next.snapshot.namespacesBySynonym.has('go.term')).toBe(false);
    // Untouched namespaces are shared, synonyms and all.
    expect(next.snapshot.namespacesBySynonym.get('taxon')).toBe(loaded.snapshot.namespacesByPrefix.get('taxonomy'));
    loaded = next;
  });

  it('resolves through a synonym as through the prefix, naming the canonical prefix and the synonym used', () => {
    const viaPrefix = resolveCompactId('taxonomy:9606', loaded.snapshot, options);
    const viaSynonym = resolveCompactId('NCBITaxon:9606', loaded.snapshot, options);
    const prefixAnswer = presentResolution(viaPrefix).body.payload;
    const synonymAnswer = presentResolution(viaSynonym).body.payload;
    expect(synonymAnswer.resolvedResources).toEqual(prefixAnswer.resolvedResources);
    expect(synonymAnswer.parsedCompactIdentifier).toEqual({ ...prefixAnswer.parsedCompactIdentifier, rawRequest: 'NCBITaxon:9606' });
    expect(Object.keys(synonymAnswer)).toEqual(['resolvedResources', 'parsedCompactIdentifier', 'prefixSynonym']);
    expect(synonymAnswer.prefixSynonym).toBe('NCBITaxon');
    expect(Object.keys(prefixAnswer)).toEqual(['resolvedResources', 'parsedCompactIdentifier']);
    expect(resolutionJson(viaSynonym)).toBe(JSON.stringify(presentResolution(viaSynonym).body));
  });

  it("writes the stored synonyms into the dataset build's extended prefix map, the reference dataset unchanged", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'prefix-synonyms-build-'));
    try {
      const result = await buildDataset({ db: t.db, dir, urls: { publicResolverUrl: 'https://resolver.test', publicRegistryUrl: 'https://registry.test' } });
      const files = result.manifest.exports!.files as Record<string, { file: string }>;
      const records = JSON.parse(readFileSync(path.join(dir, files['prefixmap.json']!.file), 'utf8')) as { prefix: string; prefix_synonyms: string[] }[];
      expect(records.find((r) => r.prefix === 'taxonomy')?.prefix_synonyms).toEqual(['ncbi.taxon', 'ncbitaxon', 'taxon']);
      const dataset = readdirSync(dir).find((name) => /^dataset.*\.json$/.test(name) && !name.includes('rewritten'));
      expect(dataset).toBeDefined();
      const text = readFileSync(path.join(dir, dataset!), 'utf8');
      expect(text).not.toContain('"synonyms"');
      expect(text).not.toContain('ncbi.taxon');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('builds an embedded LUI on the prefix when a synonym names the namespace', () => {
    const viaSynonym = resolveCompactId('gene_ontology:0006915', loaded.snapshot, options);
    expect(viaSynonym.kind).toBe('resolved');
    if (viaSynonym.kind !== 'resolved') return;
    expect(viaSynonym.parsedCompactIdentifier.localId).toBe('GO:0006915');
    expect(viaSynonym.resolvedResources).toEqual((resolveCompactId('GO:0006915', loaded.snapshot, options) as typeof viaSynonym).resolvedResources);
  });
});

describe('the importer CLI', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase('prefix_synonyms_cli');
  });
  afterAll(async () => {
    await t.drop();
  });

  it('imports a dataset and a synonyms file together, then a synonyms file alone, reporting what it skipped', async () => {
    const both = await runImporterCli([SAMPLE_REGISTRY, '--synonyms', SAMPLE_SYNONYMS_FILE], t.url);
    expect(both.stderr).toBe('');
    expect(both.code).toBe(0);
    expect(both.stdout).toMatch(/synonyms: 19 added, 0 removed, on 11 namespaces; 1 spellings folded, 0 skipped/);

    const file = path.join(os.tmpdir(), `synonyms-${process.pid}.json`);
    writeFileSync(file, JSON.stringify({ taxonomy: ['taxon', 'tax"on', '<taxon>'], nosuch: ['x'], go: ['pmid', 'CHEBI', 'bad name'] }));
    const alone = await runImporterCli([`--synonyms=${file}`], t.url);
    expect(alone.code).toBe(0);
    expect(alone.stdout).toMatch(/skipped 'nosuch': no namespace has this prefix/);
    expect(alone.stdout).toMatch(/skipped 'go': 'pmid' is already a synonym of 'pubmed'/);
    expect(alone.stdout).toMatch(/skipped 'go': 'CHEBI' is already the prefix of 'chebi'/);
    expect(alone.stdout).toMatch(/skipped 'go': 'bad name' holds/);
    expect(alone.stdout).toContain(`skipped 'taxonomy': 'tax"on' holds '"': a synonym is made of letters, digits, dots, underscores and hyphens`);
    expect(alone.stdout).toContain("skipped 'taxonomy': '<taxon>' holds '<'");
    const taxonomy = await t.db('namespace_synonyms as s').join('namespaces as n', 'n.id', 's.namespaceId').where('n.prefix', 'taxonomy').pluck('s.synonym');
    expect(taxonomy).toEqual(['taxon']);
    const go = await t.db('namespace_synonyms as s').join('namespaces as n', 'n.id', 's.namespaceId').where('n.prefix', 'go').pluck('s.synonym');
    expect(go).toEqual([]);

    const notAnObject = path.join(os.tmpdir(), `synonyms-bad-${process.pid}.json`);
    writeFileSync(notAnObject, JSON.stringify([['taxon']]));
    const refused = await runImporterCli(['--synonyms', notAnObject], t.url);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/Import rejected: .*a synonyms file is a JSON object/);
  });
});
