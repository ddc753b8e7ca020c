import type { ParsedCompactIdentifier, ResolvedResource } from '../core/resolve.js';
import { inlineStylePagePolicy } from '../http/page-security.js';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

const STYLE = `body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;line-height:1.5}
.note{background:#fff4e5;border-left:4px solid #f0a020;padding:.5rem 1rem}li{margin:.3rem 0}small{color:#555}`;

/** The landing pages' Content-Security-Policy: their one style element, nothing else, never framed. */
export const LANDING_PAGE_POLICY = inlineStylePagePolicy(STYLE);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head><body>${body}</body></html>`;
}

// Only http(s) links are rendered as links: a registry value is data, never a script URL.
function link(url: string | null, text: string): string {
  if (!url || !/^https?:\/\//i.test(url)) return escapeHtml(text);
  return `<a href="${escapeHtml(url)}" rel="nofollow noopener">${escapeHtml(text)}</a>`;
}

function providerList(resources: readonly ResolvedResource[]): string {
  const sorted = [...resources].sort((a, b) => b.recommendation.recommendationIndex - a.recommendation.recommendationIndex);
  const items = sorted.map((r) => {
    const flags = [r.official ? 'official' : '', r.deprecatedResource ? `deprecated${r.resourceDeprecationDate ? ` since ${r.resourceDeprecationDate.slice(0, 10)}` : ''}` : '']
      .filter(Boolean)
      .join(', ');
    return `<li>${link(r.compactIdentifierResolvedUrl, r.description ?? r.compactIdentifierResolvedUrl)} <small>${escapeHtml(r.institution.name)}${flags ? ` · ${flags}` : ''}</small></li>`;
  });
  return `<ul>${items.join('')}</ul>`;
}

export interface LandingContext {
  parsed: ParsedCompactIdentifier;
  resources: readonly ResolvedResource[];
  registryPageUrl: string | null;
}

/** Shown instead of a redirect when the namespace or the chosen resource is deprecated. */
export function renderDeprecatedLanding({ parsed, resources, registryPageUrl }: LandingContext): string {
  const what = parsed.deprecatedNamespace
    ? `The namespace <strong>${escapeHtml(parsed.namespace ?? '')}</strong> is deprecated${parsed.namespaceDeprecationDate ? ` since ${escapeHtml(parsed.namespaceDeprecationDate.slice(0, 10))}` : ''}.`
    : 'The provider this identifier would normally be sent to is deprecated.';
  return page(
    `${parsed.rawRequest}: deprecated`,
    `<h1>${escapeHtml(parsed.rawRequest)}</h1>
<p class="note">${what} The pages below may no longer work.</p>
<h2>Providers</h2>${providerList(resources)}
${registryPageUrl ? `<p>${link(registryPageUrl, 'Registry entry of this namespace')}</p>` : ''}`,
  );
}

/** Shown instead of a redirect when the chosen provider needs a login. */
export function renderProtectedLanding({ parsed, resources, registryPageUrl }: LandingContext): string {
  const protectedOne = resources.find((r) => r.protectedUrls) ?? resources[0];
  const help = protectedOne?.authHelpDescription ? `<p>${escapeHtml(protectedOne.authHelpDescription)}</p>` : '';
  const helpLink = protectedOne?.authHelpUrl ? `<p>${link(protectedOne.authHelpUrl, 'How to get access')}</p>` : '';
  return page(
    `${parsed.rawRequest}: access required`,
    `<h1>${escapeHtml(parsed.rawRequest)}</h1>
<p class="note">The provider of this identifier requires you to sign in or to request access.</p>${help}${helpLink}
<h2>Providers</h2>${providerList(resources)}
${registryPageUrl ? `<p>${link(registryPageUrl, 'Registry entry of this namespace')}</p>` : ''}`,
  );
}

/** A failed resolution asked for by a browser. */
export function renderResolutionFailed(rawRequest: string, errorMessage: string): string {
  return page(
    'Resolution failed',
    `<h1>Resolution failed</h1><p>${escapeHtml(errorMessage)}</p><p><small>Request: ${escapeHtml(rawRequest)}</small></p>`,
  );
}
