import { parse } from 'node:querystring';
import { answerKey } from '../../src/registry/rest-api/answer-key.js';

const key = (url: string): string => {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  return answerKey(path, parse(q === -1 ? '' : url.slice(q + 1)), url);
};

describe('the browse answer cache key', () => {
  it('keeps of a page only its paging and applied sort, as the route reads them', () => {
    const canonical = '/restApi/namespaces?page=0&size=1000';
    expect(key('/restApi/namespaces?size=1000&junk=1')).toBe(canonical);
    expect(key('/restApi/namespaces?junk=2&size=1000&utm_source=x')).toBe(canonical);
    expect(key('/restApi/namespaces?size=1000&page=undefined&sort=nosuchfield')).toBe(canonical);
    expect(key('/restApi/namespaces?size=5000')).toBe(canonical);
    expect(key('/restApi/namespaces?size=1000&sort=prefix&sort=name,desc')).toBe('/restApi/namespaces?page=0&size=1000&sort=prefix,asc&sort=name,desc');
    expect(key('/restApi/namespaces?size=1000&sort=name,desc&sort=prefix')).not.toBe(key('/restApi/namespaces?size=1000&sort=prefix&sort=name,desc'));
    expect(key('/restApi/namespaces')).toBe('/restApi/namespaces?page=0&size=20');
  });

  it("keeps a search's parameters and their spelling, first value only", () => {
    expect(key('/restApi/namespaces/search/findByPrefix?prefix=go&junk=1&page=4')).toBe('/restApi/namespaces/search/findByPrefix?prefix=go');
    expect(key('/restApi/namespaces/search/findByPrefix?prefix=go&prefix=chebi')).toBe('/restApi/namespaces/search/findByPrefix?prefix=go');
    expect(key('/restApi/institutions/search/findByNameContaining?name=a&x=1')).toBe('/restApi/institutions/search/findByNameContaining?name=a&page=0&size=20');
    expect(key('/restApi/institutions/search/findByNameContaining?nameContent=a')).toBe(
      '/restApi/institutions/search/findByNameContaining?nameContent=a&page=0&size=20',
    );
    expect(key('/restApi/resources/search/findByNamespaceIdAndProviderCode?id=1&providerCode=ebi&z=2')).toBe(
      '/restApi/resources/search/findByNamespaceIdAndProviderCode?providerCode=ebi&id=1',
    );
    expect(key('/restApi/namespaces/search/findByPrefix?prefix=a%26b')).toBe('/restApi/namespaces/search/findByPrefix?prefix=a%26b');
  });

  it('keeps nothing of the query for items, associations and indexes', () => {
    for (const path of ['/restApi', '/restApi/', '/restApi/profile', '/restApi/profile/namespaces', '/restApi/namespaces/search', '/restApi/namespaces/230', '/restApi/resources/232/institution', '/restApi/locations/GB']) {
      expect(key(`${path}?junk=1&page=2`)).toBe(path);
    }
  });

  it('reads a path as the router matches it, whatever its case and with one trailing slash', () => {
    expect(key('/restApi/NAMESPACES?page=1&junk=2')).toBe('/restApi/NAMESPACES?page=1&size=20');
    expect(key('/restApi/namespaces/?page=1')).toBe('/restApi/namespaces/?page=1&size=20');
    expect(key('/RESTAPI/namespaces/SEARCH/findbyprefix/?prefix=go&junk=1')).toBe('/RESTAPI/namespaces/SEARCH/findbyprefix/?prefix=go');
    expect(key('/restApi/Institutions/search/FindByNameContaining?name=a')).toBe('/restApi/Institutions/search/FindByNameContaining?name=a&page=0&size=20');
  });

  it('keeps the whole URL of a path that is none of the routes\' shapes', () => {
    for (const url of [
      '/restApi/namespaces/search%2FfindByPrefix?prefix=go',
      '/restApi/namespaces/search/noSuchSearch?prefix=go',
      '/restApi/namespaces//resources?x=1',
      '/restApi//namespaces?page=1',
      '/restApi/namespaces/1/resources/2?x=1',
    ]) {
      expect(key(url)).toBe(url);
    }
  });
});
