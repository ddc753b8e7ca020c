import type Koa from 'koa';
import { deskOidcSignInOn, splitList } from '../../config.js';
import { useRouters } from '../../http/base-app.js';
import type { RegistryArea } from '../model/registry-area.js';
import { createDeskKit } from './desk-kit.js';
import { deskReferencePrefixRoutes } from './desk-reference-prefixes.routes.js';
import { deskRegistryRoutes } from './desk-registry.routes.js';
import { deskSignInRoutes } from './desk-sign-in.routes.js';
import { deskWarningsRoutes } from './desk-warnings.routes.js';
import { deskRoutes } from './desk.routes.js';
import { DeskService } from './desk.service.js';
import { createInstitutionList } from './institution-list.service.js';
import { OidcSignIn } from './oidc-sign-in.service.js';
import { createReferencePrefixesService } from './reference-prefixes.service.js';

export type DeskArea = Pick<
  RegistryArea,
  'config' | 'db' | 'site' | 'sessions' | 'tokenThrottle' | 'curation' | 'maintenance' | 'search' | 'validator' | 'prefixCollisions' | 'warnings'
>;

/** The curators' pages at /curation: sign-in with CURATOR_TOKEN and/or OpenID Connect, sessions in Postgres. */
export function mountCuratorDesk(app: Koa, area: DeskArea): void {
  const { config, db, site, sessions } = area;
  const oidc = deskOidcSignInOn(config)
    ? new OidcSignIn(
        {
          issuer: config.OIDC_ISSUER,
          clientId: config.OIDC_CLIENT_ID,
          clientSecret: config.OIDC_CLIENT_SECRET,
          curators: splitList(config.OIDC_CURATORS),
          redirectUri: `${config.PUBLIC_REGISTRY_URL}/curation/oidc/callback`,
          userAgent: `curie-resolver-registry/1.0 (+${config.PUBLIC_REGISTRY_URL})`,
        },
        sessions,
      )
    : undefined;
  const kit = createDeskKit({ site, sessions, tokenSignIn: config.CURATOR_TOKEN !== '', oidcProvider: oidc?.providerName });
  const { curation, maintenance, search, validator, prefixCollisions } = area;
  const desk = new DeskService({ db, curation, maintenance, search, validator, publicRegistryUrl: config.PUBLIC_REGISTRY_URL, prefixCollisions });
  useRouters(app, [
    deskSignInRoutes({ site, kit, sessions, curatorToken: config.CURATOR_TOKEN, curatorName: config.CURATOR_NAME, tokenThrottle: area.tokenThrottle, oidc }),
    deskRoutes({ kit, desk }),
    deskRegistryRoutes({ kit, desk, institutions: createInstitutionList(db) }),
    deskReferencePrefixRoutes({ kit, referencePrefixes: createReferencePrefixesService(db) }),
    deskWarningsRoutes({ kit, warnings: area.warnings }),
  ]);
}
