import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

describe('migrations', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase('migrations');
  });
  afterAll(async () => {
    await t.drop();
  });

  const tables = async () =>
    (
      await t.db.raw<{ rows: { tablename: string }[] }>(
        "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE 'knex_%' ORDER BY tablename",
      )
    ).rows.map((r) => r.tablename);

  it('creates the registry tables with every ISO 3166-1 country as a location', async () => {
    expect(await tables()).toEqual(expect.arrayContaining(['institutions', 'locations', 'namespaces', 'persons', 'resources']));
    const [{ count }] = (await t.db('locations').count('* as count')) as [{ count: string }];
    expect(Number(count)).toBe(249);
    const gb = (await t.db('locations').where({ countryCode: 'GB' }).first())!;
    expect(gb.countryName).toBe('United Kingdom');
  });

  it('refuses a second namespace whose prefix differs only in case', async () => {
    const [institution] = await t.db('institutions')
      .insert({ name: 'I', homeUrl: 'https://i.example', description: 'd', locationCountryCode: 'GB' })
      .returning('id');
    expect(institution).toBeDefined();
    const ns = { mirId: 'MIR:00000001', name: 'n', pattern: '^\\d+$', description: 'd', sampleId: '1' };
    await t.db('namespaces').insert({ ...ns, prefix: 'taxonomy' });
    await expect(t.db('namespaces').insert({ ...ns, prefix: 'Taxonomy', mirId: 'MIR:00000002' })).rejects.toThrow(/unique/i);
    await expect(t.db('namespaces').insert({ ...ns, prefix: 'other' })).rejects.toThrow(/unique/i);
    await t.db('namespaces').del();
    await t.db('institutions').del();
  });

  it('indexes every foreign key', async () => {
    const { rows } = await t.db.raw<{ rows: { table: string; column: string; indexed: boolean }[] }>(`
      SELECT c.conrelid::regclass::text AS table, a.attname AS column,
             EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.conrelid AND i.indkey[0] = c.conkey[1]) AS indexed
      FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
      WHERE c.contype = 'f'`);
    expect(rows.length).toBeGreaterThanOrEqual(7);
    expect(rows.filter((r) => !r.indexed)).toEqual([]);
  });

  it('keeps the Idempotency-Key answers stored as jsonb, written out again in the order they were sent', async () => {
    const name = '20261123000100_store_idempotency_answer_text';
    const answer = { apiVersion: '1.0', errorMessage: null, payload: { comment: 'No comments on your prefix registration request', token: 'tok' } };
    const stored = (...columns: string[]) => t.db('idempotencyKeys').where({ key: 'before-text' }).first(...columns);
    await t.db.migrate.down({ name });
    await t.db('idempotencyKeys').insert({
      endpoint: 'registerPrefix',
      key: 'before-text',
      requestHash: 'x'.repeat(64),
      responseStatus: 200,
      responseBody: JSON.stringify(answer),
    });
    await t.db.migrate.up({ name });
    expect(await stored('responseBody', 'responseContentType')).toEqual({
      responseBody: JSON.stringify(answer),
      responseContentType: 'application/json; charset=utf-8',
    });
    await t.db.migrate.down({ name });
    expect(await stored('responseBody')).toEqual({ responseBody: answer });
    await t.db.migrate.up({ name });
    await t.db('idempotencyKeys').del();
  });

  it('walks all the way down and up again', async () => {
    await t.db.migrate.rollback(undefined, true);
    expect(await tables()).toEqual([]);
    const [, applied] = (await t.db.migrate.latest()) as [number, string[]];
    expect(applied.length).toBeGreaterThanOrEqual(2);
    expect(await tables()).toEqual(expect.arrayContaining(['institutions', 'locations', 'namespaces', 'persons', 'resources']));
    const [{ count }] = (await t.db('locations').count('* as count')) as [{ count: string }];
    expect(Number(count)).toBe(249);
  });
});
