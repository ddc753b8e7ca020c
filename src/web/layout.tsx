import type { ComponentChildren } from 'preact';
import { FAVICON, registryHref, STYLESHEET, type Site } from './site.js';

/** The sections of the navigation; a page names the one it belongs to, which is marked aria-current. */
export type NavSection = 'home' | 'browse' | 'request' | 'none';

export interface LayoutProps {
  site: Site;
  /** The document title; " · Compact Identifier Registry" is appended. */
  title: string;
  /** What search engines show under the title; the registry's own description by default. */
  description?: string;
  section?: NavSection;
  /** Scripts of public/ the page enhances itself with (type=module: deferred, and skipped by old browsers). */
  scripts?: readonly string[];
  /**
   * The header's navigation in place of the site's: the curator desk's own bar, so that a desk page has one
   * navigation, not the public one above the desk's.
   */
  navigation?: ComponentChildren;
  children: ComponentChildren;
}

const NAV: readonly { section: NavSection; href: string; label: string }[] = [
  { section: 'home', href: '/', label: 'Home' },
  { section: 'browse', href: '/registry', label: 'Browse the registry' },
  { section: 'request', href: '/prefixregistrationrequest', label: 'Request a prefix' },
];

/** The site's navigation, the current section marked. */
function MainNavigation({ site, section }: { site: Site; section: NavSection }) {
  return (
    <nav aria-label="Main">
      <ul>
        {NAV.map((item) => (
          <li key={item.href}>
            <a href={registryHref(site, item.href)} aria-current={item.section === section ? 'page' : undefined}>
              {item.label}
            </a>
          </li>
        ))}
        <li>
          <a href={registryHref(site, '/docs')}>API</a>
        </li>
        <li>
          <a href={registryHref(site, '/resolutionApi/getResolverDataset')}>Dataset</a>
        </li>
      </ul>
    </nav>
  );
}

const DEFAULT_DESCRIPTION =
  'The registry of compact identifiers (prefix:accession, such as taxonomy:9606): their namespaces, the providers of each and where an identifier resolves.';
const DESCRIPTION_LENGTH = 160;

/** A description cut at a word to the length search engines show. */
function shortDescription(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= DESCRIPTION_LENGTH) return flat;
  const cut = flat.slice(0, DESCRIPTION_LENGTH - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), DESCRIPTION_LENGTH / 2))}…`;
}

/** The one layout: a skip link, then header (with the navigation), main and footer landmarks. */
export function Layout({ site, title, description, section = 'none', scripts = [], navigation, children }: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title} · Compact Identifier Registry`}</title>
        <meta name="description" content={shortDescription(description || DEFAULT_DESCRIPTION)} />
        {/* Named here, so that no browser asks for a /favicon.ico that is not there. */}
        <link rel="icon" href={site.assets.url(FAVICON)} type="image/svg+xml" />
        <link rel="stylesheet" href={site.assets.url(STYLESHEET)} />
        {scripts.map((name) => (
          <script type="module" src={site.assets.url(name)} key={name} />
        ))}
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="site-header">
          <a class="site-name" href={registryHref(site, '/')}>
            Compact Identifier Registry
          </a>
          {navigation ?? <MainNavigation site={site} section={section} />}
        </header>
        <main id="main" tabIndex={-1}>
          {children}
        </main>
        <footer class="site-footer">
          <p>
            Resolver: <a href={`${site.publicResolverUrl}/`}>{site.publicResolverUrl}</a>. Registry data from identifiers.org
            (EMBL-EBI), under <a href="https://creativecommons.org/licenses/by/4.0/">CC BY 4.0</a>.
          </p>
        </footer>
      </body>
    </html>
  );
}
