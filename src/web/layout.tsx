import type { ComponentChildren } from 'preact';
import { registryHref, STYLESHEET, type Site } from './site.js';

/** The sections of the navigation; a page names the one it belongs to, which is marked aria-current. */
export type NavSection = 'home' | 'browse' | 'request' | 'none';

export interface LayoutProps {
  site: Site;
  /** The document title; " · Compact Identifier Registry" is appended. */
  title: string;
  section?: NavSection;
  /** Scripts of public/ the page enhances itself with (type=module: deferred, and skipped by old browsers). */
  scripts?: readonly string[];
  children: ComponentChildren;
}

const NAV: readonly { section: NavSection; href: string; label: string }[] = [
  { section: 'home', href: '/', label: 'Home' },
  { section: 'browse', href: '/registry', label: 'Browse the registry' },
  { section: 'request', href: '/prefixregistrationrequest', label: 'Request a prefix' },
];

/** The one layout: a skip link, then header (with the navigation), main and footer landmarks. */
export function Layout({ site, title, section = 'none', scripts = [], children }: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title} · Compact Identifier Registry`}</title>
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
