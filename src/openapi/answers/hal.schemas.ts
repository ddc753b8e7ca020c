/**
 * The browse API's HAL answers (registry-behaviour.md §1.3), written from the collections the routes and the
 * presenter use (registry/model/collections.ts): each item's fields in the reference's (Java field) order, then
 * its links: self, its own rel and its associations.
 */
import { COLLECTIONS, type CollectionDefinition } from '../../registry/model/collections.js';
import { addition, arrayOf, flag, integer, NULLABLE_DATE, object, orNull, ref, REFERENCE_DATE, text, type Schema } from '../schema-kit.js';

/** The wire type of every field of the four collections (a field missing here fails the document's build). */
const FIELD_TYPES: Readonly<Record<string, Schema>> = {
  id: integer(),
  prefix: text(),
  mirId: orNull(text()),
  name: text(),
  pattern: text('The local id pattern (a Java regular expression)'),
  description: orNull(text()),
  created: orNull(REFERENCE_DATE),
  modified: orNull(REFERENCE_DATE),
  deprecated: flag(),
  deprecationDate: NULLABLE_DATE,
  deprecationOfflineDate: NULLABLE_DATE,
  renderDeprecatedLanding: flag(),
  deprecationStatement: orNull(text()),
  infoOnPostmortemAccess: orNull(text()),
  sampleId: orNull(text()),
  namespaceEmbeddedInLui: flag(),
  urlPattern: text('The provider URL with {$id} where the local id goes'),
  official: flag(),
  providerCode: orNull(text()),
  resourceHomeUrl: orNull(text()),
  protectedUrls: flag(),
  renderProtectedLanding: flag(),
  authHelpUrl: orNull(text()),
  authHelpDescription: orNull(text()),
  homeUrl: orNull(text()),
  rorId: orNull(text()),
  countryCode: addition(text('ISO 3166-1 alpha-2'), 'the reference leaves it out of the item (it is the id, in the self link)'),
  countryName: text(),
  synonyms: addition(arrayOf(text()), "a namespace's prefix synonyms (each resolves in place of the prefix), sorted; [] when it has none"),
  suffixPassthrough: addition(
    flag(),
    "whether a LUI the namespace's pattern refuses resolves as its longest matching leading part, the rest (from a / . ; # or ?) appended to each provider URL; false by default",
  ),
};

const LINK = ref('HalLink');

function linksOf(names: readonly string[]): Schema {
  return object(Object.fromEntries(names.map((name) => [name, LINK])), { referenceOrder: true });
}

function itemSchema(collection: CollectionDefinition): Schema {
  const properties: Record<string, Schema> = {};
  for (const field of [...collection.fields, ...(collection.extraItemFields ?? [])]) {
    const type = FIELD_TYPES[field];
    if (!type) throw new Error(`No wire type for ${collection.name}.${field} in openapi/answers/hal.schemas.ts`);
    properties[field] = type;
  }
  properties._links = linksOf(['self', collection.itemRel, ...collection.associations]);
  return object(properties, { referenceOrder: true, description: `A ${collection.itemRel} as the reference's Spring Data REST writes it` });
}

const capitalised = (name: string) => `${name.charAt(0).toUpperCase()}${name.slice(1)}`;

/** The component name of a collection's item schema: Namespace, Resource, Institution, Location. */
export function itemSchemaName(collection: CollectionDefinition): string {
  return capitalised(collection.itemRel);
}

const PAGE_LINKS = ['first', 'prev', 'self', 'next', 'last', 'profile', 'search'];

function pageSchema(embeddedKey: string, item: Schema): Schema {
  return object(
    {
      _embedded: object({ [embeddedKey]: arrayOf(item) }),
      _links: object(Object.fromEntries(PAGE_LINKS.map((name) => [name, LINK])), {
        referenceOrder: true,
        optional: PAGE_LINKS.filter((name) => name !== 'self'),
        description: 'first and last when there is more than one page, prev and next when they exist, profile and search on a collection root',
      }),
      page: object({ size: integer(), totalElements: integer(), totalPages: integer(), number: integer('Zero-based') }, { referenceOrder: true }),
    },
    { referenceOrder: true },
  );
}

function listSchema(embeddedKey: string, item: Schema): Schema {
  return object({ _embedded: object({ [embeddedKey]: arrayOf(item) }), _links: linksOf(['self']) }, { referenceOrder: true });
}

export const HAL_SCHEMAS: Record<string, Schema> = {
  HalLink: object({ href: text(), templated: { const: true } }, { optional: ['templated'], referenceOrder: true }),
  HalLinks: { type: 'object', additionalProperties: LINK, description: 'Links by rel' },
  HalRoot: object({ _links: { $ref: '#/components/schemas/HalLinks' } }),
  AlpsProfile: {
    type: 'object',
    required: ['alps'],
    properties: { alps: { type: 'object', additionalProperties: true } },
    additionalProperties: false,
    description: 'Spring Data REST\'s ALPS description of a collection',
  },
  Person: object(
    {
      email: text('Curators only'),
      fullName: text('Curators only'),
      created: orNull(REFERENCE_DATE),
      modified: orNull(REFERENCE_DATE),
      _links: linksOf(['self', 'person']),
    },
    {
      referenceOrder: true,
      optional: ['email', 'fullName'],
      description: 'The reference\'s Person. Its e-mail address and name are personal data: only a caller with the curator token gets them',
    },
  ),
  ExistsAnswer: flag('Whether a namespace has that prefix (a bare JSON boolean)'),
};

for (const collection of Object.values(COLLECTIONS)) {
  const name = itemSchemaName(collection);
  HAL_SCHEMAS[name] = itemSchema(collection);
  HAL_SCHEMAS[`${name}Page`] = pageSchema(collection.name, ref(name));
  HAL_SCHEMAS[`${name}List`] = listSchema(collection.name, ref(name));
}

/** A HAL page of `item`s embedded under `embeddedKey` (the curators' open sessions reuse the browse shape). */
export { pageSchema as halPageSchema, listSchema as halListSchema, linksOf as halLinksOf };
