import type { Context } from 'koa';
import { setPageSecurity } from '../http/page-security.js';
import { Layout } from './layout.js';
import { prefersHtml } from './negotiation.js';
import { renderDocument } from './render-page.js';
import type { Site } from './site.js';

const HEADINGS: Readonly<Record<number, string>> = {
  400: 'Bad request',
  401: 'Sign-in needed',
  403: 'Not allowed',
  404: 'Page not found',
  405: 'Method not allowed',
  409: 'Conflict',
  429: 'Too many requests',
  503: 'Service unavailable',
};

function heading(status: number): string {
  return HEADINGS[status] ?? (status >= 500 ? 'Something went wrong' : 'Request failed');
}

export function ErrorPage({ site, status, message }: { site: Site; status: number; message: string }) {
  return (
    <Layout site={site} title={heading(status)}>
      <h1>{heading(status)}</h1>
      <p>{message}</p>
      <p>
        <a href="/">Go to the home page</a> or <a href="/registry">browse the registry</a>.
      </p>
    </Layout>
  );
}

/**
 * The error page a browser gets instead of the JSON envelope: for an address that no route serves, and for
 * an error of a page route (sendPage marks those). The APIs' errors stay JSON whoever asks: a person reading
 * /restApi in a browser wants the API's own answer.
 */
export function htmlErrorPage(site: Site) {
  return (ctx: Context, status: number, message: string, noRoute: boolean): string | undefined => {
    if (!(noRoute || ctx.state.htmlPage === true) || !prefersHtml(ctx.req)) return undefined;
    setPageSecurity(ctx);
    return renderDocument(<ErrorPage site={site} status={status} message={message} />);
  };
}
