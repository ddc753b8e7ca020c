import { CSRF_FIELD } from '../../../web/csrf.js';
import { Layout } from '../../../web/layout.js';
import type { Site } from '../../../web/site.js';
import { DESK_PATH } from '../../model/desk-auth.js';

export interface SignInProps {
  site: Site;
  /** The page's double-submit token (no session yet: csrf.ts). */
  csrf: string;
  /** CURATOR_TOKEN is set: the token form is shown. */
  tokenSignIn: boolean;
  /** OIDC_ISSUER is set: the provider's name for its button. */
  oidcProvider?: string;
  /** The desk page to go back to. */
  next: string;
  /** Signed out, session ended: shown in a notice. */
  notice?: string;
  /** Why the last sign-in failed. */
  problem?: string;
}

/** `/curation/sign-in`: the curator token, or the identity provider's button, or both. */
export function SignInPage({ site, csrf, tokenSignIn, oidcProvider, next, notice, problem }: SignInProps) {
  return (
    <Layout site={site} title={`${problem ? 'Error: ' : ''}Sign in · Curator desk`}>
      <h1>Sign in to the curator desk</h1>
      {notice ? (
        <p class="notice-ok" role="status">
          {notice}
        </p>
      ) : null}
      {problem ? (
        <div class="error-summary" tabIndex={-1} role="alert" aria-labelledby="error-summary-title">
          <h2 id="error-summary-title">There is a problem</h2>
          <p>{tokenSignIn ? <a href="#curator-token">{problem}</a> : problem}</p>
        </div>
      ) : null}
      <p>The desk is for the registry’s curators: review requests, answer requesters, and keep the registry’s records.</p>
      {oidcProvider ? (
        <form method="post" action={`${DESK_PATH}/oidc/start`} class="sign-in">
          <input type="hidden" name={CSRF_FIELD} value={csrf} />
          <input type="hidden" name="next" value={next} />
          <button type="submit">Sign in with {oidcProvider}</button>
        </form>
      ) : null}
      {tokenSignIn ? (
        <form method="post" action={`${DESK_PATH}/sign-in`} class="sign-in" novalidate>
          {oidcProvider ? <h2>Or with the curator token</h2> : null}
          <input type="hidden" name={CSRF_FIELD} value={csrf} />
          <input type="hidden" name="next" value={next} />
          <div class={`form-field${problem ? ' has-error' : ''}`}>
            <label for="curator-token">Curator token</label>
            <p class="hint" id="curator-token-hint">
              The registry’s CURATOR_TOKEN, as its operator gave it to you.
            </p>
            <input
              type="password"
              id="curator-token"
              name="token"
              required
              autocomplete="current-password"
              spellcheck={false}
              aria-describedby="curator-token-hint"
              aria-invalid={problem ? 'true' : undefined}
            />
          </div>
          <button type="submit">Sign in</button>
        </form>
      ) : null}
    </Layout>
  );
}

/**
 * After an OpenID Connect sign-in: the browser came here from the provider's site, so it would not send
 * the new SameSite=Strict cookie with a redirect; a page of our own that moves on (meta refresh, or the
 * link) makes the next request a same-site one.
 */
export function SignedInPage({ site, name, next }: { site: Site; name: string; next: string }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta http-equiv="refresh" content={`0;url=${next}`} />
        <title>Signed in · Curator desk · Compact Identifier Registry</title>
        <link rel="stylesheet" href={site.assets.url('registry.css')} />
      </head>
      <body>
        <main id="main">
          <h1>Signed in</h1>
          <p>
            Welcome, {name}. <a href={next}>Go to the curator desk</a>.
          </p>
        </main>
      </body>
    </html>
  );
}
