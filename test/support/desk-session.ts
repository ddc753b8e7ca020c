/**
 * Signing in to the curator desk as a browser does, without one: the sign-in page's double-submit cookie
 * and token, then the form with the curator token. For the tests of what sits behind the desk's sign-in.
 */
import type { RequestListener } from 'node:http';
import request from 'supertest';

export const HTML_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

const cookiesOf = (res: request.Response): string[] => (res.headers['set-cookie'] as unknown as string[] | undefined) ?? [];

/** The `name=value` of the cookie `name` the answer sets; fails the test when it sets none. */
export function cookieSet(res: request.Response, name: string): string {
  const cookie = cookiesOf(res).find((c) => c.startsWith(`${name}=`));
  if (!cookie) throw new Error(`The answer sets no ${name} cookie (status ${res.status})`);
  return cookie.split(';')[0]!;
}

/** Posts the sign-in form with `token`; the answer (303 to `next` when the token is right). */
export async function postDeskSignIn(app: RequestListener, token: string, next = '/curation'): Promise<request.Response> {
  const form = await request(app).get('/curation/sign-in').set('Accept', HTML_ACCEPT);
  if (form.status !== 200) throw new Error(`The sign-in page answered ${form.status}`);
  const csrf = /name="csrf" value="([^"]+)"/.exec(form.text)?.[1];
  if (!csrf) throw new Error('The sign-in page has no CSRF field');
  return request(app)
    .post('/curation/sign-in')
    .set('Accept', HTML_ACCEPT)
    .set('Cookie', cookieSet(form, 'registry_csrf'))
    .type('form')
    .send({ csrf, token, next });
}

/** A signed-in desk session: its cookie (`registry_curator=...`). */
export async function signInAtDesk(app: RequestListener, token: string): Promise<string> {
  const res = await postDeskSignIn(app, token);
  if (res.status !== 303) throw new Error(`The sign-in answered ${res.status}`);
  return cookieSet(res, 'registry_curator');
}
