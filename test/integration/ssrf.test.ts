/**
 * The URL-check fetcher's guard against server-side request forgery, through the real fetcher with the
 * service's own setting (URL_CHECK_ALLOW_PRIVATE_NETWORKS off, asserted first).
 *
 * Only loopback is ever contacted: bypass forms are aimed at a fixture server on 127.0.0.1 that records every
 * connection, and must leave it untouched. For private, link-local, metadata and other ranges nothing is sent
 * anywhere: a stubbed DNS lookup answers such an address and the test checks the refusal came before any
 * connection was attempted, with a trap that would stop a connection (and fail the test) if the guard ever let
 * one through.
 *
 * The redirect hop: a redirect needs a first server that is allowed, and an allowed server would have to be
 * public, which tests must not contact. So the first hop is a second loopback address, 127.0.0.2, let through
 * by exact address (the fetcher's test-only `allowedAddresses`, request-filtering-agent's allow list) while
 * the switch stays off; it redirects to 127.0.0.1, which must be refused at the hop. The same stand-in serves
 * the DNS-rebinding case: one name resolving first to 127.0.0.2, then to 127.0.0.1.
 */
import async_hooks from 'node:async_hooks';
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import net, { type LookupFunction } from 'node:net';
import { loadConfig } from '../../src/config.js';
import { fetchForCheck, refusalReasons, type FetchForCheckOptions, type FetchForCheckResult } from '../../src/lib/http-client.js';
import { verdictFor } from '../../workers/url-check/url-verdict.js';

const config = loadConfig(process.env);

/** Like the worker's options, from the service's configuration. */
const options = (extra: Partial<FetchForCheckOptions> = {}): FetchForCheckOptions => ({
  allowPrivateNetworks: config.URL_CHECK_ALLOW_PRIVATE_NETWORKS,
  timeoutMs: 3000,
  maxRedirects: 5,
  maxBodyBytes: 1024 * 1024,
  userAgent: 'ssrf-test',
  ...extra,
});

interface Fixture {
  port: number;
  /** Connections accepted and requests received, on every address it listens on. */
  connections: number;
  requests: string[];
  close: () => Promise<void>;
}

async function listen(server: http.Server, host: string, port = 0): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as net.AddressInfo).port;
}

/** A server on 127.0.0.1 (and ::1 on the same port, where the machine has IPv6) that counts everything. */
async function startTarget(): Promise<Fixture> {
  const fixture: Fixture = { port: 0, connections: 0, requests: [], close: async () => undefined };
  const handler: http.RequestListener = (req, res) => {
    fixture.requests.push(`${req.method} ${req.url}`);
    res.end('secret');
  };
  const v4 = http.createServer(handler);
  v4.on('connection', () => (fixture.connections += 1));
  fixture.port = await listen(v4, '127.0.0.1');
  const servers = [v4];
  const v6 = http.createServer(handler);
  v6.on('connection', () => (fixture.connections += 1));
  try {
    await listen(v6, '::1', fixture.port);
    servers.push(v6);
  } catch {
    // No IPv6 loopback here: [::1] then cannot reach anything at all.
  }
  fixture.close = async () => {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  };
  return fixture;
}

/** The stand-in for a public server: 127.0.0.2, answering with a redirect to wherever the test says. */
async function startHop(location: () => string): Promise<{ port: number; hits: number; close: () => Promise<void> }> {
  const hop = { port: 0, hits: 0, close: async () => undefined as unknown };
  const server = http.createServer((_req, res) => {
    hop.hits += 1;
    res.writeHead(302, { location: location() });
    res.end();
  });
  hop.port = await listen(server, '127.0.0.2');
  hop.close = () => new Promise((resolve) => server.close(resolve));
  return hop as { port: number; hits: number; close: () => Promise<void> };
}

/** TCP connect attempts made by this process (Node creates a TCPCONNECTWRAP for each connect() it issues). */
const connectAttempts = { count: 0 };
const hook = async_hooks.createHook({
  init(_id, type) {
    if (type === 'TCPCONNECTWRAP') connectAttempts.count += 1;
  },
});

/** A lookup that answers `addresses` (in turn, one list per call; the last one repeats) and records the names. */
function stubLookup(...answers: string[][]): LookupFunction & { calls: string[] } {
  const calls: string[] = [];
  const lookup = ((hostname: string, opts: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    calls.push(hostname);
    const answer = answers[Math.min(calls.length, answers.length) - 1] ?? [];
    const records: LookupAddress[] = answer.map((address) => ({ address, family: net.isIPv6(address) ? 6 : 4 }));
    if (opts.all) callback(null, records);
    else callback(null, records[0]?.address, records[0]?.family);
  }) as unknown as LookupFunction & { calls: string[] };
  lookup.calls = calls;
  return lookup;
}

const refused = (url: string, reason: string): FetchForCheckResult => ({ ok: false, failure: { kind: 'refused', url, reason } });

let target: Fixture;

beforeAll(async () => {
  target = await startTarget();
  hook.enable();
});

afterAll(async () => {
  hook.disable();
  await target.close();
});

describe('with URL_CHECK_ALLOW_PRIVATE_NETWORKS off', () => {
  it('runs with the switch off, its default', () => {
    expect(config.URL_CHECK_ALLOW_PRIVATE_NETWORKS).toBe(false);
    expect(loadConfig({}).URL_CHECK_ALLOW_PRIVATE_NETWORKS).toBe(false);
  });

  describe('refuses every spelling of loopback, and the fixture server is never reached', () => {
    const address = refusalReasons.address;
    const cases: [string, (port: number) => string, string][] = [
      ['decimal 127.0.0.1', (p) => `http://2130706433:${p}/`, address],
      ['octal 127.0.0.1', (p) => `http://017700000001:${p}/`, address],
      ['dotted octal 127.0.0.1', (p) => `http://0177.0.0.1:${p}/`, address],
      ['hex 127.0.0.1', (p) => `http://0x7f000001:${p}/`, address],
      ['dotted hex 127.0.0.1', (p) => `http://0x7f.0.0.1:${p}/`, address],
      ['127.1', (p) => `http://127.1:${p}/`, address],
      ['zero-padded 127.0.0.1', (p) => `http://127.000.000.001:${p}/`, address],
      ['plain 127.0.0.1', (p) => `http://127.0.0.1:${p}/`, address],
      ['https to 127.0.0.1', (p) => `https://127.0.0.1:${p}/`, address],
      ['0.0.0.0', (p) => `http://0.0.0.0:${p}/`, address],
      ['[::]', (p) => `http://[::]:${p}/`, address],
      ['[::1]', (p) => `http://[::1]:${p}/`, address],
      ['IPv4-mapped IPv6, dotted', (p) => `http://[::ffff:127.0.0.1]:${p}/`, address],
      ['IPv4-mapped IPv6, hex', (p) => `http://[::ffff:7f00:1]:${p}/`, address],
      ['localhost', (p) => `http://localhost:${p}/`, address],
      ['credentials in the URL', (p) => `http://user:pass@127.0.0.1:${p}/`, refusalReasons.credentials],
      ['a user name in the URL', (p) => `http://user@127.0.0.1:${p}/`, refusalReasons.credentials],
      ['file:', () => 'file:///etc/passwd', refusalReasons.scheme],
      ['ftp:', (p) => `ftp://127.0.0.1:${p}/`, refusalReasons.scheme],
      ['gopher:', (p) => `gopher://127.0.0.1:${p}/_GET%20/`, refusalReasons.scheme],
      ['data:', () => 'data:text/plain,hello', refusalReasons.scheme],
    ];

    it.each(cases)('%s', async (_name, build, reason) => {
      const url = build(target.port);
      const before = { connections: target.connections, requests: target.requests.length };

      const result = await fetchForCheck(url, options());

      expect(result).toEqual(refused(url, reason));
      expect(verdictFor(url, false, result, 10_000)).toEqual({ ok: false, message: `URL ${url} is not allowed: ${reason}` });
      expect({ connections: target.connections, requests: target.requests.length }).toEqual(before);
    });

    it('refuses a redirect to 127.0.0.1 at the hop', async () => {
      const secret = `http://127.0.0.1:${target.port}/secret`;
      const hop = await startHop(() => secret);
      try {
        const result = await fetchForCheck(`http://127.0.0.2:${hop.port}/`, options({ allowedAddresses: ['127.0.0.2'] }));

        expect(result).toEqual(refused(secret, refusalReasons.address));
        expect(verdictFor(`http://127.0.0.2:${hop.port}/`, false, result, 10_000)).toEqual({
          ok: false,
          message: `URL ${secret} is not allowed: it points to a private or loopback address`,
        });
        expect(hop.hits).toBe(1);
      } finally {
        await hop.close();
      }
    });

    it('refuses a redirect to a name that now resolves to 127.0.0.1 (DNS rebinding)', async () => {
      const lookup = stubLookup(['127.0.0.2'], ['127.0.0.1']);
      const hop = await startHop(() => `http://rebind.test:${target.port}/secret`);
      try {
        const result = await fetchForCheck(`http://rebind.test:${hop.port}/`, options({ allowedAddresses: ['127.0.0.2'], dnsLookup: lookup }));

        expect(result).toEqual(refused(`http://rebind.test:${target.port}/secret`, refusalReasons.address));
        expect(hop.hits).toBe(1);
        expect(lookup.calls).toEqual(['rebind.test', 'rebind.test']);
      } finally {
        await hop.close();
      }
    });

    it.each([
      ['file:', () => 'file:///etc/passwd', refusalReasons.scheme],
      ['gopher:', (p: number) => `gopher://127.0.0.1:${p}/`, refusalReasons.scheme],
      ['credentials', (p: number) => `http://user:pass@127.0.0.1:${p}/`, refusalReasons.credentials],
    ])('refuses a redirect to %s before following it', async (_name, build, reason) => {
      const location = build(target.port);
      const hop = await startHop(() => location);
      try {
        const result = await fetchForCheck(`http://127.0.0.2:${hop.port}/`, options({ allowedAddresses: ['127.0.0.2'] }));

        expect(result).toEqual(refused(location, reason));
      } finally {
        await hop.close();
      }
    });

    it('left the fixture server untouched through all of the above', () => {
      expect(target.requests).toEqual([]);
      expect(target.connections).toBe(0);
    });
  });

  describe('decides on the address before connecting, for addresses that are never contacted', () => {
    // A safety net for the tests themselves: a socket whose lookup succeeded is about to connect. Were the
    // guard broken, the trap destroys it first (no packet leaves) and the count makes the test fail.
    const trap = { armed: false, caught: [] as string[] };
    type Emit = (this: net.Socket, event: string | symbol, ...args: unknown[]) => boolean;
    const originalEmit = net.Socket.prototype.emit as Emit;
    beforeAll(() => {
      const trapConnect: Emit = function (event, ...args) {
        if (trap.armed && event === 'lookup' && !args[0]) {
          trap.caught.push(String(args[1]));
          this.destroy();
        }
        return originalEmit.call(this, event, ...args);
      };
      net.Socket.prototype.emit = trapConnect as typeof net.Socket.prototype.emit;
    });
    afterAll(() => {
      net.Socket.prototype.emit = originalEmit as typeof net.Socket.prototype.emit;
    });
    beforeEach(() => {
      trap.armed = true;
      trap.caught = [];
    });
    afterEach(() => {
      trap.armed = false;
    });

    it('has a working trap: a let-through address is stopped before it connects', async () => {
      const lookup = stubLookup(['127.0.0.2']);
      const attempts = connectAttempts.count;

      const result = await fetchForCheck('http://allowed.test/', options({ allowedAddresses: ['127.0.0.2'], dnsLookup: lookup }));

      expect(result.ok).toBe(false);
      expect(trap.caught).toEqual(['127.0.0.2']);
      expect(connectAttempts.count).toBe(attempts);
    });

    it.each([
      ['private 10/8', ['10.0.0.1']],
      ['private 172.16/12', ['172.16.0.1']],
      ['private 192.168/16', ['192.168.1.1']],
      ['link-local, the cloud metadata address', ['169.254.169.254']],
      ['carrier-grade NAT (Alibaba metadata)', ['100.100.100.200']],
      ['carrier-grade NAT', ['100.64.0.1']],
      ['multicast', ['224.0.0.1']],
      ['broadcast', ['255.255.255.255']],
      ['unspecified', ['0.0.0.0']],
      ['documentation range (reserved)', ['192.0.2.1']],
      ['IPv6 link-local', ['fe80::1']],
      ['IPv6 unique-local', ['fc00::1']],
      ['IPv6 unique-local, AWS metadata', ['fd00:ec2::254']],
      ['IPv6 multicast', ['ff02::1']],
      ['IPv4-mapped private', ['::ffff:10.0.0.1']],
      ['one private address among several answers', ['127.0.0.2', '10.0.0.1']],
    ])('%s', async (_name, answer) => {
      const lookup = stubLookup(answer);
      const attempts = connectAttempts.count;

      const result = await fetchForCheck('http://internal.test/', options({ allowedAddresses: ['127.0.0.2'], dnsLookup: lookup }));

      expect(result).toEqual(refused('http://internal.test/', refusalReasons.address));
      expect(lookup.calls).toEqual(['internal.test']);
      expect(trap.caught).toEqual([]);
      expect(connectAttempts.count).toBe(attempts);
    });
  });
});
