import { Router } from '@koa/router';
import type { Context } from 'koa';
import { callerIsCurator } from '../curation/curator-auth.js';
import { HalPresenter } from './hal.presenter.js';
import type { ContactPersonOwner, PersonsService } from './persons.service.js';
import type { PersonRow } from './rows.js';

const HAL_JSON = 'application/hal+json';

export interface PersonRouteDeps {
  persons: PersonsService;
  publicRegistryUrl: string;
  /** CURATOR_TOKEN: its bearer sees persons' e-mail addresses and names. */
  curatorToken: string;
}

/**
 * The contact persons that namespace and resource items link to, and the person items those link to.
 * The answer depends on who asks (see HalPresenter.person), so these routes live apart from the browse
 * API's router: mounted ahead of it, they never pass through its answer cache, which is keyed by URL alone.
 */
export function personRoutes(deps: PersonRouteDeps): Router {
  const hal = new HalPresenter(deps.publicRegistryUrl);
  const router = new Router({ prefix: '/restApi' });

  function sendPerson(ctx: Context, person: PersonRow, lastModified?: Date): void {
    const personal = callerIsCurator(ctx, deps.curatorToken);
    // Shared caches must not hand one caller's answer to another; a curator's is not stored at all.
    ctx.vary('Authorization');
    if (personal) ctx.set('Cache-Control', 'private, no-store');
    ctx.type = HAL_JSON;
    if (lastModified) ctx.lastModified = lastModified;
    ctx.body = hal.person(person, { personal });
  }
  const contactPerson = (owner: ContactPersonOwner) => async (ctx: Context) => {
    sendPerson(ctx, await deps.persons.getContactPerson(owner, ctx.params.id ?? ''));
  };

  router.get('/namespaces/:id/contactPerson', contactPerson('namespaces'));
  router.get('/resources/:id/contactPerson', contactPerson('resources'));
  router.get('/persons/:id', async (ctx) => {
    const person = await deps.persons.getPerson(ctx.params.id ?? '');
    sendPerson(ctx, person, person.modified);
  });
  return router;
}
