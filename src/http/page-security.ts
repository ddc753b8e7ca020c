import { createHash } from 'node:crypto';
import type { Context } from 'koa';

/** No page of either area is meant to be shown inside another site's frame (clickjacking). */
const NEVER_FRAMED = "frame-ancestors 'none'";

/**
 * The Content-Security-Policy of the registry's pages, public and curator desk alike: scripts, styles and
 * everything else only from the registry's own files (public/, no inline script or style), no plugins, no
 * <base> elsewhere, never framed. No form-action: the home page's resolve box answers with a redirect to
 * the resolver and on to a provider, and browsers check form-action on each redirect of a form's navigation.
 */
export const PAGE_SECURITY_POLICY = ["default-src 'self'", "object-src 'none'", "base-uri 'self'", NEVER_FRAMED].join('; ');

/** The docs page's (Swagger UI, from its package's files): the pages' policy, with the icons its stylesheet holds as data: URLs. */
export const DOCS_SECURITY_POLICY = `${PAGE_SECURITY_POLICY}; img-src 'self' data:`;

/**
 * The policy of a page made of markup and one inline style element only (the resolver's landing pages):
 * nothing loaded, no script at all, that style allowed by its hash.
 */
export function inlineStylePagePolicy(css: string): string {
  const hash = createHash('sha256').update(css).digest('base64');
  return ["default-src 'none'", `style-src 'sha256-${hash}'`, "base-uri 'none'", "form-action 'none'", NEVER_FRAMED].join('; ');
}

/** The headers of an HTML page: its policy, and X-Frame-Options for browsers older than frame-ancestors. */
export function pageSecurityHeaders(policy: string = PAGE_SECURITY_POLICY): [string, string][] {
  return [
    ['Content-Security-Policy', policy],
    ['X-Frame-Options', 'DENY'],
  ];
}

export function setPageSecurity(ctx: Context, policy: string = PAGE_SECURITY_POLICY): void {
  for (const [name, value] of pageSecurityHeaders(policy)) ctx.set(name, value);
}
