import { loadRegistry, refreshRegistry, type LoadedRegistry } from '../../src/resolver/snapshot-loader.js';
import { createTestDatabase, loadSample, type TestDatabase } from '../support/test-database.js';

describe('registry snapshot refresh', () => {
  let t: TestDatabase;
  let loaded: LoadedRegistry;

  beforeAll(async () => {
    t = await createTestDatabase('snapshot_refresh');
    await loadSample(t.db);
    loaded = await loadRegistry(t.db);
  });
  afterAll(async () => {
    await t.drop();
  });

  const urlsOf = (reg: LoadedRegistry, prefix: string) => reg.snapshot.namespacesByPrefix.get(prefix)?.resources.map((r) => r.urlPattern) ?? [];

  it('returns the same snapshot when nothing changed', async () => {
    // The same snapshot and entries; the bookkeeping may move on, as the transaction-id watermark is the
    // cluster's and other databases' transactions (a parallel test file's) advance it.
    const refreshed = await refreshRegistry(t.db, loaded);
    expect(refreshed.snapshot).toBe(loaded.snapshot);
    expect(refreshed.namespacesById).toBe(loaded.namespacesById);
  });

  it('reloads only the namespace a plain SQL update touched and shares every other entry', async () => {
    await t.db.raw("UPDATE resources SET url_pattern = 'https://changed.example/{$id}' WHERE id = (SELECT min(id) FROM resources WHERE namespace_id = (SELECT id FROM namespaces WHERE prefix = 'pdb'))");
    const next = await refreshRegistry(t.db, loaded);
    expect(urlsOf(next, 'pdb')).toContain('https://changed.example/{$id}');
    expect(next.snapshot.namespacesByPrefix.get('taxonomy')).toBe(loaded.snapshot.namespacesByPrefix.get('taxonomy'));
    expect(next.snapshot.namespacesByPrefix.get('pdb')).not.toBe(loaded.snapshot.namespacesByPrefix.get('pdb'));
    expect(next.snapshot.version).toBeGreaterThan(loaded.snapshot.version);
    loaded = next;
  });

  it('does not miss a change whose transaction commits after a later one was already read', async () => {
    const slow = await t.db.transaction();
    await slow.raw("UPDATE namespaces SET name = 'Slow change' WHERE prefix = 'go'");
    await t.db.raw("UPDATE namespaces SET name = 'Fast change' WHERE prefix = 'chebi'");
    const afterFast = await refreshRegistry(t.db, loaded);
    expect(afterFast.snapshot.namespacesByPrefix.get('chebi')?.name).toBe('Fast change');
    expect(afterFast.snapshot.namespacesByPrefix.get('go')?.name).not.toBe('Slow change');
    await slow.commit();
    const afterSlow = await refreshRegistry(t.db, afterFast);
    expect(afterSlow.snapshot.namespacesByPrefix.get('go')?.name).toBe('Slow change');
    loaded = afterSlow;
  });

  it('follows a prefix rename, a deleted namespace and an institution rename', async () => {
    await t.db.raw("UPDATE namespaces SET prefix = 'taxon' WHERE prefix = 'taxonomy'");
    await t.db.raw("DELETE FROM namespaces WHERE prefix = 'orcid'");
    const institution = (await t.db('institutions').first('id', 'name')) as { id: number; name: string };
    await t.db('institutions').where({ id: institution.id }).update({ name: 'Renamed institute' });
    const next = await refreshRegistry(t.db, loaded);
    expect(next.snapshot.namespacesByPrefix.has('taxonomy')).toBe(false);
    expect(next.snapshot.namespacesByPrefix.get('taxon')?.prefix).toBe('taxon');
    expect(next.snapshot.namespacesByPrefix.has('orcid')).toBe(false);
    const names = [...next.snapshot.namespacesByPrefix.values()].flatMap((ns) => ns.resources).filter((r) => r.institution.id === institution.id).map((r) => r.institution.name);
    expect(names.length).toBeGreaterThan(0);
    expect(new Set(names)).toEqual(new Set(['Renamed institute']));
    // The same result as reading everything from scratch.
    const fresh = await loadRegistry(t.db);
    expect([...next.snapshot.namespacesByPrefix.keys()].sort()).toEqual([...fresh.snapshot.namespacesByPrefix.keys()].sort());
    expect(JSON.stringify([...next.snapshot.namespacesByPrefix.values()].sort((a, b) => a.id - b.id))).toBe(
      JSON.stringify([...fresh.snapshot.namespacesByPrefix.values()].sort((a, b) => a.id - b.id)),
    );
    expect(new Set(next.snapshot.namespacesByMirId.keys())).toEqual(new Set(fresh.snapshot.namespacesByMirId.keys()));
  });
});
