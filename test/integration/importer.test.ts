import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { luiPatternSource } from '../../src/core/lui-pattern.js';
import type { Db } from '../../src/db/knex.js';
import type { InstitutionRow as Institution, LocationRow as Location, NamespaceRow as Namespace, ResourceRow as Resource } from '../../src/db/tables.js';
import type { DatasetNamespace } from '../../src/importer/dataset.schema.js';
import { formatSummary } from '../../src/importer/format-summary.js';
import { importRegistry } from '../../src/importer/import-registry.js';
import { ImportFormatError, readDataset, validateNamespaces } from '../../src/importer/read-dataset.js';
import { formatReferenceDate } from '../../src/lib/dates.js';
import { runImporterCli as runCli } from '../support/processes.js';
import { createTestDatabase, tableSnapshot as snapshot, type TestDatabase } from '../support/test-database.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURE = path.join(ROOT, 'test/fixtures/small-registry.json');

/** A fresh copy each time: validation fills defaults in place and tests edit records. */
const fixture = (): DatasetNamespace[] => JSON.parse(readFileSync(FIXTURE, 'utf8')) as DatasetNamespace[];
const fieldsOf = (record: object) => record as Record<string, unknown>;

/** The registry as stored, rebuilt in the dataset's shape, to compare field by field with the file. */
async function storedDataset(db: Db): Promise<unknown[]> {
  const namespaces = (await db('namespaces').orderBy('prefix')) as Namespace[];
  const resources = (await db('resources').orderBy('id')) as Resource[];
  const institutions = new Map(((await db('institutions')) as Institution[]).map((i) => [i.id, i]));
  const locations = new Map(((await db('locations')) as Location[]).map((l) => [l.countryCode, l]));
  const location = (code: string) => ({ countryCode: code, countryName: locations.get(code)?.countryName });
  const prefixOf = new Map(namespaces.map((ns) => [ns.id, ns.prefix]));
  return namespaces.map((ns) => ({
    ...fieldsOf(ns),
    created: formatReferenceDate(ns.created),
    modified: formatReferenceDate(ns.modified),
    deprecationDate: formatReferenceDate(ns.deprecationDate),
    deprecationOfflineDate: formatReferenceDate(ns.deprecationOfflineDate),
    successor: ns.successorId === null ? null : prefixOf.get(ns.successorId),
    successorId: undefined,
    contactPersonId: undefined,
    // Not a dataset field: the canonical-LUI rules the importer derives (lui-rules-import.ts, see lui-rules-curation.test.ts).
    luiRules: undefined,
    // Not a dataset field either: a curator's setting, off for every imported namespace (suffix-passthrough.test.ts).
    suffixPassthrough: ns.suffixPassthrough === false ? undefined : ns.suffixPassthrough,
    resources: resources
      .filter((r) => r.namespaceId === ns.id)
      .map((r) => {
        const institution = institutions.get(r.institutionId) as Institution;
        return {
          ...fieldsOf(r),
          deprecationDate: formatReferenceDate(r.deprecationDate),
          deprecationOfflineDate: formatReferenceDate(r.deprecationOfflineDate),
          institution: {
            id: institution.id,
            name: institution.name,
            homeUrl: institution.homeUrl,
            description: institution.description,
            rorId: institution.rorId,
            location: location(institution.locationCountryCode),
          },
          location: location(r.locationCountryCode),
          namespaceId: undefined,
          institutionId: undefined,
          locationCountryCode: undefined,
          contactPersonId: undefined,
          created: undefined,
          modified: undefined,
        };
      }),
  }));
}


describe('registry importer', () => {
  let t: TestDatabase;
  let tmp: string;
  const importFile = (records: unknown, prune = false) => importRegistry(t.db, validateNamespaces(records), { prune });

  beforeAll(async () => {
    t = await createTestDatabase('importer');
    tmp = mkdtempSync(path.join(os.tmpdir(), 'importer-test-'));
  });
  afterAll(async () => {
    await t.drop();
    rmSync(tmp, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await t.db.raw('TRUNCATE resources, namespaces, institutions, persons RESTART IDENTITY CASCADE');
    await t.db('locations').where({ countryCode: 'CZ' }).update({ countryName: 'Czechia' });
  });

  it('imports the fixture keeping reference ids and MIR ids and storing every field as given', async () => {
    const summary = await importFile(fixture());

    expect(summary).toEqual({
      namespaces: { created: 4, updated: 0, unchanged: 0 },
      resources: { created: 5, updated: 0, unchanged: 0 },
      institutions: { created: 4, updated: 0, unchanged: 0 },
      locations: { updated: 1, unchanged: 3 },
    });
    expect(await t.db('namespaces').orderBy('id').pluck('id')).toEqual([1, 28, 230, 1726]);
    expect(await t.db('resources').orderBy('id').select('id', 'mirId')).toEqual([
      { id: 3, mirId: 'MIR:00100009' },
      { id: 4, mirId: 'MIR:00100158' },
      { id: 29, mirId: 'MIR:00100007' },
      { id: 232, mirId: 'MIR:00100095' },
      { id: 1728, mirId: 'MIR:00100826' },
    ]);
    expect(await t.db('institutions').orderBy('id').pluck('id')).toEqual([2, 26, 231, 1727]);
    expect(await storedDataset(t.db)).toEqual(fixture());
    // The reference still says "Czech Republic"; clients compare against its spelling.
    expect(await t.db('locations').where({ countryCode: 'CZ' }).first('countryName')).toEqual({ countryName: 'Czech Republic' });
  });

  it('reads the envelope of the live endpoint like the bare array', async () => {
    const envelope = { apiVersion: '1.0', errorMessage: null, payload: { namespaces: fixture() } };

    const summary = await importFile(envelope);

    expect(summary.namespaces).toEqual({ created: 4, updated: 0, unchanged: 0 });
    expect(summary.resources).toEqual({ created: 5, updated: 0, unchanged: 0 });
    expect(await storedDataset(t.db)).toEqual(fixture());
  });

  it('continues the id sequences after the highest imported id', async () => {
    await importFile(fixture());

    const [created] = (await t.db('institutions')
      .insert({ name: 'New', homeUrl: 'https://new.example', description: 'd', locationCountryCode: 'FR' })
      .returning('id')) as { id: number }[];

    expect(created?.id).toBe(1728);
  });

  it('reports no changes on a second import of the same file and writes nothing', async () => {
    await importFile(fixture());
    const before = await snapshot(t.db);

    const summary = await importFile(fixture());

    expect(summary).toEqual({
      namespaces: { created: 0, updated: 0, unchanged: 4 },
      resources: { created: 0, updated: 0, unchanged: 5 },
      institutions: { created: 0, updated: 0, unchanged: 4 },
      locations: { updated: 0, unchanged: 4 },
    });
    expect(formatSummary(summary).at(-1)).toBe('No changes.');
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('updates only the edited rows, with the values of the file', async () => {
    await importFile(fixture());
    const before = await t.db('resources').orderBy('id').select('id', 'modified');
    const edited = fixture();
    const taxonomy = edited[3] as DatasetNamespace;
    taxonomy.name = 'NCBI Taxonomy';
    taxonomy.modified = '2025-01-02T03:04:05.678+00:00';
    (edited[2] as DatasetNamespace).resources[1]!.urlPattern = 'https://www.ebi.ac.uk/ols/chebi/{$id}';

    const summary = await importFile(edited);

    expect(summary.namespaces).toEqual({ created: 0, updated: 1, unchanged: 3 });
    expect(summary.resources).toEqual({ created: 0, updated: 1, unchanged: 4 });
    expect(summary.institutions).toEqual({ created: 0, updated: 0, unchanged: 4 });
    expect(await storedDataset(t.db)).toEqual(edited);
    const after = await t.db('resources').orderBy('id').select('id', 'modified');
    const changed = after.filter((row, i) => row.modified.getTime() !== before[i]!.modified.getTime());
    expect(changed.map((row) => row.id)).toEqual([4]);
  });

  it('keeps rows missing from the file, and deletes them when pruning', async () => {
    await importFile(fixture());
    const withoutBegdb = fixture().filter((ns) => ns.prefix !== 'begdb');

    const kept = await importFile(withoutBegdb);

    expect(kept.namespaces).toEqual({ created: 0, updated: 0, unchanged: 3 });
    expect(await t.db('namespaces').where({ prefix: 'begdb' }).first('id')).toEqual({ id: 1726 });

    const pruned = await importFile(withoutBegdb, true);

    expect(pruned.namespaces).toEqual({ created: 0, updated: 0, unchanged: 3, deleted: 1 });
    expect(pruned.resources).toEqual({ created: 0, updated: 0, unchanged: 4, deleted: 1 });
    expect(pruned.institutions).toEqual({ created: 0, updated: 0, unchanged: 3, deleted: 1 });
    expect(formatSummary(pruned)[0]).toBe('namespaces: 0 created, 0 updated, 3 unchanged, 1 deleted');
    expect(await storedDataset(t.db)).toEqual(withoutBegdb);
  });

  it('matches namespaces by prefix whatever its case', async () => {
    await importFile(fixture());
    const renamed = fixture();
    (renamed[2] as DatasetNamespace).prefix = 'ChEBI';

    const summary = await importFile(renamed);

    expect(summary.namespaces).toEqual({ created: 0, updated: 1, unchanged: 3 });
    expect(await t.db('namespaces').where({ id: 1 }).first('prefix')).toEqual({ prefix: 'ChEBI' });
  });

  it('updates an institution renamed under the same ROR id and a prefix renamed under the same MIR id', async () => {
    await importFile(fixture());
    const renamed = fixture();
    (renamed[3] as DatasetNamespace).prefix = 'ncbitaxon';
    for (const resource of (renamed[2] as DatasetNamespace).resources) resource.institution.name = 'EMBL-EBI';

    const summary = await importFile(renamed, true);

    expect(summary.namespaces).toEqual({ created: 0, updated: 1, unchanged: 3, deleted: 0 });
    expect(summary.institutions).toEqual({ created: 0, updated: 1, unchanged: 3, deleted: 0 });
    expect(await t.db('namespaces').where({ id: 28 }).first('prefix')).toEqual({ prefix: 'ncbitaxon' });
    expect(await t.db('institutions').where({ id: 2 }).first('name')).toEqual({ name: 'EMBL-EBI' });
  });

  it('resolves a successor given as a prefix, a namespace object or a reference id', async () => {
    const records = fixture();
    (records[0] as DatasetNamespace).successor = { prefix: 'taxonomy' };
    (records[1] as DatasetNamespace).successor = { id: 1 };
    (records[3] as DatasetNamespace).successor = 'CHEBI';

    await importFile(records);

    const successors = await t.db('namespaces').orderBy('id').select('id', 'successorId');
    expect(successors).toEqual([
      { id: 1, successorId: null },
      { id: 28, successorId: 1 },
      { id: 230, successorId: 28 },
      { id: 1726, successorId: 1 },
    ]);
  });

  it('reads a dataset from an http URL', async () => {
    const envelope = JSON.stringify({ apiVersion: '1.0', errorMessage: null, payload: { namespaces: fixture() } });
    const server = createServer((request, response) => {
      if (request.url !== '/resolutionApi/getResolverDataset') response.writeHead(404).end();
      else response.writeHead(200, { 'content-type': 'application/json' }).end(envelope);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect(validateNamespaces(await readDataset(`${base}/resolutionApi/getResolverDataset`))).toEqual(validateNamespaces(fixture()));
      await expect(readDataset(`${base}/missing`)).rejects.toThrow(`GET ${base}/missing answered 404`);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('rejects a malformed record naming the position and field of the first problem', () => {
    const records = fixture();
    fieldsOf((records[2] as DatasetNamespace).resources[0]!).urlPattern = 42;
    fieldsOf(records[3] as DatasetNamespace).mirId = 'not a MIR id';

    expect(() => validateNamespaces(records)).toThrow(
      new ImportFormatError("namespaces[2] (prefix 'chebi'): resources[0].urlPattern must be string"),
    );
  });

  it('rejects a record without a prefix', () => {
    const records = fixture();
    delete fieldsOf(records[3] as DatasetNamespace).prefix;

    expect(() => validateNamespaces(records)).toThrow(new ImportFormatError('namespaces[3]: prefix is required'));
  });

  it('rejects a prefix used twice, whatever its case', () => {
    const records = fixture();
    (records[1] as DatasetNamespace).prefix = 'CHEBI';

    expect(() => validateNamespaces(records)).toThrow(
      "namespaces[2] (prefix 'chebi'): prefix 'chebi' duplicates 'CHEBI' at namespaces[1]",
    );
  });

  it('rejects a MIR id used by two resources', () => {
    const records = fixture();
    (records[3] as DatasetNamespace).resources[0]!.mirId = 'MIR:00100009';

    expect(() => validateNamespaces(records)).toThrow(
      "namespaces[3] (prefix 'taxonomy'): resources[0].mirId MIR:00100009 is already used by namespaces[2].resources[0]",
    );
  });

  it('rejects an unknown country code', () => {
    const records = fixture();
    (records[1] as DatasetNamespace).resources[0]!.institution.location.countryCode = 'XK';

    expect(() => validateNamespaces(records)).toThrow(
      "namespaces[1] (prefix 'begdb'): resources[0].institution.location.countryCode 'XK' is not an ISO 3166-1 alpha-2 country code",
    );
  });

  it('rejects a date that does not exist', () => {
    const records = fixture();
    (records[0] as DatasetNamespace).deprecationDate = '2024-02-30T09:35:45.473+00:00';

    expect(() => validateNamespaces(records)).toThrow(
      "namespaces[0] (prefix '3dmet'): deprecationDate '2024-02-30T09:35:45.473+00:00' is not a valid date",
    );
  });

  it('rolls back everything when a successor turns out unknown half-way through', async () => {
    await importFile(fixture());
    const before = await snapshot(t.db);
    const records = fixture();
    (records[3] as DatasetNamespace).name = 'Renamed before the failure';
    (records[0] as DatasetNamespace).successor = 'no-such-prefix';

    await expect(importFile(records)).rejects.toThrow(
      "namespaces[0] (prefix '3dmet'): successor 'no-such-prefix' is not a namespace of the registry",
    );
    expect(await snapshot(t.db)).toEqual(before);
  });

  describe('command line', () => {
    it('imports a file and prints the summary', async () => {
      const { code, stdout, stderr } = await runCli([FIXTURE], t.url);

      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      expect(stdout).toMatch(/^Imported .*small-registry\.json in \d+\.\d\d s\n/);
      expect(stdout).toContain('namespaces: 4 created, 0 updated, 0 unchanged\n');
      expect(stdout).toContain('resources: 5 created, 0 updated, 0 unchanged\n');
      expect(stdout).toContain('institutions: 4 created, 0 updated, 0 unchanged\n');
      expect(stdout).toContain('locations: 1 updated, 3 unchanged\n');
      expect(stdout).not.toContain('No changes.');
    });

    it('keeps the ReDoS verdict of each LUI pattern, checking only those not judged before', async () => {
      await t.db('redos_verdicts').delete();
      const first = await runCli([FIXTURE], t.url);
      expect(first.stdout).toContain('LUI patterns: 4 checked for catastrophic backtracking (0 flagged), 0 known already\n');
      const kept = (await t.db('redos_verdicts').select('source', 'verdict')) as { source: string; verdict: unknown }[];
      const patterns = ['^B\\d{5}$', '^[0-9]+$', '^CHEBI:\\d+$', '^\\d+$'];
      expect(kept.sort((a, b) => (a.source < b.source ? -1 : 1))).toEqual(
        patterns.map((pattern) => ({ source: luiPatternSource(pattern), verdict: { status: 'safe' } })).sort((a, b) => (a.source < b.source ? -1 : 1)),
      );

      const again = await runCli([FIXTURE], t.url);
      expect(again.stdout).toContain('LUI patterns: 0 checked for catastrophic backtracking (0 flagged), 4 known already\n');
    });

    it('reports the import done when only keeping the verdicts fails (the resolvers check the patterns then)', async () => {
      await t.db.raw('ALTER TABLE redos_verdicts RENAME TO redos_verdicts_away');
      try {
        const { code, stdout, stderr } = await runCli([FIXTURE], t.url);
        expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
        expect(stdout).toContain('namespaces: 4 created, 0 updated, 0 unchanged\n');
        expect(stdout).toMatch(/\nLUI patterns: no verdict kept \(.*redos_verdicts.*\); the resolvers check them as they start\n/);
        expect(await t.db('namespaces').count({ n: '*' }).first()).toEqual({ n: 4 });
      } finally {
        await t.db.raw('ALTER TABLE redos_verdicts_away RENAME TO redos_verdicts');
      }
    });

    it('rejects a corrupted file with exit code 1 and changes nothing', async () => {
      expect((await runCli([FIXTURE], t.url)).code).toBe(0);
      const before = await snapshot(t.db);
      const records = fixture();
      (records[1] as DatasetNamespace).name = 'Would be an update';
      delete fieldsOf((records[2] as DatasetNamespace).resources[1]!).mirId;
      const corrupted = path.join(tmp, 'corrupted.json');
      writeFileSync(corrupted, JSON.stringify(records));

      const { code, stdout, stderr } = await runCli([corrupted], t.url);

      expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
      expect(stderr).toBe("Import rejected: namespaces[2] (prefix 'chebi'): resources[1].mirId is required\n");
      expect(await snapshot(t.db)).toEqual(before);
    });

    it('prints the usage and exits with 2 without a file', async () => {
      const { code, stderr } = await runCli([], t.url);

      expect(code).toBe(2);
      expect(stderr).toMatch(/^Usage: npm run registry:import -- <file-or-URL> \[--prune\]/);
    });
  });
});
