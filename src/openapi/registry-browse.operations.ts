/**
 * The browse API (`/restApi`, rest-api.routes.ts and persons.routes.ts): written from the same collection
 * definitions the routes are (registry/model/collections.ts), so every collection, item search and field is here.
 */
import { COLLECTIONS, type CollectionDefinition, type CollectionName, type SearchDefinition } from '../registry/model/collections.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../registry/model/paging.js';
import { itemSchemaName } from './answers/hal.schemas.js';
import { LINK, PUBLIC_REGISTRY, SAMPLE } from './examples.js';
import { errorAnswer, HAL_TYPE, jsonAnswer, pathParam, queryParam, type OperationSpec, type ParameterSpec } from './operation.js';
import { ref } from './schema-kit.js';

const TAG = 'Browse';

const NCBI_LOCATION = { countryName: 'United States', created: '2019-06-11T14:15:29.882+00:00' };

/** An item of each collection as the browse API writes it (the sample registry's). */
export const ITEM_EXAMPLES: Readonly<Record<CollectionName, Record<string, unknown>>> = {
  namespaces: {
    prefix: 'taxonomy',
    mirId: 'MIR:00000006',
    name: 'Taxonomy',
    pattern: '^\\d+$',
    description: 'The taxonomy contains the relationships between all living forms for which nucleic acid or protein sequence have been determined.',
    created: '2019-06-11T14:15:29.882+00:00',
    modified: '2019-06-11T14:15:29.882+00:00',
    deprecated: false,
    deprecationDate: null,
    deprecationOfflineDate: null,
    renderDeprecatedLanding: false,
    deprecationStatement: null,
    infoOnPostmortemAccess: null,
    sampleId: '9606',
    namespaceEmbeddedInLui: false,
    suffixPassthrough: false,
    synonyms: ['NCBITaxon', 'taxon'],
    _links: {
      self: LINK('namespaces/28'),
      namespace: LINK('namespaces/28'),
      successor: LINK('namespaces/28/successor'),
      contactPerson: LINK('namespaces/28/contactPerson'),
      resources: LINK('namespaces/28/resources'),
      curationWarnings: LINK('namespaces/28/curationWarnings'),
    },
  },
  resources: {
    mirId: 'MIR:00100007',
    urlPattern: 'https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?mode=Info&id={$id}',
    name: 'NCBI Taxonomy',
    description: 'NCBI Taxonomy',
    official: true,
    providerCode: 'ncbi',
    sampleId: '9606',
    resourceHomeUrl: 'https://www.ncbi.nlm.nih.gov/Taxonomy/',
    created: '2019-06-11T14:15:29.882+00:00',
    modified: '2019-06-11T14:15:29.882+00:00',
    deprecated: false,
    deprecationDate: null,
    deprecationOfflineDate: null,
    renderDeprecatedLanding: false,
    deprecationStatement: null,
    protectedUrls: false,
    renderProtectedLanding: false,
    authHelpUrl: null,
    authHelpDescription: null,
    _links: {
      self: LINK('resources/29'),
      resource: LINK('resources/29'),
      institution: LINK('resources/29/institution'),
      location: LINK('resources/29/location'),
      namespace: LINK('resources/29/namespace'),
      contactPerson: LINK('resources/29/contactPerson'),
      curationWarnings: LINK('resources/29/curationWarnings'),
    },
  },
  institutions: {
    id: 26,
    name: 'National Center for Biotechnology Information',
    homeUrl: 'https://www.ncbi.nlm.nih.gov/',
    description: 'The National Center for Biotechnology Information advances science and health by providing access to biomedical and genomic information.',
    created: '2019-06-11T14:15:29.882+00:00',
    modified: '2019-06-11T14:15:29.882+00:00',
    rorId: 'https://ror.org/02meqm098',
    _links: {
      self: LINK('institutions/26'),
      institution: LINK('institutions/26'),
      location: LINK('institutions/26/location'),
      resource: LINK('institutions/26/resource'),
      curationWarnings: LINK('institutions/26/curationWarnings'),
    },
  },
  locations: { countryCode: 'US', ...NCBI_LOCATION, _links: { self: LINK('locations/US'), location: LINK('locations/US') } },
};

const ITEM_IDS: Readonly<Record<CollectionName, string | number>> = {
  namespaces: SAMPLE.namespaceId,
  resources: SAMPLE.resourceId,
  institutions: SAMPLE.institutionId,
  locations: SAMPLE.countryCode,
};

/** Search parameters' examples, by `collection.search.param` or by the parameter's name alone. */
const PARAM_EXAMPLES: Readonly<Record<string, unknown>> = {
  'namespaces.findByMirId.mirId': SAMPLE.namespaceMirId,
  'resources.findByMirId.mirId': SAMPLE.resourceMirId,
  'resources.findAllByNamespaceId.id': SAMPLE.namespaceId,
  'resources.findAllByInstitutionId.id': SAMPLE.institutionId,
  prefix: SAMPLE.prefix,
  prefixStart: 'tax',
  content: 'onom',
  namespaceId: SAMPLE.namespaceId,
  providerCode: SAMPLE.providerCode,
  name: SAMPLE.institutionName,
  rorId: 'https://ror.org/02meqm098',
  nameContent: 'Biotechnology',
  countryCode: SAMPLE.countryCode,
};

const PAGING: readonly ParameterSpec[] = [
  queryParam('page', 'Zero-based page number', 0, { schema: { type: 'integer', minimum: 0 } }),
  queryParam('size', `Page size (default ${DEFAULT_PAGE_SIZE}; larger than ${MAX_PAGE_SIZE} is taken as ${MAX_PAGE_SIZE})`, DEFAULT_PAGE_SIZE, {
    schema: { type: 'integer', minimum: 1 },
  }),
  queryParam('sort', '`property[,asc|desc]`, repeatable; the properties are the item\'s JSON names (unknown ones are dropped)', 'prefix,asc'),
];

function pageExample(collection: CollectionDefinition, path: string): unknown {
  return {
    _embedded: { [collection.name]: [ITEM_EXAMPLES[collection.name]] },
    _links: {
      self: { href: `${PUBLIC_REGISTRY}/restApi${path}?page=0&size=20` },
      ...(path === `/${collection.name}` ? { profile: LINK(`profile/${collection.name}`), search: LINK(`${collection.name}/search`) } : {}),
    },
    page: { size: 20, totalElements: 1, totalPages: 1, number: 0 },
  };
}

function listExample(collection: CollectionDefinition, path: string): unknown {
  return { _embedded: { [collection.name]: [ITEM_EXAMPLES[collection.name]] }, _links: { self: { href: `${PUBLIC_REGISTRY}/restApi${path}` } } };
}

const MISSING_PARAM = errorAnswer('A required parameter is missing', "Required parameter 'prefix' is not present");
const notFound = (message: string) => errorAnswer('No such item', message);

/** The answer of a search or association by what it gives: an item, a list, a page or a boolean. */
function resultAnswer(collection: CollectionDefinition, result: SearchDefinition['result'], path: string) {
  const item = itemSchemaName(collection);
  switch (result) {
    case 'item':
      return jsonAnswer(`The ${collection.itemRel}`, ref(item), ITEM_EXAMPLES[collection.name], HAL_TYPE);
    case 'list':
      return jsonAnswer(`The ${collection.name} (not paged)`, ref(`${item}List`), listExample(collection, path), HAL_TYPE);
    case 'page':
      return jsonAnswer(`A page of ${collection.name}`, ref(`${item}Page`), pageExample(collection, path), HAL_TYPE);
    case 'boolean':
      return jsonAnswer('true or false', ref('ExistsAnswer'), true, HAL_TYPE);
  }
}

function searchOperation(collection: CollectionDefinition, search: SearchDefinition): OperationSpec {
  const path = `/${collection.name}/search/${search.name}`;
  const parameters: ParameterSpec[] = search.params.map((name) =>
    queryParam(name, `The reference's parameter ${name}${search.aliases?.length ? ` (also read as ${search.aliases.join(', ')})` : ''}`, PARAM_EXAMPLES[`${collection.name}.${search.name}.${name}`] ?? PARAM_EXAMPLES[name], {
      required: true,
    }),
  );
  if (search.result === 'page') parameters.push(...PAGING);
  return {
    methods: ['get'],
    path: `/restApi${path}`,
    tag: TAG,
    summary: `${collection.name}: ${search.name}(${search.params.join(', ')})`,
    parameters,
    responses:
      search.result === 'item'
        ? { 200: resultAnswer(collection, search.result, path), 400: MISSING_PARAM, 404: notFound(`${collection.noun} not found`) }
        : { 200: resultAnswer(collection, search.result, path), 400: MISSING_PARAM },
  };
}

const idParam = (collection: CollectionDefinition) =>
  pathParam('id', collection.name === 'locations' ? 'The country code (ISO 3166-1 alpha-2)' : `The ${collection.itemRel}'s id`, ITEM_IDS[collection.name]);

/** An association of an item leading to another item (`/resources/{id}/namespace`), or a list of them. */
function associationOperation(owner: CollectionDefinition, rel: string, target: CollectionDefinition, result: 'item' | 'list'): OperationSpec {
  const path = `/${owner.name}/${ITEM_IDS[owner.name]}/${rel}`;
  return {
    methods: ['get'],
    path: `/restApi/${owner.name}/{id}/${rel}`,
    tag: TAG,
    summary: `The ${rel} of a ${owner.itemRel}`,
    parameters: [idParam(owner)],
    responses: {
      200: resultAnswer(target, result, path),
      404: notFound(`${owner.noun} with id '99999' not found, or it has no ${rel}`),
    },
  };
}

function collectionOperations(collection: CollectionDefinition): OperationSpec[] {
  const item = itemSchemaName(collection);
  const searchLinks = Object.fromEntries(collection.searches.map((s) => [s.name, { href: `${PUBLIC_REGISTRY}/restApi/${collection.name}/search/${s.name}{?${s.params.join(',')}}`, templated: true }]));
  return [
    {
      methods: ['get'],
      path: `/restApi/${collection.name}`,
      tag: TAG,
      summary: `A page of ${collection.name}`,
      parameters: PAGING,
      responses: { 200: resultAnswer(collection, 'page', `/${collection.name}`) },
    },
    {
      methods: ['get'],
      path: `/restApi/${collection.name}/search`,
      tag: TAG,
      summary: `The searches of ${collection.name}, as templated links`,
      responses: {
        200: jsonAnswer('The searches', ref('HalRoot'), { _links: { ...searchLinks, self: LINK(`${collection.name}/search`) } }, HAL_TYPE),
      },
    },
    ...collection.searches.map((search) => searchOperation(collection, search)),
    {
      methods: ['get'],
      path: `/restApi/${collection.name}/{id}`,
      tag: TAG,
      summary: `A ${collection.itemRel}`,
      description: collection.fields.includes('modified' as never) ? 'With Last-Modified.' : undefined,
      parameters: [idParam(collection)],
      responses: {
        200: jsonAnswer(`The ${collection.itemRel}`, ref(item), ITEM_EXAMPLES[collection.name], HAL_TYPE),
        404: notFound(`${collection.noun} with id '99999' not found`),
      },
    },
  ];
}

const { namespaces, resources, institutions, locations } = COLLECTIONS;

const PERSON_EXAMPLE = {
  email: 'curator@example.org',
  fullName: 'A. Curator',
  created: '2019-06-11T14:15:29.882+00:00',
  modified: '2019-06-11T14:15:29.882+00:00',
  _links: { self: LINK('persons/1'), person: LINK('persons/1') },
};

const personAnswer = jsonAnswer('The person (their e-mail address and name for curators only)', ref('Person'), PERSON_EXAMPLE, HAL_TYPE);

export const BROWSE_OPERATIONS: readonly OperationSpec[] = [
  {
    methods: ['get'],
    path: '/restApi',
    tag: TAG,
    summary: 'The API root: every collection as a templated link',
    responses: {
      200: jsonAnswer(
        'The collections',
        ref('HalRoot'),
        {
          _links: {
            ...Object.fromEntries(Object.keys(COLLECTIONS).map((name) => [name, { href: `${PUBLIC_REGISTRY}/restApi/${name}{?page,size,sort}`, templated: true }])),
            profile: LINK('profile'),
          },
        },
        HAL_TYPE,
      ),
    },
  },
  {
    methods: ['get'],
    path: '/restApi/profile',
    tag: TAG,
    summary: 'Where each collection\'s ALPS description is',
    responses: {
      200: jsonAnswer('The profiles', ref('HalRoot'), { _links: { self: LINK('profile'), ...Object.fromEntries(Object.keys(COLLECTIONS).map((name) => [name, LINK(`profile/${name}`)])) } }, HAL_TYPE),
    },
  },
  {
    methods: ['get'],
    path: '/restApi/profile/{collection}',
    tag: TAG,
    summary: 'A collection\'s ALPS description: its item\'s properties, reads and searches',
    parameters: [pathParam('collection', 'A collection', 'namespaces', { type: 'string', enum: Object.keys(COLLECTIONS) })],
    responses: {
      200: jsonAnswer(
        'The description',
        ref('AlpsProfile'),
        { alps: { version: '1.0', descriptor: [{ id: 'namespace-representation', href: `${PUBLIC_REGISTRY}/restApi/profile/namespaces`, descriptor: [{ name: 'prefix', type: 'SEMANTIC' }] }] } },
        'application/alps+json',
      ),
      404: errorAnswer('No such collection', 'No such endpoint: GET /restApi/profile/nothing'),
    },
  },
  ...Object.values(COLLECTIONS).flatMap((collection) => collectionOperations(collection as CollectionDefinition)),
  associationOperation(namespaces, 'successor', namespaces, 'item'),
  associationOperation(namespaces, 'resources', resources, 'list'),
  associationOperation(resources, 'namespace', namespaces, 'item'),
  associationOperation(resources, 'institution', institutions, 'item'),
  associationOperation(resources, 'location', locations, 'item'),
  associationOperation(institutions, 'location', locations, 'item'),
  {
    methods: ['get'],
    path: '/restApi/institutions/{id}/resource',
    tag: TAG,
    summary: 'The reference\'s link from an institution to "its resource", which never leads to one',
    description: 'Always 404 (as in the reference, whose association is to-many in the other direction); the message points to findAllByInstitutionId.',
    parameters: [idParam(institutions)],
    responses: { 404: notFound("Institution with id '26' has no resource (see /restApi/resources/search/findAllByInstitutionId?id=26)") },
  },
  ...(['namespaces', 'resources'] as const).map(
    (owner): OperationSpec => ({
      methods: ['get'],
      path: `/restApi/${owner}/{id}/contactPerson`,
      tag: TAG,
      summary: `The contact person of a ${COLLECTIONS[owner].itemRel}`,
      access: 'optional-curator',
      parameters: [idParam(COLLECTIONS[owner])],
      responses: { 200: personAnswer, 404: notFound(`${COLLECTIONS[owner].noun} with id '99999' has no contact person`) },
    }),
  ),
  {
    methods: ['get'],
    path: '/restApi/persons/{id}',
    tag: TAG,
    summary: 'A person (a contact of namespaces and resources)',
    access: 'optional-curator',
    parameters: [pathParam('id', 'The person\'s id', 1)],
    responses: { 200: personAnswer, 404: notFound("Person with id '99999' not found") },
  },
];
