import type { ComponentChildren } from 'preact';

/** Whether a registry value may be a link target: http and https only, never a script or data address. */
export function isWebAddress(url: string | null | undefined): url is string {
  return typeof url === 'string' && /^https?:\/\/[^\s]+$/i.test(url);
}

/** A link to a provider's or institution's site when the address is a web address, else the text alone. */
export function ExternalLink({ href, children }: { href: string | null | undefined; children: ComponentChildren }) {
  if (!isWebAddress(href)) return <>{children}</>;
  return (
    <a href={href} rel="nofollow noopener">
      {children}
    </a>
  );
}
