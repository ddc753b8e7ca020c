/**
 * `npm run bench:pages`: Lighthouse (the npm package, driving Debian's Chromium) on the pages people land on,
 * each as a phone (Lighthouse's default: a mid-range phone on a slow network, simulated) and as a desktop:
 * the home page, a search, the GO namespace page, the prefix request form, a request's status page and the
 * resolver's failure page. Targets (issue 23): accessibility, best practices and SEO at least 95,
 * performance at least 90. Writes bench/results/pages.json and bench/results/pages.md.
 *
 * The whole service runs as `npm start` runs it (`node dist/src/cli.js start`) on a database of its own with
 * the sample registry; the status page belongs to a request sent through the form, its addresses pointing at
 * a stand-in site on loopback (URL_CHECK_ALLOW_PRIVATE_NETWORKS lets the live URL checks reach it). Nothing
 * leaves the machine.
 *
 * Settings (environment): CHROMIUM (default /usr/bin/chromium), BENCH_REDIS_DB, PAGES_STRICT=1 (exit 1 when a
 * score misses its target; by default the run only reports).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Flags } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { databaseUrlFor, dropDatabase, recreateDatabase } from '../lib/database.js';
import { clearUsageCounters, redisUrlFor, removeQueueKeys } from '../lib/redis.js';
import { utcDay } from '../../src/statistics/usage-keys.js';
import { beginResults, describeMachine, markdownTable, textTable, writeResults } from '../lib/results.js';
import { freePort, pollReady, stopChild } from '../lib/server-processes.js';
import { say } from '../lib/settings.js';
import { projectRoot } from '../../src/lib/project-root.js';

const ROOT = projectRoot();
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const BASE_DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = redisUrlFor(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', Number(process.env.BENCH_REDIS_DB ?? 14));
const DATABASE = 'curie_bench_pages';
const QUEUE_PREFIX = `bench-pages-${process.pid}`;

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof CATEGORIES)[number];
const TARGETS: Record<Category, number> = { performance: 90, accessibility: 95, 'best-practices': 95, seo: 95 };

interface PageScores {
  page: string;
  url: string;
  form: 'mobile' | 'desktop';
  scores: Record<Category, number>;
  /** The audits that cost points, for a reader who wants to raise a score. */
  failing: string[];
}

/** A site on loopback answering every address with a small page: the request's home pages and sample. */
async function startStandInSite(): Promise<{ server: Server; url: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Stand-in provider</title><p>A record.</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** `npm start`'s entry with ports and public addresses of its own. */
async function startService(databaseUrl: string): Promise<{ child: ChildProcess; registry: string; resolver: string }> {
  const [registryPort, resolverPort, resolverMetrics, registryMetrics, workerMetrics] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  const registry = `http://127.0.0.1:${registryPort}`;
  const resolver = `http://127.0.0.1:${resolverPort}`;
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/src/cli.js'), 'start'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      HOST: '127.0.0.1',
      REGISTRY_PORT: String(registryPort),
      RESOLVER_PORT: String(resolverPort),
      RESOLVER_METRICS_PORT: String(resolverMetrics),
      REGISTRY_METRICS_PORT: String(registryMetrics),
      WORKER_METRICS_PORT: String(workerMetrics),
      PUBLIC_REGISTRY_URL: registry,
      PUBLIC_RESOLVER_URL: resolver,
      QUEUE_PREFIX,
      LOG_LEVEL: 'warn',
      RATE_LIMITS: 'false',
      ROR_API_URL: 'off',
      URL_CHECK_ALLOW_PRIVATE_NETWORKS: 'true',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`the service exited (${code}) before it was ready`))));
  await Promise.race([Promise.all([pollReady(registryPort, 180_000), pollReady(resolverPort, 180_000)]), exited]);
  return { child, registry, resolver };
}

/** Sends a prefix request through the form as a browser would; the address of its status page. */
async function sendPrefixRequest(registry: string, site: string): Promise<string> {
  const form = await fetch(`${registry}/prefixregistrationrequest`);
  const cookie = (form.headers.get('set-cookie') ?? '').split(';')[0]!;
  const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())?.[1];
  if (!csrf) throw new Error('no CSRF field on the request form');
  const values: Record<string, string> = {
    csrf,
    name: 'Bench Records',
    description: 'Records kept for the pages benchmark: a namespace that only exists to have a request and its status page.',
    requestedPrefix: `benchrec${process.pid}`,
    sampleId: '12345',
    idRegexPattern: '^\\d+$',
    providerName: 'Bench Records provider',
    providerDescription: 'The stand-in provider of the bench records, on this machine.',
    providerHomeUrl: `${site}/home`,
    providerUrlPattern: `${site}/records/{$id}`,
    providerCode: 'benchprov',
    providerLocation: 'GB',
    institutionName: 'Bench Institute',
    institutionDescription: 'A stand-in institution for the pages benchmark, which keeps the bench records on this machine.',
    institutionHomeUrl: `${site}/institute`,
    institutionLocation: 'GB',
    requesterName: 'Bench Requester',
    requesterEmail: 'requester@example.org',
  };
  const sent = await fetch(`${registry}/prefixregistrationrequest`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie },
    body: new URLSearchParams(values).toString(),
  });
  const location = sent.headers.get('location');
  if (sent.status !== 303 || !location) throw new Error(`the request form answered ${sent.status}: ${(await sent.text()).slice(0, 2000)}`);
  return new URL(location, registry).toString();
}

async function audit(port: number, page: string, url: string, form: 'mobile' | 'desktop'): Promise<PageScores> {
  // The resolver's failure page is answered with the failure's status (400, 404), as the API's; Lighthouse
  // otherwise refuses to score a page that is not 2xx.
  const flags: Flags = { port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES], ignoreStatusCode: true };
  const result = await lighthouse(url, flags, form === 'desktop' ? desktopConfig : undefined);
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)])) as Record<Category, number>;
  const failing = Object.values(lhr.audits)
    .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'manual')
    .map((a) => a.id);
  return { page, url, form, scores, failing };
}

async function main(): Promise<void> {
  const header = beginResults(ROOT);
  const firstDay = utcDay(new Date());
  await recreateDatabase(BASE_DATABASE_URL, DATABASE);
  const site = await startStandInSite();
  let service: Awaited<ReturnType<typeof startService>> | undefined;
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  try {
    say('starting the service (npm start) on the sample registry');
    service = await startService(databaseUrlFor(BASE_DATABASE_URL, DATABASE));
    const statusPage = await sendPrefixRequest(service.registry, site.url);
    const pages: [string, string][] = [
      ['home', `${service.registry}/`],
      ['search "protein"', `${service.registry}/registry?q=protein`],
      ['namespace GO', `${service.registry}/registry/go`],
      ['prefix request form', `${service.registry}/prefixregistrationrequest`],
      ['request status', statusPage],
      ['resolver failure (taxonomy:human)', `${service.resolver}/taxonomy:human`],
    ];
    chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
    const results: PageScores[] = [];
    for (const [page, url] of pages) {
      for (const form of ['mobile', 'desktop'] as const) {
        const scores = await audit(chrome.port, page, url, form);
        say(`${page} (${form}): ${CATEGORIES.map((c) => `${c} ${scores.scores[c]}`).join(', ')}`);
        results.push(scores);
      }
    }
    const rows = results.map((r) => [r.page, r.form, ...CATEGORIES.map((c) => `${r.scores[c]}${r.scores[c] < TARGETS[c] ? ' (below)' : ''}`), r.failing.join(', ') || '—']);
    const tableHeader = ['page', 'form', ...CATEGORIES, 'audits below 90'];
    const missed = results.filter((r) => CATEGORIES.some((c) => r.scores[c] < TARGETS[c]));
    header.machine.loadAverageAtEnd = Math.round(os.loadavg()[0]! * 100) / 100;
    const markdown = [
      '# Pages: Lighthouse scores',
      '',
      `Measured ${header.startedAt} on ${describeMachine(header.machine)} with Lighthouse 12.2.3 and ${CHROMIUM}.`,
      `Targets: ${CATEGORIES.map((c) => `${c} ≥ ${TARGETS[c]}`).join(', ')}. Mobile is Lighthouse's default (a mid-range phone,`,
      'simulated slow 4G and CPU); desktop its desktop configuration. Performance depends on the machine; the other three do not.',
      '',
      markdownTable(tableHeader, rows),
      '',
      missed.length === 0 ? 'Every page meets every target.' : `Below a target: ${missed.map((r) => `${r.page} (${r.form})`).join('; ')}.`,
      '',
    ].join('\n');
    writeResults(ROOT, { ...header, targets: TARGETS, results }, markdown, 'pages');
    process.stdout.write(`${textTable(tableHeader, rows)}\n`);
    if (process.env.PAGES_STRICT === '1' && missed.length > 0) process.exitCode = 1;
  } finally {
    await chrome?.kill();
    if (service) await stopChild(service.child);
    site.server.close();
    await dropDatabase(BASE_DATABASE_URL, DATABASE);
    // The Redis database is the benchmarks' (BENCH_REDIS_DB): what this run's service wrote there goes.
    await removeQueueKeys(REDIS_URL, QUEUE_PREFIX);
    await clearUsageCounters(REDIS_URL, [firstDay, utcDay(new Date())]);
  }
}

await main();
