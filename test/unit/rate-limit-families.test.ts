import { registryFamilyOf } from '../../src/registry/registry-rate-limits.js';
import { resolverFamilyOf } from '../../src/resolver/resolver-rate-limits.js';

describe('the route families of the rate limits', () => {
  it('on the resolver: resolutions, reverse lookups, batches, the insight API; never health or metrics', () => {
    expect(resolverFamilyOf('GET', '/taxonomy:9606')).toBe('resolution');
    expect(resolverFamilyOf('GET', '/resolveMirId/MIR:00000006')).toBe('resolution');
    expect(resolverFamilyOf('POST', '/reverse/byPrefix')).toBe('reverse');
    expect(resolverFamilyOf('POST', '/resolve/batch')).toBe('batch');
    expect(resolverFamilyOf('POST', '/reverse/batch')).toBe('batch');
    expect(resolverFamilyOf('GET', '/insightApi/get_all_home_urls')).toBe('dataset');
    expect(resolverFamilyOf('POST', '/mcp')).toBe('resolution');
    expect(resolverFamilyOf('GET', '/health/live')).toBeNull();
    expect(resolverFamilyOf('GET', '/metrics')).toBeNull();
  });

  it('counts the docs page, its files and the OpenAPI document as browsing on both areas, as the registry\'s pages', () => {
    for (const path of ['/openapi.json', '/docs', '/docs/assets/swagger-ui-bundle.js']) {
      expect(resolverFamilyOf('GET', path)).toBe('browse');
      expect(registryFamilyOf('GET', path)).toBe('browse');
    }
    // A compact identifier that merely starts like them is still a resolution.
    expect(resolverFamilyOf('GET', '/docsprefix:1')).toBe('resolution');
  });

  it('on the registry: validators, submissions and other writes, the dataset, browsing; never health or metrics', () => {
    expect(registryFamilyOf('POST', '/prefixRegistrationApi/validateRequestedPrefix')).toBe('validators');
    expect(registryFamilyOf('POST', '/resourceManagementApi/validateProviderHomeUrl')).toBe('validators');
    expect(registryFamilyOf('POST', '/rorIdApi/getInstitutionForRorId')).toBe('validators');
    // The request forms' field checks run the same validators.
    expect(registryFamilyOf('POST', '/prefixregistrationrequest/check/validateDescription')).toBe('validators');
    expect(registryFamilyOf('POST', '/ResourceRegistrationRequest/check/validateNamespacePrefix/')).toBe('validators');
    expect(registryFamilyOf('POST', '/prefixRegistrationApi/registerPrefix')).toBe('submissions');
    expect(registryFamilyOf('POST', '/prefixregistrationrequest')).toBe('submissions');
    expect(registryFamilyOf('POST', '/requests/abc/comment')).toBe('submissions');
    expect(registryFamilyOf('PATCH', '/restApi/namespaces/1')).toBe('submissions');
    expect(registryFamilyOf('GET', '/resolutionApi/getResolverDataset')).toBe('dataset');
    expect(registryFamilyOf('GET', '/registryInsightApi/getEbiSearchDataset')).toBe('dataset');
    expect(registryFamilyOf('GET', '/restApi/namespaces')).toBe('browse');
    expect(registryFamilyOf('GET', '/registry/taxonomy')).toBe('browse');
    // A SPARQL query is a read, whether in the URL or in a POST body.
    expect(registryFamilyOf('GET', '/sparql')).toBe('browse');
    expect(registryFamilyOf('POST', '/sparql')).toBe('browse');
    expect(registryFamilyOf('HEAD', '/')).toBe('browse');
    expect(registryFamilyOf('GET', '/health/ready')).toBeNull();
    expect(registryFamilyOf('GET', '/metrics')).toBeNull();
  });

  it('counts a path by the route that answers it, whatever its case or trailing slash, as the routers match', () => {
    for (const path of ['/RESOLUTIONAPI/getResolverDataset', '/resolutionapi/export/tsv', '/resolutionApi/DIFF', '/resolutionApi/getResolverDataset/', '/REGISTRYINSIGHTAPI/getEbiSearchDataset', '/resolutionApi/export']) {
      expect(registryFamilyOf('GET', path)).toBe('dataset');
    }
    expect(registryFamilyOf('POST', '/PREFIXREGISTRATIONAPI/validateRequestedPrefix/')).toBe('validators');
    expect(registryFamilyOf('POST', '/RORIDAPI/getInstitutionForRorId')).toBe('validators');
    // Not percent-decoded, as the routers do not: no route answers these, so they are browsing.
    expect(registryFamilyOf('GET', '/resolution%41pi/getResolverDataset')).toBe('browse');
    expect(registryFamilyOf('GET', '/resolutionApiX/getResolverDataset')).toBe('browse');
    expect(resolverFamilyOf('GET', '/INSIGHTAPI/get_all_home_urls')).toBe('dataset');
    expect(resolverFamilyOf('POST', '/RESOLVE/Batch')).toBe('batch');
    expect(resolverFamilyOf('POST', '/reverse/batch/')).toBe('batch');
    expect(resolverFamilyOf('POST', '/Reverse/byPrefix')).toBe('reverse');
    expect(resolverFamilyOf('GET', '/OpenAPI.json')).toBe('browse');
  });

  it('leaves unlimited only the exact health and metrics paths, which are answered as written', () => {
    for (const path of ['/METRICS', '/metrics/', '/Health/ready', '/health/live/', '/health/anything']) {
      expect(registryFamilyOf('GET', path)).toBe('browse');
      expect(resolverFamilyOf('GET', path)).toBe('resolution');
    }
    for (const path of ['/metrics', '/health/live', '/health/ready']) {
      expect(registryFamilyOf('GET', path)).toBeNull();
      expect(resolverFamilyOf('GET', path)).toBeNull();
    }
  });
});
