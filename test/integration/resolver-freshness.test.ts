/**
 * Registry changes made by plain SQL reach resolution promptly through LISTEN/NOTIFY, without waiting for
 * the periodic check (set to a minute here, far beyond every deadline below).
 */
import request from 'supertest';
import { startResolver, type ResolverUnderTest } from '../support/areas.js';
import { waitFor } from '../support/wait.js';

const DEADLINE_MS = 2000;

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
 * Milliseconds from the start of `change` (a committed SQL change) until `seen` holds for the answer to
 * `curie`, polling every 50 ms; fails after 5 s.
 */
async function timeUntil(
  change: () => Promise<unknown>,
  curie: string,
  seen: (answer: Awaited<ReturnType<typeof resolve>>) => boolean,
  what: string,
): Promise<number> {
  const started = performance.now();
  await change();
  await waitFor(async () => seen(await resolve(curie)), { timeoutMs: 5000, what });
  return Math.round(performance.now() - started);
}

describe('registry changes made by plain SQL', () => {
  it('shows a changed provider URL pattern within 2 s', async () => {
    const before = await resolve('taxonomy:9606');
    expect(before.resources.find((x) => x.id === 30)?.compactIdentifierResolvedUrl).toBe('https://purl.uniprot.org/taxonomy/9606');

    const ms = await timeUntil(
      () => r.db.raw("UPDATE resources SET url_pattern = 'https://taxa.changed.example.org/taxon/{$id}' WHERE mir_id = 'MIR:00100019'"),
      'taxonomy:9606',
      (a) => a.resources.some((x) => x.id === 30 && x.compactIdentifierResolvedUrl === 'https://taxa.changed.example.org/taxon/9606'),
      'the new URL pattern reaching resolution',
    );

    console.info(`freshness: UPDATE resources.url_pattern visible in resolution after ${ms} ms`);
    expect(ms).toBeLessThan(DEADLINE_MS);
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
    const ms = await timeUntil(insert, 'newns:ABC123', (a) => a.status === 200, 'the inserted namespace resolving');

    console.info(`freshness: INSERT of a namespace and resource resolvable after ${ms} ms`);
    expect(ms).toBeLessThan(DEADLINE_MS);
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
    const ms = await timeUntil(remove, 'pmc:PMC3084216', (a) => a.status === 400, 'the deleted namespace disappearing');

    console.info(`freshness: DELETE of a namespace visible after ${ms} ms`);
    expect(ms).toBeLessThan(DEADLINE_MS);
    expect((await resolve('pmc:PMC3084216')).errorMessage).toBe(
      "Resolution request 'pmc:PMC3084216' is NOT A NAMESPACE; INVALID Compact Identifier resolution request for 'pmc:PMC3084216'",
    );
  });

  it('shows a renamed institution in the resolved resources', async () => {
    const old = 'National Center for Biotechnology Information';
    expect((await resolve('taxonomy:9606')).resources.find((x) => x.id === 29)?.institution.name).toBe(old);

    const ms = await timeUntil(
      () => r.db.raw('UPDATE institutions SET name = ? WHERE name = ?', ['NCBI (renamed)', old]),
      'taxonomy:9606',
      (a) => a.resources.find((x) => x.id === 29)?.institution.name === 'NCBI (renamed)',
      'the institution rename reaching resolution',
    );

    console.info(`freshness: institution rename visible after ${ms} ms`);
    expect(ms).toBeLessThan(DEADLINE_MS);
    // Every resource of that institution, in every namespace, shows the new name.
    expect((await resolve('pubmed:16333295')).resources.find((x) => x.id === 58)?.institution.name).toBe('NCBI (renamed)');
  });
});
