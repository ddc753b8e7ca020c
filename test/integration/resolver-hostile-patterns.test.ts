/**
 * Registry patterns that backtrack catastrophically must not stall the resolver (issue 10): ncbiprotein's
 * `^\w+_?\d+(.\d+)?$` took 12.9 s to refuse `ncbiprotein:` followed by 2,047 zeros and `!`, and the process
 * answered nothing else meanwhile. A resolver process (dist/src/resolver/main.js) over the sample
 * registry plus ncbiprotein, soybase and tritrypdb, all three as published.
 */
import { startStack, type AreaStack } from '../support/areas.js';
import { stopProcess } from '../support/processes.js';
import { startAreaProcess, type AreaProcess } from '../support/service-processes.js';
import { waitFor } from '../support/wait.js';

const HOSTILE_LUI = '0'.repeat(2047) + '!';
const HOSTILE_CURIE = `ncbiprotein:${HOSTILE_LUI}`;
// Generous for a loaded test machine: the issue asks for 100 ms; measured here 15 to 100 ms, 28 µs of it in the regex.
const HOSTILE_LIMIT_MS = 500;
// p99 of the probes, which queue behind up to 20 hostile requests on a machine shared with the test's own
// 23 clients (and, on the test machines, with other test runs): measured 80 to 220 ms p99 at a load average
// of 6 on 2 cores, p50 about 20 ms. Before the fix a probe waited 12.9 s per hostile request ahead of it.
const PROBE_LIMIT_MS = 500;
// Before the fix one hostile request held the process for 12.9 s: give up well before that.
const GIVE_UP_MS = 5000;

interface Institution {
  id: number;
  name: string;
}

/** A namespace entry in the dataset format, with one provider. */
function namespaceEntry(
  ns: { id: number; prefix: string; mirId: string; name: string; pattern: string; sampleId: string },
  provider: { id: number; mirId: string; providerCode: string; urlPattern: string; institution: Institution },
): unknown {
  const location = { countryCode: 'US', countryName: 'United States' };
  return {
    created: '2019-06-11T14:15:29.882+00:00',
    deprecated: false,
    deprecationDate: null,
    deprecationOfflineDate: null,
    deprecationStatement: null,
    description: `${ns.name}, as published by identifiers.org.`,
    id: ns.id,
    infoOnPostmortemAccess: null,
    mirId: ns.mirId,
    modified: '2019-06-11T14:15:29.882+00:00',
    name: ns.name,
    namespaceEmbeddedInLui: false,
    pattern: ns.pattern,
    prefix: ns.prefix,
    renderDeprecatedLanding: false,
    sampleId: ns.sampleId,
    resources: [
      {
        authHelpDescription: null,
        authHelpUrl: null,
        deprecated: false,
        deprecationDate: null,
        deprecationOfflineDate: null,
        deprecationStatement: null,
        description: ns.name,
        id: provider.id,
        institution: { description: provider.institution.name, homeUrl: 'https://institution.example.org/', id: provider.institution.id, location, name: provider.institution.name, rorId: null },
        location,
        mirId: provider.mirId,
        name: ns.name,
        official: true,
        protectedUrls: false,
        providerCode: provider.providerCode,
        renderDeprecatedLanding: false,
        renderProtectedLanding: false,
        resourceHomeUrl: 'https://provider.example.org/',
        sampleId: ns.sampleId,
        urlPattern: provider.urlPattern,
      },
    ],
  };
}

const HOSTILE_NAMESPACES = [
  namespaceEntry(
    { id: 987, prefix: 'ncbiprotein', mirId: 'MIR:00000344', name: 'NCBI Protein', pattern: '^\\w+_?\\d+(.\\d+)?$', sampleId: 'CAA71118.1' },
    { id: 988, mirId: 'MIR:00100439', providerCode: 'ncbi', urlPattern: 'https://www.ncbi.nlm.nih.gov/protein/{$id}', institution: { id: 9001, name: 'NCBI Protein institution' } },
  ),
  namespaceEntry(
    { id: 853, prefix: 'soybase', mirId: 'MIR:00000291', name: 'SoyBase', pattern: '^\\w+(\\-)?\\w+(\\-)?\\w+$', sampleId: 'BARC-013845-01256' },
    { id: 855, mirId: 'MIR:00100373', providerCode: 'soybase', urlPattern: 'https://soybase.example.org/search?term={$id}', institution: { id: 9002, name: 'SoyBase institution' } },
  ),
  namespaceEntry(
    { id: 481, prefix: 'tritrypdb', mirId: 'MIR:00000155', name: 'TriTrypDB', pattern: '^\\w+(\\.)?\\w+(\\.)?\\w+$', sampleId: 'Tb927.8.620' },
    { id: 483, mirId: 'MIR:00100200', providerCode: 'tritrypdb', urlPattern: 'https://tritrypdb.example.org/record?source_id={$id}', institution: { id: 9003, name: 'TriTrypDB institution' } },
  ),
];

let t: AreaStack;
let resolver: AreaProcess;
let base: string;

beforeAll(async () => {
  t = await startStack('resolver_hostile_patterns', { data: { extra: HOSTILE_NAMESPACES } });
  resolver = await startAreaProcess('resolver', t, { LOG_LEVEL: 'info' });
  base = resolver.base;
}, 60000);

afterAll(async () => {
  // SIGKILL: a resolver stalled in a regex would not act on SIGTERM for minutes.
  await stopProcess(resolver, 'SIGKILL');
  await t?.close();
});

/** Status and duration of one request, failing the test instead of waiting for a stalled resolver. */
async function timed(pathAndQuery: string, init: RequestInit = {}): Promise<{ status: number; ms: number; body: string }> {
  const started = performance.now();
  const res = await fetch(`${base}${pathAndQuery}`, { ...init, signal: AbortSignal.timeout(GIVE_UP_MS) });
  const body = await res.text();
  return { status: res.status, ms: performance.now() - started, body };
}

const patternChecksDone = () =>
  waitFor(async () => resolver.output().includes('LUI patterns checked for catastrophic backtracking'), { timeoutMs: 60000, what: 'the pattern checks' });

const postJson = (pathAndQuery: string, body: unknown) =>
  timed(pathAndQuery, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

describe('a registry pattern that backtracks catastrophically', () => {
  it('answers the hostile ncbiprotein identifier with 400 at once', async () => {
    const answer = await timed(`/${HOSTILE_CURIE}`);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ errorMessage: expect.stringContaining('DOES NOT MATCH local IDs definition pattern') });
    expect(answer.ms).toBeLessThan(HOSTILE_LIMIT_MS);
  });

  it.each([
    ['ncbiprotein', 'CAA71118.1'],
    ['soybase', 'BARC-013845-01256'],
    ['tritrypdb', 'Tb927.8.620'],
  ])('still resolves %s’s sample id', async (prefix, sampleId) => {
    const answer = await timed(`/${prefix}:${sampleId}`);
    expect(answer.status).toBe(200);
  });

  it('keeps /health/live and other resolutions fast while 20 hostile requests run', async () => {
    // Measured in the steady state: while the checker runs (2 s after start here) it competes for the CPU.
    await patternChecksDone();
    // 20 clients each sending the hostile request again as soon as it is answered, for a while.
    const until = performance.now() + 1500;
    const hostile: { status: number; ms: number }[] = [];
    const attack = async () => {
      while (performance.now() < until) hostile.push(await timed(`/${HOSTILE_CURIE}`));
    };
    const probes: { path: string; status: number; ms: number }[] = [];
    const probe = async (probePath: string) => {
      while (performance.now() < until) probes.push({ path: probePath, ...(await timed(probePath)) });
    };
    await Promise.all([
      ...Array.from({ length: 20 }, attack),
      probe('/health/live'),
      probe('/taxonomy:9606'),
      probe('/soybase:BARC-013845-01256'),
    ]);

    expect(hostile.filter((a) => a.status !== 400)).toEqual([]);
    expect(hostile.length).toBeGreaterThanOrEqual(20);
    const hostileMs = hostile.map((a) => a.ms).sort((a, b) => a - b);
    expect(hostileMs[Math.floor(hostileMs.length * 0.99)]).toBeLessThan(HOSTILE_LIMIT_MS);
    expect(probes.filter((p) => p.status !== 200)).toEqual([]);
    expect(probes.length).toBeGreaterThanOrEqual(15);
    const probeMs = probes.map((p) => p.ms).sort((a, b) => a - b);
    expect(probeMs[Math.floor(probeMs.length * 0.99)]).toBeLessThan(PROBE_LIMIT_MS);
    expect(probeMs[probeMs.length - 1]).toBeLessThan(2 * PROBE_LIMIT_MS);
  }, 90000);

  it('answers a batch of hostile identifiers at once', async () => {
    const soybase = `soybase:${'a'.repeat(2047)}!`;
    const tritrypdb = `tritrypdb:${'a'.repeat(2047)}!`;
    const answer = await postJson('/resolve/batch', { apiVersion: '1.0', payload: { compactIdentifiers: [HOSTILE_CURIE, soybase, tritrypdb, 'taxonomy:9606'] } });
    expect(answer.status).toBe(200);
    const results = (JSON.parse(answer.body) as { payload: { results: { status: number }[] } }).payload.results;
    expect(results.map((r) => r.status)).toEqual([400, 400, 400, 200]);
    expect(answer.ms).toBeLessThan(HOSTILE_LIMIT_MS);
  });

  it('answers a reverse lookup of a hostile provider URL at once', async () => {
    const url = `https://www.ncbi.nlm.nih.gov/protein/${HOSTILE_LUI}`;
    for (const endpoint of ['/reverse/byPrefix', '/reverse/bySimilarity']) {
      const answer = await postJson(endpoint, { apiVersion: '1.0', payload: { url } });
      expect({ endpoint, status: answer.status < 500 }).toEqual({ endpoint, status: true });
      expect(answer.ms).toBeLessThan(HOSTILE_LIMIT_MS);
    }
  });

  it('reports the flagged patterns once their check is done, and keeps backtracking for the safe ones', async () => {
    await patternChecksDone();
    const warnings = resolver
      .output()
      .split('\n')
      .filter((line) => line.includes('matched with the linear-time engine'))
      .map((line) => (JSON.parse(line) as { prefixes: string[] }).prefixes.join(','));
    expect(warnings).toEqual(expect.arrayContaining(['ncbiprotein', 'soybase', 'tritrypdb', 'swh']));
    expect(warnings).not.toContain('taxonomy');
    // Verdicts in: the hostile request still answers at once, and a sample id still resolves.
    expect((await timed(`/${HOSTILE_CURIE}`)).ms).toBeLessThan(HOSTILE_LIMIT_MS);
    expect((await timed('/taxonomy:9606')).status).toBe(200);
  }, 90000);
});
