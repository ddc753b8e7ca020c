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

// A web address in running text: up to whitespace or a character that cannot stand in one unescaped.
const ADDRESS_IN_TEXT = /https?:\/\/[^\s<>"]+/gi;
// Sentence punctuation after an address belongs to the sentence (`see https://example.org/a.`).
const TRAILING_PUNCTUATION = /[.,;:!?'")\]]+$/;

/** Text with each http(s) address in it as a link (rel nofollow noopener); anything else stays text. */
export function LinkedText({ text }: { text: string }) {
  const parts: ComponentChildren[] = [];
  let from = 0;
  for (const match of text.matchAll(ADDRESS_IN_TEXT)) {
    const address = match[0].replace(TRAILING_PUNCTUATION, '');
    if (!isWebAddress(address)) continue;
    parts.push(text.slice(from, match.index), <ExternalLink href={address}>{address}</ExternalLink>);
    from = match.index + address.length;
  }
  parts.push(text.slice(from));
  return <>{parts}</>;
}
