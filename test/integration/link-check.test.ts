/**
 * Link checks (issue 12) against fixture providers on 127.0.0.1, so URL_CHECK_ALLOW_PRIVATE_NETWORKS is on in
 * this file's processes (and in link-check-workers). `npm run linkcheck -- --prefix P --wait` plans a run of a
 * namespace whose providers each behave one way, a compiled worker process makes the checks, and every
 * outcome class is read back from link_checks. The host delay is short here: politeness at its defaults is
 * link-check-workers.test.ts's subject.
 */
import { randomBytes } from 'node:crypto';
import type { LinkCheckRow } from '../../src/db/tables.js';
import { fetchForLinkCheck } from '../../src/lib/http-client.js';
import { classifyCheck } from '../../src/link-check/classify-check.js';
import { deleteQueueKeys } from '../../src/queue/queue-keys.js';
import { LINK_CHECK_MAX_BODY_BYTES, LINK_CHECK_MAX_REDIRECTS } from '../../workers/link-check/link-check.worker.js';
import { fixtureNamespace, type FixtureProvider } from '../factories/link-check.factory.js';
import { startStack, type AreaStack } from '../support/areas.js';
import { startLinkFixture, type LinkFixture } from '../support/link-check-fixture.js';
import { freePort, spawnNode, stopProcess, type Spawned } from '../support/processes.js';
import { spawnWorker, waitForQueueWorkers } from '../support/service-processes.js';

const LONG = 120_000;
const CONTACT = 'https://registry.test/about-link-checks';
const checkEnv = {
  URL_CHECK_ALLOW_PRIVATE_NETWORKS: 'true',
  LINKCHECK_HOST_DELAY_MS: '50',
  LINKCHECK_TIMEOUT_MS: '700',
  LINKCHECK_CONTACT_URL: CONTACT,
};

/** Provider code → what its sample URL does, and the class it must be stored as. */
const BEHAVIOURS: { code: string; sample: string; expected: string; protectedUrls?: boolean }[] = [
  { code: 'up', sample: '/ok/{$id}', expected: 'up' },
  { code: 'headrefused', sample: '/head-refused/{$id}', expected: 'up' },
  { code: 'huge', sample: '/huge/{$id}', expected: 'up' },
  { code: 'missing', sample: '/status/404/{$id}', expected: 'not_found' },
  { code: 'gone', sample: '/status/410/{$id}', expected: 'not_found' },
  { code: 'broken', sample: '/status/500/{$id}', expected: 'http_error' },
  { code: 'slow', sample: '/hang/{$id}', expected: 'timeout' },
  { code: 'closed', sample: 'CLOSED', expected: 'refused' },
  { code: 'retryonce', sample: '/retry-once/{$id}', expected: 'up' },
  { code: 'retryalways', sample: '/retry-always/{$id}', expected: 'http_error' },
  { code: 'challenge', sample: '/challenge/{$id}', expected: 'bot_blocked' },
  { code: 'cf', sample: '/cf/{$id}', expected: 'bot_blocked' },
  { code: 'loop', sample: '/loop/a/{$id}', expected: 'redirect_loop' },
  { code: 'login', sample: '/status/401/{$id}', expected: 'protected', protectedUrls: true },
  { code: 'loginpublic', sample: '/status/401/{$id}', expected: 'http_error' },
  { code: 'ftp', sample: 'ftp://127.0.0.1/{$id}', expected: 'skipped' },
];

/** `npm run linkcheck` as its script runs it (dist/src/cli.js linkcheck). */
async function runLinkcheckCli(t: AreaStack, args: string[], env: Record<string, string> = {}) {
  const child = spawnNode('dist/src/cli.js', {
    DATABASE_URL: t.url,
    REDIS_URL: t.config.REDIS_URL,
    QUEUE_PREFIX: t.config.QUEUE_PREFIX,
    LOG_LEVEL: 'warn',
    ...env,
  }, ['linkcheck', ...args]);
  const { code } = await child.exited;
  return { code, output: child.output() };
}

describe('link checks through npm run linkcheck and a worker process', () => {
  let t: AreaStack;
  let fixture: LinkFixture;
  let worker: Spawned;
  let closedPort: number;
  const prefix = `lc${randomBytes(3).toString('hex')}`;

  beforeAll(async () => {
    fixture = await startLinkFixture();
    closedPort = await freePort();
    const providers: FixtureProvider[] = BEHAVIOURS.map(({ code, sample, protectedUrls }) => ({
      code,
      urlPattern: sample === 'CLOSED' ? `http://127.0.0.1:${closedPort}/{$id}` : sample.startsWith('/') ? fixture.url(sample) : sample,
      resourceHomeUrl: fixture.url(`/home/${code}`),
      protectedUrls,
    }));
    providers.push({ code: 'retired', urlPattern: fixture.url('/ok/retired/{$id}'), resourceHomeUrl: fixture.url('/home/retired'), deprecated: true });
    t = await startStack('link-check', { data: { records: [fixtureNamespace(prefix, providers, { sampleId: 'S1' })] } });
    worker = spawnWorker(t, checkEnv);
    await waitForQueueWorkers('link-check', 1, { redisUrl: t.config.REDIS_URL, prefix: t.config.QUEUE_PREFIX });
  }, LONG);

  afterAll(async () => {
    await stopProcess(worker);
    await t?.close();
    await fixture?.close();
  });

  const checksOfRun = async (runId: string) =>
    (await t.db('link_checks as c')
      .join('resources as r', 'r.id', 'c.resourceId')
      .where('c.runId', runId)
      .select('c.*', 'r.providerCode')) as (LinkCheckRow & { providerCode: string })[];

  it('checks every provider once, stores each outcome class, and --wait prints the progress and the summary', async () => {
    const { code, output } = await runLinkcheckCli(t, ['--prefix', prefix.toUpperCase(), '--wait']);
    expect(output).toMatch(/Planned link-check run manual-\d+-[0-9a-f]+: 32 checks of namespace lc[0-9a-f]+, spread over 0ms\./);
    expect(code).toBe(0);
    const runId = /run (manual-[\w-]+)/.exec(output)![1]!;
    expect(output).toMatch(/checked 32\/32 \(100 %\)/);
    expect(output).toContain(`Run ${runId} finished: 32 checks`);

    const checks = await checksOfRun(runId);
    expect(checks).toHaveLength(32);
    const samples = Object.fromEntries(checks.filter((c) => c.urlKind === 'sample').map((c) => [c.providerCode, c.outcome]));
    expect(samples).toEqual(Object.fromEntries(BEHAVIOURS.map((b) => [b.code, b.expected])));
    // Every home page is up; the deprecated resource is not checked.
    expect(checks.filter((c) => c.urlKind === 'home').map((c) => c.outcome)).toEqual(Array(16).fill('up'));
    expect(fixture.requestsTo('/ok/retired')).toEqual([]);

    // The summary table: up (3 up + retryonce + 16 homes, 1 protected), down by class, bot-blocked, skipped.
    expect(output).toMatch(/^up\s+21\s+\(20 up, 1 protected/m);
    expect(output).toMatch(/^down\s+8$/m);
    expect(output).toMatch(/^ {2}not_found\s+2$/m);
    expect(output).toMatch(/^ {2}http_error\s+3$/m);
    expect(output).toMatch(/^ {2}timeout\s+1$/m);
    expect(output).toMatch(/^ {2}refused\s+1$/m);
    expect(output).toMatch(/^ {2}redirect_loop\s+1$/m);
    expect(output).toMatch(/^ {2}dns\s+0$/m);
    expect(output).toMatch(/^bot_blocked\s+2\s/m);
    expect(output).toMatch(/^skipped\s+1\s/m);
    expect(output).toMatch(/^total\s+32$/m);

    const run = await t.db('link_check_runs').where({ id: runId }).first();
    expect(run).toMatchObject({ prefix, planned: 32, done: 32 });
    expect(run!.finishedAt).toBeInstanceOf(Date);
  }, LONG);

  it('asks with HEAD first and GETs only when HEAD does not settle it, as the service with its contact URL', async () => {
    expect(fixture.requestsTo('/ok/').map((r) => r.method)).toEqual(['HEAD']);
    expect(fixture.requestsTo('/head-refused/').map((r) => r.method)).toEqual(['HEAD', 'GET']);
    expect(fixture.requestsTo('/challenge/').map((r) => r.method)).toEqual(['HEAD', 'GET']);
    for (const r of fixture.requests) expect(r.userAgent).toBe(`Mozilla/5.0 (compatible; curie-resolver-linkcheck/1.0; +${CONTACT})`);
    // The endless body was read up to 64 KiB and the connection dropped.
    expect(fixture.hugeClosed()).toBe(1);
  });

  it('honours Retry-After: the check comes back after it, and a host that keeps asking is recorded as its answer', async () => {
    const once = fixture.requestsTo('/retry-once/');
    expect(once.map((r) => r.method)).toEqual(['HEAD', 'GET']);
    expect(once[1]!.start - once[0]!.start).toBeGreaterThanOrEqual(990);
    const always = fixture.requestsTo('/retry-always/');
    // HEAD, then GET twice more: two deferrals, then the 429 is the result.
    expect(always.map((r) => r.method)).toEqual(['HEAD', 'GET', 'GET']);
    for (let i = 1; i < always.length; i++) expect(always[i]!.start - always[i - 1]!.start).toBeGreaterThanOrEqual(990);
    const [stored] = await t.db('link_checks as c').join('resources as r', 'r.id', 'c.resourceId').where('r.providerCode', 'retryalways').andWhere('c.urlKind', 'sample').select('c.*');
    expect(stored).toMatchObject({ httpStatus: 429, outcome: 'http_error' });
  });

  it('stores what a check found besides its class: status, final URL, latency and detail', async () => {
    const rows = (await t.db('link_checks as c').join('resources as r', 'r.id', 'c.resourceId').where('c.urlKind', 'sample').select('c.*', 'r.providerCode')) as (LinkCheckRow & { providerCode: string })[];
    const by = Object.fromEntries(rows.map((r) => [r.providerCode, r]));
    expect(by.missing).toMatchObject({ httpStatus: 404, url: fixture.url('/status/404/S1'), finalUrl: fixture.url('/status/404/S1') });
    expect(by.loop).toMatchObject({ httpStatus: null, detail: `back to ${fixture.url('/loop/b')}` });
    expect(by.challenge!.detail).toMatch(/challenge page/);
    expect(by.cf!.detail).toBe('cf-mitigated: challenge');
    expect(by.closed).toMatchObject({ outcome: 'refused', detail: 'ECONNREFUSED' });
    expect(by.ftp).toMatchObject({ outcome: 'skipped', detail: 'only http and https URLs are checked', latencyMs: null });
    expect(by.up!.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('--wait says so and stops when no worker takes the jobs', async () => {
    const lonelyPrefix = `${t.config.QUEUE_PREFIX}-lonely`;
    try {
      const { code, output } = await runLinkcheckCli(t, ['--prefix', prefix, '--wait', '--timeout', '2s'], { QUEUE_PREFIX: lonelyPrefix });
      expect(code).toBe(1);
      expect(output).toContain('No worker process is taking link-check jobs: start one (npm run start:worker)');
      expect(output).toMatch(/not finished after 2s \(0 of 32 checks\); stopped waiting/);
    } finally {
      await deleteQueueKeys(t.redis, lonelyPrefix);
    }
  }, LONG);

  it('refuses an unknown prefix and bad arguments', async () => {
    const unknown = await runLinkcheckCli(t, ['--prefix', 'no-such-prefix']);
    expect(unknown).toMatchObject({ code: 1 });
    expect(unknown.output).toContain('No namespace has the prefix "no-such-prefix".');
    const bad = await runLinkcheckCli(t, ['--spread', 'soon']);
    expect(bad.code).toBe(2);
    expect(bad.output).toMatch(/^Usage: npm run linkcheck/);
  }, LONG);
});

describe('the link-check fetcher', () => {
  const options = { allowPrivateNetworks: true, timeoutMs: 1000, maxRedirects: LINK_CHECK_MAX_REDIRECTS, maxBodyBytes: LINK_CHECK_MAX_BODY_BYTES, userAgent: 'test' };

  it('classes a name that does not resolve as dns, without asking any DNS server', async () => {
    const notFound = Object.assign(new Error('getaddrinfo ENOTFOUND provider.invalid'), { code: 'ENOTFOUND' });
    const result = await fetchForLinkCheck('http://provider.invalid/x', 'HEAD', {
      ...options,
      dnsLookup: ((_host: string, _opts: unknown, callback: (error: Error) => void) => callback(notFound)) as never,
    });
    expect(classifyCheck(result, false)).toMatchObject({ outcome: 'dns', detail: 'ENOTFOUND' });
  });

  it('does not reach a loopback address with private networks off: skipped', async () => {
    const fixture = await startLinkFixture();
    try {
      const result = await fetchForLinkCheck(fixture.url('/ok/1'), 'HEAD', { ...options, allowPrivateNetworks: false });
      expect(classifyCheck(result, false)).toMatchObject({ outcome: 'skipped' });
      expect(fixture.requests).toEqual([]);
    } finally {
      await fixture.close();
    }
  });

  it('ends a redirect loop at its first repeat', async () => {
    const fixture = await startLinkFixture();
    try {
      // /loop/a and /loop/b alternate: with loop detection it ends at the first repeat, after two requests.
      const result = await fetchForLinkCheck(fixture.url('/loop/a'), 'GET', options);
      expect(classifyCheck(result, false)).toMatchObject({ outcome: 'redirect_loop' });
      expect(fixture.requests.map((r) => r.path)).toEqual(['/loop/a', '/loop/b']);
    } finally {
      await fixture.close();
    }
  });
});
