import type { ComponentChildren, VNode } from 'preact';
import type { ParsedCompactIdentifier, ResolvedResource } from '../core/resolve.js';
import { inlineStylePagePolicy } from '../http/page-security.js';
import { renderDocument } from '../web/render-page.js';

const STYLE = `body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;line-height:1.5}
.note{background:#fff4e5;border-left:4px solid #f0a020;padding:.5rem 1rem}li{margin:.3rem 0}small{color:#555}`;

/** The landing pages' Content-Security-Policy: their one style element, nothing else, never framed. */
export const LANDING_PAGE_POLICY = inlineStylePagePolicy(STYLE);

/**
 * The landing pages are a document of their own, not the registry site's layout (the failure page and `/`
 * use that): their policy allows just this style element, by its hash (so it is written raw).
 */
function LandingDocument({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title>{title}</title>
        <style dangerouslySetInnerHTML={{ __html: STYLE }} />
      </head>
      <body>{children}</body>
    </html>
  );
}

/**
 * A page's texts and link addresses go in as marks and are written in after rendering, escaped as these
 * pages always were (' and > too, which preact leaves as they are): clients and tests read them so.
 */
type Mark = (text: string) => string;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** Renders the page built with `mark`, each mark then replaced by its text, escaped. */
function renderMarked(build: (mark: Mark) => VNode): string {
  const texts: string[] = [];
  const page = renderDocument(build((text) => `\uE000${texts.push(text) - 1}\uE000`));
  return page.replace(/\uE000(\d+)\uE000/g, (_, index: string) => escapeHtml(texts[Number(index)]!));
}

// Only http(s) links are rendered as links: a registry value is data, never a script URL.
function Link({ url, text, mark }: { url: string | null; text: string; mark: Mark }) {
  if (!url || !/^https?:\/\//i.test(url)) return <>{mark(text)}</>;
  return (
    <a href={mark(url)} rel="nofollow noopener">
      {mark(text)}
    </a>
  );
}

function flagsOf(r: ResolvedResource): string {
  const deprecated = r.deprecatedResource ? `deprecated${r.resourceDeprecationDate ? ` since ${r.resourceDeprecationDate.slice(0, 10)}` : ''}` : '';
  return [r.official ? 'official' : '', deprecated].filter(Boolean).join(', ');
}

function ProviderList({ resources, mark }: { resources: readonly ResolvedResource[]; mark: Mark }) {
  const sorted = [...resources].sort((a, b) => b.recommendation.recommendationIndex - a.recommendation.recommendationIndex);
  return (
    <ul>
      {sorted.map((r) => {
        const flags = flagsOf(r);
        return (
          <li key={r.id}>
            <Link url={r.compactIdentifierResolvedUrl} text={r.description ?? r.compactIdentifierResolvedUrl} mark={mark} />{' '}
            <small>{mark(`${r.institution.name}${flags ? ` · ${flags}` : ''}`)}</small>
          </li>
        );
      })}
    </ul>
  );
}

function RegistryEntry({ url, mark }: { url: string | null; mark: Mark }) {
  return url ? (
    <p>
      <Link url={url} text="Registry entry of this namespace" mark={mark} />
    </p>
  ) : null;
}

export interface LandingContext {
  parsed: ParsedCompactIdentifier;
  resources: readonly ResolvedResource[];
  registryPageUrl: string | null;
}

type LandingProps = LandingContext & { mark: Mark };

function DeprecatedLanding({ parsed, resources, registryPageUrl, mark }: LandingProps) {
  const since = parsed.namespaceDeprecationDate ? ` since ${parsed.namespaceDeprecationDate.slice(0, 10)}` : '';
  return (
    <LandingDocument title={mark(`${parsed.rawRequest}: deprecated`)}>
      <h1>{mark(parsed.rawRequest)}</h1>
      <p class="note">
        {parsed.deprecatedNamespace ? (
          <>
            The namespace <strong>{mark(parsed.namespace ?? '')}</strong>
            {mark(` is deprecated${since}.`)}
          </>
        ) : (
          'The provider this identifier would normally be sent to is deprecated.'
        )}
        {' The pages below may no longer work.'}
      </p>
      <h2>Providers</h2>
      <ProviderList resources={resources} mark={mark} />
      <RegistryEntry url={registryPageUrl} mark={mark} />
    </LandingDocument>
  );
}

function ProtectedLanding({ parsed, resources, registryPageUrl, mark }: LandingProps) {
  const protectedOne = resources.find((r) => r.protectedUrls) ?? resources[0];
  return (
    <LandingDocument title={mark(`${parsed.rawRequest}: access required`)}>
      <h1>{mark(parsed.rawRequest)}</h1>
      <p class="note">The provider of this identifier requires you to sign in or to request access.</p>
      {protectedOne?.authHelpDescription ? <p>{mark(protectedOne.authHelpDescription)}</p> : null}
      {protectedOne?.authHelpUrl ? (
        <p>
          <Link url={protectedOne.authHelpUrl} text="How to get access" mark={mark} />
        </p>
      ) : null}
      <h2>Providers</h2>
      <ProviderList resources={resources} mark={mark} />
      <RegistryEntry url={registryPageUrl} mark={mark} />
    </LandingDocument>
  );
}

/** Shown instead of a redirect when the namespace or the chosen resource is deprecated. */
export function renderDeprecatedLanding(context: LandingContext): string {
  return renderMarked((mark) => <DeprecatedLanding {...context} mark={mark} />);
}

/** Shown instead of a redirect when the chosen provider needs a login. */
export function renderProtectedLanding(context: LandingContext): string {
  return renderMarked((mark) => <ProtectedLanding {...context} mark={mark} />);
}
