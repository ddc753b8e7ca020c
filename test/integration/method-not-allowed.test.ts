/**
 * Both areas answer a known path asked with a method it does not serve with 405, an Allow header listing
 * exactly the methods it serves, and the error envelope: whatever the method Node lets through (the
 * resolver's compact identifiers once answered PUT with 404, and both areas TRACE or PROPFIND with a
 * plain-text 501). Node's parser refuses method tokens outside http.METHODS (`FOO`) with 400 before any
 * of our code runs, and hands CONNECT to the server's 'connect' event, so neither is asked here.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { startRegistry, startResolver } from '../support/areas.js';
import { acceptingChecks } from '../support/stand-in-checks.js';

const GET = ['HEAD', 'GET'];
const POST = ['POST'];
// OPTIONS keeps its own answers (the routers' Allow, the CORS preflight).
const ASKED = http.METHODS.filter((method) => method !== 'CONNECT' && method !== 'OPTIONS');

type Table = readonly (readonly [path: string, served: readonly string[]])[];

const RESOLVER_PATHS: Table = [
  ['/taxonomy:9606', GET],
  ['/nosuchprefix:42', GET],
  ['/resolveMirId/MIR:00000006', GET],
  ['/deactivatedLanding/taxonomy:9606', GET],
  ['/protectedLanding/taxonomy:9606', GET],
  ['/health/live', GET],
  ['/health/ready', GET],
  ['/reverse/byPrefix', POST],
  ['/reverse/bySimilarity', POST],
  ['/reverse/batch', POST],
  ['/resolve/batch', POST],
];

const REGISTRY_PATHS: Table = [
  ['/restApi/namespaces', GET],
  // Curators PATCH items (maintenance.routes.ts, mounted ahead of the browse API).
  ['/restApi/namespaces/1', ['PATCH', ...GET]],
  ['/restApi/namespaces/1/successor', ['PUT', ...GET]],
  ['/namespaceManagementApi/deactivateNamespace/1', [...GET, 'POST']],
  ['/resourceManagementApi/reactivateResource/1', POST],
  ['/institutionManagementApi/deleteById/1', [...GET, 'POST', 'DELETE']],
  ['/curationApi/notifications', POST],
  ['/restApi/prefixRegistrationSessions/1', GET],
  ['/registry/go', GET],
  ['/statistics/namespace/go', GET],
  ['/schemaOrgApi/getMetadataForPlatform', GET],
  ['/prefixRegistrationApi/status/abc', GET],
  ['/prefixRegistrationApi/registerPrefix', POST],
  ['/resourceManagementApi/registerResource', POST],
  ['/prefixRegistrationApi/validateName', POST],
  ['/prefixRegistrationApi/acceptPrefixRegistrationRequest/1', POST],
  ['/rorIdApi/getInstitutionForRorId', POST],
  ['/health/live', GET],
  ['/health/ready', GET],
];

/** Every (path, method) of the table that the path does not serve. */
const unserved = (table: Table) => table.flatMap(([path, served]) => ASKED.filter((m) => !served.includes(m)).map((m) => [path, m, served] as const));

const ask = (server: http.Server, method: string, path: string) =>
  (request(server) as unknown as Record<string, (path: string) => request.Test>)[method.toLowerCase()]!(path);

async function listen(app: http.RequestListener): Promise<http.Server> {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  expect((server.address() as AddressInfo).port).toBeGreaterThan(0);
  return server;
}

function describeArea(area: string, table: Table, unknownPath: string, start: () => Promise<{ server: http.Server; close: () => Promise<void> }>) {
  describe(`the ${area} area`, () => {
    let server: http.Server;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ server, close } = await start());
    }, 60_000);
    afterAll(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await close();
    });

    it('answers every method a known path does not serve with 405, Allow and the envelope', async () => {
      const wrong: unknown[] = [];
      for (const [path, method, served] of unserved(table)) {
        const res = await ask(server, method, path);
        const answer = { path, method, status: res.status, allow: res.headers.allow, body: method === 'HEAD' ? null : res.body };
        const expected = {
          path,
          method,
          status: 405,
          allow: served.join(', '),
          body: method === 'HEAD' ? null : { apiVersion: '1.0', errorMessage: `Method ${method} is not allowed on ${path}; use ${served.join(' or ')}`, payload: null },
        };
        if (JSON.stringify(answer) !== JSON.stringify(expected)) wrong.push(answer);
      }
      expect(wrong).toEqual([]);
    }, 60_000);

    it('answers the methods a path lists in Allow without 405', async () => {
      for (const [path, served] of table) {
        for (const method of served) expect({ path, method, status: (await ask(server, method, path)).status }).not.toMatchObject({ status: 405 });
      }
    });

    it('answers any method on an unknown path with 404 in the envelope', async () => {
      for (const method of ['GET', 'PUT', 'TRACE', 'PROPFIND']) {
        const res = await ask(server, method, unknownPath);
        expect({ status: res.status, allow: res.headers.allow, body: res.body }).toEqual({
          status: 404,
          allow: undefined,
          body: { apiVersion: '1.0', errorMessage: `No such endpoint: ${method} ${unknownPath}`, payload: null },
        });
      }
    });
  });
}

// Every other path of the resolver is a compact identifier; unknown paths are those under its other endpoints.
describeArea('resolver', RESOLVER_PATHS, '/reverse/nothing', async () => {
  const r = await startResolver('method_not_allowed_resolver');
  return { server: await listen(r.app), close: r.close };
});

describeArea('registry', REGISTRY_PATHS, '/no/such/thing', async () => {
  const r = await startRegistry('method_not_allowed_registry', { data: 'none', registration: acceptingChecks });
  return { server: await listen(r.app), close: r.close };
});
