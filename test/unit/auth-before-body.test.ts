// A route that reads a body before checking its curator fails on its first request (auth-before-body.ts),
// whichever guard it is: the bearer token's or the desk session's.
import { Readable } from 'node:stream';
import type { Context, Middleware } from 'koa';
import compose from 'koa-compose';
import { jsonBody } from '../../src/http/json-body.js';
import { requireCurator } from '../../src/registry/model/curator-auth.js';
import type { WrongTokenThrottle } from '../../src/registry/model/wrong-token-throttle.js';
import { requireSignedIn } from '../../src/registry/model/desk-auth.js';

/** A POST of `{}` as Koa hands it to middleware, with nothing but what the middleware here read. */
function postedJson(): Context {
  const req = Object.assign(Readable.from([Buffer.from('{}')]), { headers: { 'content-type': 'application/json', 'content-length': '2' } });
  return { method: 'POST', path: '/restApi/namespaces/1', state: {}, req, request: {}, get: () => '', set: () => undefined } as unknown as Context;
}

const unusedThrottle = {} as WrongTokenThrottle;
const nothingAfter = async (): Promise<void> => undefined;
const guards: [string, Middleware][] = [
  ['the curator token check', requireCurator('t'.repeat(32), 'curator', unusedThrottle)],
  ['the desk session check', requireSignedIn(() => undefined)],
];

describe('authentication before the body', () => {
  it.each(guards)('refuses to run %s after a body reader', async (name, guard) => {
    let reached = false;
    const route: Middleware = async () => void (reached = true);
    await expect(compose([jsonBody(), guard, route])(postedJson(), nothingAfter)).rejects.toThrow(`POST /restApi/namespaces/1 reads the request body before ${name}: mount the guard first`);
    expect(reached).toBe(false);
  });

  it.each(guards)('lets %s refuse a caller without credentials ahead of the body reader, which never runs', async (_name, guard) => {
    const ctx = postedJson();
    const refusal = await compose([guard, jsonBody()])(ctx, nothingAfter).then(
      () => null,
      (error: Error) => error.message,
    );
    expect(refusal ?? '').not.toMatch(/reads the request body before/);
    expect(ctx.request.body).toBeUndefined();
  });
});
