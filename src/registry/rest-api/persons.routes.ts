import { Router } from '@koa/router';
import type { Context } from 'koa';
import { callerIsCurator, type AccessTokenCheck } from '../model/curator-auth.js';
import type { WrongTokenThrottle } from '../model/wrong-token-throttle.js';
import { HalPresenter } from '../model/hal.presenter.js';
import type { ContactPersonOwner, PersonsService } from './persons.service.js';
import type { PersonRow } from '../model/rows.js';

const HAL_JSON = 'application/hal+json';

export interface PersonRouteDeps {
  persons: PersonsService;
  publicRegistryUrl: string;
  /** CURATOR_TOKEN: its bearer sees persons' e-mail addresses and names. */
  curatorToken: string;
  /** Wrong tokens counted and throttled, for every place the token is checked (wrong-token-throttle.ts). */
  tokenThrottle: WrongTokenThrottle;
  /** OpenID Connect access tokens (OIDC_API_AUDIENCE): a curator's sees what the curator token's holder sees. */
  accessTokens?: AccessTokenCheck;
}

/**
 * The contact persons that namespace and resource items link to, and the person items those link to.
 * The answer depends on who asks (see HalPresenter.person), so these routes live apart from the browse
 * API's router: mounted ahead of it, they never pass through its answer cache, which is keyed by URL alone.
 */
export function personRoutes(deps: PersonRouteDeps): Router {
  const hal = new HalPresenter(deps.publicRegistryUrl);
  const router = new Router({ prefix: '/restApi' });

  async function sendPerson(ctx: Context, person: PersonRow, lastModified?: Date): Promise<void> {
    const personal = await callerIsCurator(ctx, deps.curatorToken, deps.tokenThrottle, deps.accessTokens);
    // Shared caches must not hand one caller's answer to another; a curator's is not stored at all.
    ctx.vary('Authorization');
    if (personal) ctx.set('Cache-Control', 'private, no-store');
    ctx.type = HAL_JSON;
    if (lastModified) ctx.lastModified = lastModified;
    ctx.body = hal.person(person, { personal });
  }
  const contactPerson = (owner: ContactPersonOwner) => async (ctx: Context) => {
    await sendPerson(ctx, await deps.persons.getContactPerson(owner, ctx.params.id ?? ''));
  };

  router.get('/namespaces/:id/contactPerson', contactPerson('namespaces'));
  router.get('/resources/:id/contactPerson', contactPerson('resources'));
  router.get('/persons/:id', async (ctx) => {
    const person = await deps.persons.getPerson(ctx.params.id ?? '');
    await sendPerson(ctx, person, person.modified);
  });
  return router;
}
