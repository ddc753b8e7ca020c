/**
 * Registry changes made by plain SQL reach resolution through LISTEN/NOTIFY, without waiting for the
 * periodic check: that is set to a minute here, far beyond the 5 s each change is awaited, so a change seen
 * at all was brought by the notification. How soon it shows is bench:resolver's "change visible" figure
 * (bench/resolver/scale.ts), not asserted here: a bound in milliseconds fails whenever the machine is busy.
 */
import request from 'supertest';
import { startResolver, type ResolverUnderTest } from '../support/areas.js';
import { waitFor } from '../support/wait.js';

interface Resolved {
  id: number;
  compactIdentifierResolvedUrl: string;
  institution: { name: string };
}

let r: ResolverUnderTest;
beforeAll(async () => {
  r = await startResolver('resolver_freshness', { checkIntervalMs: 60_000 });
});
afterAll(() => r.close());

async function resolve(curie: string): Promise<{ status: number; errorMessage: string | null; resources: Resolved[] }> {
  const res = await request(r.app).get(`/${curie}`);
  return { status: res.status, errorMessage: res.body.errorMessage, resources: res.body.payload?.resolvedResources ?? [] };
}

/**
 * Commits `change` (an SQL change), then waits until `seen` holds for the answer to `curie`, polling every
 * 50 ms; fails after 5 s, well before the periodic check would have run.
 */
async function changeAndWait(
  change: () => Promise<unknown>,
  curie: string,
  seen: (answer: Awaited<ReturnType<typeof resolve>>) => boolean,
  what: string,
): Promise<void> {
  await change();
  await waitFor(async () => seen(await resolve(curie)), { timeoutMs: 5000, what });
}

describe('registry changes made by plain SQL', () => {
  it('shows a changed provider URL pattern without waiting for the periodic check', async () => {
    const before = await resolve('taxonomy:9606');
    expect(before.resources.find((x) => x.id === 30)?.compactIdentifierResolvedUrl).toBe('https://purl.uniprot.org/taxonomy/9606');

    await changeAndWait(
      () => r.db.raw("UPDATE resources SET url_pattern = 'https://taxa.changed.example.org/taxon/{$id}' WHERE mir_id = 'MIR:00100019'"),
      'taxonomy:9606',
      (a) => a.resources.some((x) => x.id === 30 && x.compactIdentifierResolvedUrl === 'https://taxa.changed.example.org/taxon/9606'),
      'the new URL pattern reaching resolution',
    );
    expect((await resolve('taxonomy:9606')).resources.map((x) => x.id)).toEqual([29, 30, 31, 32, 34, 35]);
  });

  it('makes a namespace inserted with its resource resolvable', async () => {
    expect((await resolve('newns:ABC123')).status).toBe(400);

    const insert = () => r.db.transaction(async (trx) => {
      const [ns] = (await trx.raw(
        `INSERT INTO namespaces (prefix, mir_id, name, pattern, description, sample_id)
         VALUES ('newns', 'MIR:00999001', 'A new namespace', '^[A-Z]+\\d+$', 'Inserted by hand in a test', 'ABC123')
         RETURNING id`,
      )).rows as { id: number }[];
      const institution = (await trx.raw("SELECT id FROM institutions WHERE name = 'European Bioinformatics Institute'")).rows[0] as { id: number };
      await trx.raw(
        `INSERT INTO resources (mir_id, url_pattern, name, description, official, provider_code, resource_home_url,
                                namespace_id, institution_id, location_country_code)
         VALUES ('MIR:00999002', 'https://newns.example.org/entry/{$id}', 'New provider', 'The new provider', true, 'new',
                 'https://newns.example.org/', ?, ?, 'GB')`,
        [ns!.id, institution.id],
      );
    });
    await changeAndWait(insert, 'newns:ABC123', (a) => a.status === 200, 'the inserted namespace resolving');
    const answer = await resolve('newns:ABC123');
    expect(answer.resources).toHaveLength(1);
    expect(answer.resources[0]).toMatchObject({
      compactIdentifierResolvedUrl: 'https://newns.example.org/entry/ABC123',
      institution: { name: 'European Bioinformatics Institute' },
    });
  });

  it('answers a deleted namespace with 400 as an unknown prefix', async () => {
    expect((await resolve('pmc:PMC3084216')).status).toBe(200);

    const remove = () => r.db.raw("DELETE FROM namespaces WHERE prefix = 'pmc'");
    await changeAndWait(remove, 'pmc:PMC3084216', (a) => a.status === 400, 'the deleted namespace disappearing');
    expect((await resolve('pmc:PMC3084216')).errorMessage).toBe(
      "Resolution request 'pmc:PMC3084216' is NOT A NAMESPACE; INVALID Compact Identifier resolution request for 'pmc:PMC3084216'",
    );
  });

  it('shows a renamed institution in the resolved resources', async () => {
    const old = 'National Center for Biotechnology Information';
    expect((await resolve('taxonomy:9606')).resources.find((x) => x.id === 29)?.institution.name).toBe(old);

    await changeAndWait(
      () => r.db.raw('UPDATE institutions SET name = ? WHERE name = ?', ['NCBI (renamed)', old]),
      'taxonomy:9606',
      (a) => a.resources.find((x) => x.id === 29)?.institution.name === 'NCBI (renamed)',
      'the institution rename reaching resolution',
    );
    // Every resource of that institution, in every namespace, shows the new name.
    expect((await resolve('pubmed:16333295')).resources.find((x) => x.id === 58)?.institution.name).toBe('NCBI (renamed)');
  });
});
