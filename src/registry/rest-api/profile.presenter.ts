import { COLLECTIONS, type CollectionDefinition } from '../model/collections.js';
import type { Links } from '../model/hal.presenter.js';

interface Descriptor {
  id?: string;
  name?: string;
  href?: string;
  type?: 'SEMANTIC' | 'SAFE';
  rt?: string;
  doc?: { format: 'TEXT'; value: string };
  descriptor?: Descriptor[];
}

const PAGING: Descriptor[] = [
  { name: 'page', type: 'SEMANTIC', doc: { format: 'TEXT', value: 'The page to return.' } },
  { name: 'size', type: 'SEMANTIC', doc: { format: 'TEXT', value: 'The size of the page to return.' } },
  { name: 'sort', type: 'SEMANTIC', doc: { format: 'TEXT', value: 'The sorting criteria to use to calculate the content of the page.' } },
];

/** `GET /restApi/profile`: where each collection's ALPS description is (the API root links here). */
export function presentProfileIndex(api: string): { _links: Links } {
  const links: Links = { self: { href: `${api}/profile` } };
  for (const name of Object.keys(COLLECTIONS)) links[name] = { href: `${api}/profile/${name}` };
  return { _links: links };
}

/** A reduced form of Spring Data REST's ALPS document: the item's properties, the reads and the searches. */
export function presentProfile(api: string, collection: CollectionDefinition): { alps: { version: '1.0'; descriptor: Descriptor[] } } {
  const representation = `${collection.itemRel}-representation`;
  return {
    alps: {
      version: '1.0',
      descriptor: [
        {
          id: representation,
          href: `${api}/profile/${collection.name}`,
          descriptor: collection.fields.map((name) => ({ name, type: 'SEMANTIC' })),
        },
        { id: `get-${collection.name}`, name: collection.name, type: 'SAFE', descriptor: PAGING, rt: `#${representation}` },
        { id: `get-${collection.itemRel}`, name: collection.itemRel, type: 'SAFE', descriptor: [], rt: `#${representation}` },
        ...collection.searches.map(
          (search): Descriptor => ({
            name: search.name,
            type: 'SAFE',
            descriptor: [...search.params.map((name): Descriptor => ({ name, type: 'SEMANTIC' })), ...(search.result === 'page' ? PAGING : [])],
          }),
        ),
      ],
    },
  };
}
