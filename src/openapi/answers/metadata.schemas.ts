/**
 * The answers of the resolver's provider-metadata API (/metadataApi, issue 25 item 3): identifiers.org's
 * metadata service answers `{metadata}` in the envelope, `metadata` being the page's JSON-LD; the other
 * payload fields are this service's.
 */
import { addition, arrayOf, integer, object, orNull, ref, text, type Schema } from '../schema-kit.js';
import { envelopeWithMessage } from './envelope.schemas.js';

const nullableText = (description: string) => orNull(text(description));

export const METADATA_SCHEMAS: Record<string, Schema> = {
  PageSummary: object(
    {
      title: nullableText('og:title, twitter:title, Dublin Core title or the <title>'),
      description: nullableText('og:description, twitter:description, Dublin Core or the meta description'),
      image: nullableText('Absolute URL of og:image or twitter:image'),
      url: nullableText('The page\'s own canonical URL (og:url), absolute'),
      siteName: nullableText('og:site_name'),
      type: nullableText('og:type'),
      locale: nullableText('og:locale, or the page\'s language'),
      favicon: nullableText('Absolute URL of the page\'s icon'),
    },
    { description: 'What the page says about itself in its meta tags and title, each field from the first source that has it' },
  ),
  MetadataResolvedFrom: object(
    {
      compactIdentifier: text('As asked'),
      namespacePrefix: orNull(text()),
      providerCode: text('The provider whose page was read: the one a redirect would go to, or the one asked for as provider/prefix:accession'),
      resourceId: integer(),
    },
    { description: 'The resource the compact identifier was resolved to' },
  ),
  MetadataPayload: object(
    {
      metadata: orNull(arrayOf({ description: 'A JSON-LD document as the page embeds it' }, 'The page\'s schema.org JSON-LD blocks (application/ld+json) in page order; null when the page could not be read')),
      url: addition(text(), 'the page asked for'),
      finalUrl: addition(text(), 'where its redirects ended'),
      fetchedAt: addition(text(undefined, { format: 'date-time' }), 'when the page was fetched; the answer may come from the cache'),
      page: addition(ref('PageSummary'), 'title, description, image and more from the page\'s meta tags'),
      jsonLdSkipped: addition(integer(undefined, { minimum: 0 }), 'JSON-LD blocks left out: they did not parse, or were past the stored bound'),
      ageSeconds: addition(integer(undefined, { minimum: 0 }), 'how old the answer is, as the Age header says'),
      resolvedFrom: addition(ref('MetadataResolvedFrom'), 'for a compact identifier: the resource whose page was read'),
    },
    { optional: ['url', 'finalUrl', 'fetchedAt', 'page', 'jsonLdSkipped', 'ageSeconds', 'resolvedFrom'] },
  ),
  MetadataAnswer: envelopeWithMessage(ref('MetadataPayload'), 'Metadata of a page: errorMessage is null on success; on a failure metadata is null'),
};
