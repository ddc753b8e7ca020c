/**
 * Hostile input over every route of both areas: NUL (raw in JSON, escaped in URLs), lone surrogates in JSON
 * strings and keys, deep nesting, bytes that are not UTF-8 in path, query and body, huge numbers, wrong
 * types and long strings within the body limits. Whatever the answer, it must not be a 5xx (nor a dropped
 * connection or no answer at all). All failures are collected and reported together.
 *
 * The routes are read from the areas' own routers (each router's routes() middleware carries the router,
 * whose stack lists paths and methods), plus the few paths answered outside any router (listed below), so
 * a new route is fuzzed without a change here. A fixed-seed PRNG generates every request up front:
 * FUZZ_SEED=<n> replays a run (the seed is printed), FUZZ_REQUESTS=<n> changes how many are sent.
 */
import { readFileSync } from 'node:fs';
import type { Router } from '@koa/router';
import type Koa from 'koa';
import { queueNames } from '../../src/queue/queues.js';
import { REGISTRATION_TABLES } from '../../src/registry/model/registration-records.js';
import { prefixRegistration, resourceRegistration } from '../factories/registration.factory.js';
import { seededRandom } from '../factories/reverse-snapshot.factory.js';
import { startBothAreas, type BothAreas } from '../support/areas.js';
import type { RawRequest, RawServer } from '../support/raw-http.js';
import { SAMPLE_REGISTRY } from '../support/test-database.js';

const SEED = Number(process.env.FUZZ_SEED ?? 1_000_003);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 10_500);
const IN_FLIGHT = 8;
const ANSWER_WITHIN_MS = 15_000;

type Area = 'registry' | 'resolver';

interface Route {
  area: Area;
  method: string;
  /** With @koa/router's `:name` parameters. */
  path: string;
}

interface FuzzRequest extends RawRequest {
  area: Area;
  route: Route;
}

/** Every route the area's routers declare (HEAD goes with GET and is fuzzed through it). */
function routerRoutes(app: Koa, area: Area): Route[] {
  const routes = new Map<string, Route>();
  for (const middleware of app.middleware) {
    const router = (middleware as { router?: Router }).router;
    if (!router) continue;
    for (const layer of router.stack) {
      if (typeof layer.path !== 'string') continue;
      for (const method of layer.methods) {
        if (method !== 'HEAD') routes.set(`${method} ${layer.path}`, { area, method, path: layer.path });
      }
    }
  }
  return [...routes.values()];
}

// Answered ahead of or beside the routers: the health endpoints (base-app.ts), and in the resolver area the
// front handler's compact identifiers and single reverse lookups and the prefix-matched pages
// (front-handler.ts, registry-links.routes.ts).
const OUTSIDE_ROUTERS: Route[] = [
  ...(['registry', 'resolver'] as const).flatMap((area) => [
    { area, method: 'GET', path: '/health/live' },
    { area, method: 'GET', path: '/health/ready' },
  ]),
  { area: 'resolver', method: 'GET', path: '/:compactId' },
  { area: 'resolver', method: 'POST', path: '/reverse/byPrefix' },
  { area: 'resolver', method: 'POST', path: '/reverse/bySimilarity' },
  { area: 'resolver', method: 'GET', path: '/resolveMirId/:mirId' },
  { area: 'resolver', method: 'GET', path: '/deactivatedLanding/:compactId' },
  { area: 'resolver', method: 'GET', path: '/protectedLanding/:compactId' },
  // The queue board (bull-board, mounted as a Koa application of its own): its page, its API and its actions.
  { area: 'registry', method: 'GET', path: '/curation/queues/queue/:queueName' },
  { area: 'registry', method: 'GET', path: '/curation/queues/api/queues' },
  { area: 'registry', method: 'GET', path: '/curation/queues/api/queues/:queueName/:jobId' },
  { area: 'registry', method: 'PUT', path: '/curation/queues/api/queues/:queueName/:jobId/retry' },
  { area: 'registry', method: 'PUT', path: '/curation/queues/api/queues/:queueName/clean/:queueStatus' },
];

const NAMESPACES = JSON.parse(readFileSync(SAMPLE_REGISTRY, 'utf8')) as { prefix: string; sampleId: string }[];

// URL text as sent: escapes that decode to NUL, to bytes that are not UTF-8 (a lone byte, a truncated
// sequence, an encoded surrogate, an overlong NUL, beyond U+10FFFF), to valid non-ASCII, and plain oddities.
const HOSTILE_URL_TEXT = [
  '%00', 'a%00b', '%00%00', '%C3%28', '%C3', '%FF', '%ED%A0%80', '%ED%BF%BF', '%C0%80', '%F4%90%80%80', '%E9',
  '%E4%B8%AD', '%C3%A9', '%F0%9F%98%80', '%EF%BF%BF', '%E2%80%A8', '%25', '%', '%zz', '%2', '%2F', '%2F..%2F', '..',
  '%0D%0A', '%0A', '%20', '%09', '%22', '%27', '%3Cscript%3E', '%5C', '%7B%24id%7D', '+', '%2B', '%26', '%3D', '%3F', '%23',
  '99999999999999999999999999', '-1', '0', '1e309', 'NaN', 'Infinity', '1.5', '0x10', '-0', '9007199254740993',
  'a'.repeat(3000), '%E4%B8%AD'.repeat(250), '%00'.repeat(500), '\u00e9', 'caf\u00c3(',
];
const QUERY_NAMES = [
  'page', 'size', 'sort', 'prefix', 'name', 'id', 'mirId', 'rorId', 'countryCode', 'content', 'nameContent', 'prefixStart',
  'namespaceId', 'institutionId', 'providerCode', 'period', 'from', 'to', 'rewriteForEmbeddedPrefixes', 'redirect',
  'threshold', 'namespacePrefix', 'projection',
];

// JSON values: strings as a client may send them (JSON.stringify writes lone surrogates as \u escapes,
// which is what a hostile client sends too), then values of every other type.
const HOSTILE_STRINGS = [
  '\u0000', 'a\u0000b', 'https://example.org/\u0000{$id}', '\ud800', 'a\ud800@example.org', '\udfff', '\udc00\ud800', '\ud83d',
  '😀', '中文', 'Grüße', '\uFFFF', '\uFEFF', '\u2028', '', ' ', '\r\n', '\t', '%00', '\\', '"', "'; DROP TABLE namespaces; --",
  '{$id}', '(a+)+$', '[', '^$', 'https://', 'http://127.0.0.1/', 'javascript:alert(1)', 'x'.repeat(300), 'é'.repeat(4000),
  '1e309', 'NaN', '-1', 'true', 'null',
];
const OTHER_VALUES: unknown[] = [
  0, -1, 1.5, 1e308, -1e308, 5e-324, 2 ** 53 + 2, 2 ** 64, true, false, null, [], {}, [null], ['\u0000'], [[['x']]], { a: 'b' },
  { '\u0000': 1 }, [1, 'a', {}],
];
const HOSTILE_KEYS = ['\u0000', 'a\u0000', '\ud800', '\udfff', '__proto__', 'constructor', 'prototype', '', 'k'.repeat(500), '😀'];
// Raw JSON literals JSON.stringify cannot write.
const RAW_NUMBERS = ['1e400', '-1e400', '123456789012345678901234567890', '1e-400', '-0', '0.' + '1'.repeat(400)];
const BAD_UTF8 = [[0xc3, 0x28], [0xff], [0xed, 0xa0, 0x80], [0xc0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe4, 0xb8], [0x80]];
const RAW_BODIES = ['', 'null', '[]', '{}', '"text"', '0', 'true', '{', '{"apiVersion":"1.0","payload":', '\ufeff{}', '{} trailing', '{"a":1,"a":2}'];

describe('fuzz: hostile input over every route of both areas', () => {
  let areas: BothAreas;
  const sessionIds: Record<'prefix' | 'resource', string[]> = { prefix: [], resource: [] };
  const tokens: string[] = [];

  beforeAll(async () => {
    areas = await startBothAreas('fuzz');
    // Open sessions to curate, and requester tokens, so that the routes behind them do real work.
    for (let i = 0; i < 3; i++) {
      for (const [path, payload] of [
        ['/prefixRegistrationApi/registerPrefix', prefixRegistration(`fuzzns${i}`)],
        ['/resourceManagementApi/registerResource', resourceRegistration(`fuzzcode${i}`)],
      ] as const) {
        const body = JSON.stringify({ apiVersion: '1.0', payload });
        const res = await areas.registry.send({ method: 'POST', path, headers: { 'Content-Type': 'application/json' }, body });
        if (res.status !== 200) throw new Error(`setting up: ${path} answered ${res.status} ${res.text}`);
        tokens.push((JSON.parse(res.text) as { payload: { token: string } }).payload.token);
      }
    }
    for (const kind of ['prefix', 'resource'] as const) {
      const rows = (await areas.db(REGISTRATION_TABLES[kind].sessions).select('id')) as { id: number }[];
      sessionIds[kind] = rows.map((row) => String(row.id));
    }
  }, 60_000);
  afterAll(() => areas?.close());

  it(
    `answers no 5xx to ${REQUESTS.toLocaleString('en')} hostile requests (seed ${SEED})`,
    async () => {
      const routes = [...routerRoutes(areas.registry.koa, 'registry'), ...routerRoutes(areas.resolver.koa, 'resolver'), ...OUTSIDE_ROUTERS];
      // The enumeration itself is under test: a router no longer found would silently go unfuzzed.
      const listed = new Set(routes.map((r) => `${r.area} ${r.method} ${r.path}`));
      for (const known of [
        'registry POST /prefixRegistrationApi/registerPrefix',
        'registry POST /resourceManagementApi/validateProviderHomeUrl',
        'registry POST /rorIdApi/getInstitutionForRorId',
        'registry GET /registry/:prefix',
        'registry GET /statistics/namespace/:prefix',
        'registry GET /schemaOrgApi/getMetadataForNamespacePrefix/:prefix',
        'registry GET /restApi/namespaces/:id',
        'registry POST /prefixRegistrationApi/acceptPrefixRegistrationRequest/:sessionId',
        'registry GET /resolutionApi/getResolverDataset',
        'resolver POST /resolve/batch',
        'resolver POST /reverse/batch',
      ]) {
        expect(listed).toContain(known);
      }
      expect(routes.filter((r) => r.area === 'registry').length).toBeGreaterThan(100);

      const random = seededRandom(SEED);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
      const chance = (p: number) => random() < p;
      const requests = generateRequests(routes, REQUESTS, { random, pick, chance, sessionIds, tokens, curatorToken: areas.curatorToken });
      expect(requests.length).toBeGreaterThanOrEqual(10_000);

      const servers: Record<Area, RawServer> = { registry: areas.registry, resolver: areas.resolver };
      const failures: string[] = [];
      const statuses = new Map<number, number>();
      let next = 0;
      const started = Date.now();
      await Promise.all(
        Array.from({ length: IN_FLIGHT }, async () => {
          while (next < requests.length) {
            const request = requests[next++]!;
            try {
              const res = await servers[request.area].send({ ...request, timeoutMs: ANSWER_WITHIN_MS });
              statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
              if (res.status >= 500) failures.push(`${describeRequest(request)}\n    → ${res.status} ${res.text.slice(0, 300)}`);
            } catch (error) {
              failures.push(`${describeRequest(request)}\n    → no answer: ${(error as Error).message}`);
            }
          }
        }),
      );
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const summary = [...statuses.entries()].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`).join(' ');
      console.log(`fuzz seed ${SEED} (FUZZ_SEED=${SEED} replays it): ${requests.length} requests over ${routes.length} routes in ${seconds} s; ${summary}`);
      if (failures.length > 0) {
        throw new Error(`${failures.length} of ${requests.length} hostile requests failed (FUZZ_SEED=${SEED}):\n${failures.slice(0, 50).join('\n')}`);
      }
    },
    240_000,
  );
});

function describeRequest(request: FuzzRequest): string {
  const text = Buffer.isBuffer(request.body) ? request.body.toString('latin1') : request.body;
  const body = text === undefined ? '' : ` body ${JSON.stringify(text).slice(0, 300)}`;
  const headers = Object.keys(request.headers ?? {}).length > 0 ? ` headers ${JSON.stringify(request.headers)}` : '';
  return `${request.area} ${request.method} ${request.path.slice(0, 300)}${headers}${body}`;
}

interface Generator {
  random: () => number;
  pick: <T>(items: readonly T[]) => T;
  chance: (p: number) => boolean;
  sessionIds: Record<'prefix' | 'resource', string[]>;
  tokens: string[];
  curatorToken: string;
}

function generateRequests(routes: Route[], total: number, g: Generator): FuzzRequest[] {
  const { pick, chance } = g;
  const requests: FuzzRequest[] = [];

  // A good value for a route parameter, so that the hostile part of a request is the only thing wrong with it.
  const goodParameter = (name: string, route: Route): string => {
    const ns = pick(NAMESPACES);
    switch (name) {
      case 'prefix':
        return ns.prefix;
      case 'sessionId':
        return pick(g.sessionIds[route.path.includes('Prefix') ? 'prefix' : 'resource']);
      case 'token':
        return pick(g.tokens);
      case 'collection':
        return pick(['namespaces', 'resources', 'institutions', 'locations', 'persons']);
      case 'name':
        return pick(['findByPrefix', 'findByMirId', 'findByName', 'nosuch']);
      case 'mirId':
        return pick(['MIR:00000022', 'MIR:00100010', 'MIR:99999999']);
      case 'compactId':
        return `${ns.prefix}:${encodeURI(ns.sampleId)}`;
      case 'queueName':
        return pick(Object.values(queueNames));
      case 'queueStatus':
        return pick(['failed', 'completed', 'delayed', 'wait', 'nosuch']);
      default:
        return String(1 + Math.floor(g.random() * 40));
    }
  };

  const buildPath = (route: Route, hostile: boolean): string => {
    const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
    const spoiled = hostile && names.length > 0 ? pick(names) : undefined;
    return route.path.replace(/:(\w+)/g, (_, name: string) => {
      const good = goodParameter(name, route);
      if (name !== spoiled) return good;
      const bad = pick(HOSTILE_URL_TEXT);
      return pick([bad, `${good}${bad}`, `${bad}${good}`]);
    });
  };

  const buildQuery = (): string => {
    const pairs: string[] = [];
    const count = 1 + Math.floor(g.random() * 3);
    for (let i = 0; i < count; i++) {
      const name = chance(0.1) ? pick(HOSTILE_URL_TEXT) : pick(QUERY_NAMES);
      pairs.push(chance(0.05) ? name : `${name}=${chance(0.2) ? pick(['1', 'go', 'true', 'day', '2024-01-01']) : pick(HOSTILE_URL_TEXT)}`);
    }
    return pairs.join('&');
  };

  const baseBody = (route: Route): Record<string, unknown> => {
    const { path } = route;
    if (route.area === 'resolver') {
      if (path === '/resolve/batch') return { compactIdentifiers: NAMESPACES.slice(0, 5).map((n) => `${n.prefix}:${n.sampleId}`) };
      if (path === '/reverse/batch') return { requests: [{ url: 'https://www.ebi.ac.uk/chebi/searchId.do?chebiId=CHEBI:36927' }] };
      return { apiVersion: '1.0', payload: { url: 'https://www.ncbi.nlm.nih.gov/gene/100010' } };
    }
    if (path.startsWith('/rorIdApi/')) return { apiVersion: '1.0', payload: { rorId: 'https://ror.org/02catss52' } };
    const kind = path.startsWith('/prefixRegistrationApi/') ? 'prefix' : 'resource';
    const request = kind === 'prefix' ? prefixRegistration(`fz${Math.floor(g.random() * 1e6)}`) : resourceRegistration(`fz${Math.floor(g.random() * 1e6)}`);
    if (path.includes('RegistrationRequest/')) {
      return {
        apiVersion: '1.0',
        payload: {
          comment: 'a comment',
          additionalInformation: 'more',
          acceptanceReason: 'fine',
          rejectionReason: 'not fine',
          [`${kind}RegistrationRequest`]: request,
        },
      };
    }
    return { apiVersion: '1.0', payload: request };
  };

  /** The places of a JSON value: every property and element, with a way to replace it. */
  const slots = (value: unknown): { holder: Record<string, unknown> | unknown[]; key: string | number; value: unknown }[] => {
    const found: { holder: Record<string, unknown> | unknown[]; key: string | number; value: unknown }[] = [];
    const walk = (node: unknown) => {
      if (Array.isArray(node)) node.forEach((item, i) => (found.push({ holder: node, key: i, value: item }), walk(item)));
      else if (node !== null && typeof node === 'object') {
        for (const [key, item] of Object.entries(node)) {
          found.push({ holder: node as Record<string, unknown>, key, value: item });
          walk(item);
        }
      }
    };
    walk(value);
    return found;
  };
  const put = (slot: { holder: Record<string, unknown> | unknown[]; key: string | number }, value: unknown) => {
    (slot.holder as Record<string | number, unknown>)[slot.key] = value;
  };
  // As text: JSON.stringify itself would overflow the stack on the deepest.
  const nestedText = (depth: number): string => {
    let open = '';
    let close = '';
    for (let i = 0; i < depth; i++) {
      const array = chance(0.5);
      open += array ? '[' : '{"a":';
      close = (array ? ']' : '}') + close;
    }
    return `${open}"leaf"${close}`;
  };
  // A long text that keeps the body within the 64 KiB limit (or just past it, for the 413).
  const longText = () => pick(['a'.repeat(50_000), '中'.repeat(18_000), '\u0000'.repeat(1000), 'x'.repeat(70_000), '😀'.repeat(12_000)]);

  const buildBody = (route: Route): Buffer | string => {
    const body = baseBody(route);
    const all = slots(body);
    const strings = all.filter((s) => typeof s.value === 'string');
    const objects = [body, ...all.map((s) => s.value).filter((v) => v !== null && typeof v === 'object' && !Array.isArray(v))] as Record<string, unknown>[];
    const mutation = Math.floor(g.random() * 10);
    switch (mutation) {
      case 0:
        if (strings.length > 0) put(pick(strings), pick(HOSTILE_STRINGS));
        return JSON.stringify(body);
      case 1: {
        // Every text field at once: whichever field the route reads first meets it.
        const hostile = pick(HOSTILE_STRINGS);
        for (const slot of strings) put(slot, hostile);
        return JSON.stringify(body);
      }
      case 2:
        if (all.length > 0) put(pick(all), pick(OTHER_VALUES));
        return JSON.stringify(body);
      case 3:
        pick(objects)[pick(HOSTILE_KEYS)] = chance(0.5) ? pick(HOSTILE_STRINGS) : pick(OTHER_VALUES);
        return JSON.stringify(body);
      case 4:
        if (all.length > 0) put(pick(all), 'FUZZ_NESTED');
        return JSON.stringify(body).replace('"FUZZ_NESTED"', nestedText(pick([63, 64, 65, 200, 5000])));
      case 5:
        if (strings.length > 0) put(pick(strings), longText());
        return JSON.stringify(body);
      case 6: {
        // Bytes that are not UTF-8 inside a string value.
        const marker = 'FUZZ_BAD_BYTES';
        if (strings.length > 0) put(pick(strings), `x${marker}y`);
        const [before, after = ''] = JSON.stringify(body).split(marker);
        return Buffer.concat([Buffer.from(before!), Buffer.from(pick(BAD_UTF8)), Buffer.from(after)]);
      }
      case 7: {
        const marker = '"FUZZ_RAW_NUMBER"';
        if (all.length > 0) put(pick(all), 'FUZZ_RAW_NUMBER');
        return JSON.stringify(body).replace(marker, pick(RAW_NUMBERS));
      }
      case 8: {
        // A lone surrogate or a NUL escape written into a key by hand, or a raw control byte (malformed JSON).
        const text = JSON.stringify(body);
        const at = text.indexOf('"', 1 + Math.floor(g.random() * Math.max(1, text.length - 2)));
        if (at === -1) return text;
        return `${text.slice(0, at + 1)}${pick(['\\ud800', '\\udfff', '\\u0000', '\u0000', '\u0001', '\\uD83D\\uDE00'])}${text.slice(at + 1)}`;
      }
      default:
        return chance(0.5) ? pick(RAW_BODIES) : `{"apiVersion":"1.0","payload":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    }
  };

  const headersFor = (route: Route, hasBody: boolean): Record<string, string> => {
    const headers: Record<string, string> = {};
    if (hasBody) {
      headers['Content-Type'] = chance(0.95) ? 'application/json' : pick(['text/plain', 'application/json; charset=latin1', 'application/x-www-form-urlencoded']);
    }
    if (route.path.includes('RegistrationRequest') || route.path.includes('Session') || route.path.startsWith('/restApi/') || route.path.startsWith('/curation/queues/')) {
      headers.Authorization = chance(0.8) ? `Bearer ${g.curatorToken}` : pick(['Bearer wrong', 'Basic eDp5', 'Bearer \u00e9\u00e9', 'Bearer ']);
    }
    if (route.path.endsWith('/registerPrefix') || route.path.endsWith('/registerResource')) {
      if (chance(0.4)) headers['Idempotency-Key'] = chance(0.9) ? `fuzz-${Math.floor(g.random() * 1e9)}` : pick(['k'.repeat(300), '\u00e9', 'a b']);
    }
    if (route.area === 'resolver' && chance(0.5)) headers.Accept = pick(['text/html', 'text/html,application/xhtml+xml;q=0.9', 'application/json', '*/*']);
    return headers;
  };

  const perRoute = Math.ceil(total / routes.length);
  for (const route of routes) {
    for (let i = 0; i < perRoute; i++) {
      const method = chance(0.03) ? pick(['PUT', 'DELETE', 'PATCH', 'OPTIONS', route.method === 'GET' ? 'POST' : 'GET']) : route.method;
      // Mostly one thing wrong at a time, so that the request reaches the code behind the earlier checks.
      const spoilPath = chance(0.3);
      let path = buildPath(route, spoilPath);
      if (route.path === '/:compactId' && !spoilPath) {
        // A resolvable identifier of any namespace with something appended: the redirect must carry it.
        const ns = pick(NAMESPACES);
        path = `/${ns.prefix}:${encodeURI(ns.sampleId)}${pick(HOSTILE_URL_TEXT.slice(0, 30))}`;
      }
      if (chance(route.method === 'GET' ? 0.5 : 0.1)) path += `?${buildQuery()}`;
      const body = route.method === 'POST' && method === 'POST' ? buildBody(route) : undefined;
      requests.push({ area: route.area, route, method, path, headers: headersFor(route, body !== undefined), body });
    }
  }
  return requests;
}
