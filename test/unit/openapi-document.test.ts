/**
 * Both areas' OpenAPI documents: every example fits its schema (ajv, JSON Schema 2020-12, the reference's
 * field order included), every operation has its examples, and the reference's shapes are marked as such.
 */
import { AREAS, buildOpenApiDocument, SERVICE_VERSION } from '../../src/openapi/openapi-document.js';
import { documentSchemas, isJsonType, operationsOf, pointerTo } from '../support/openapi-validator.js';

const documents = AREAS.map((area) => [area, buildOpenApiDocument(area, { serverUrl: `https://${area}.test`, version: SERVICE_VERSION })] as const);

describe.each(documents)('the %s area\'s OpenAPI document', (_area, document) => {
  const schemas = documentSchemas(document);
  const operations = operationsOf(document);

  it('is OpenAPI 3.1 with operations', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(operations.length).toBeGreaterThan(10);
  });

  it('has every example fit its schema: parameters, request bodies and answers', () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const { path, method, operation } of operations) {
      const at = `${method.toUpperCase()} ${path}`;
      (operation.parameters ?? []).forEach((parameter, i) => {
        checked++;
        for (const problem of schemas.problems(pointerTo('paths', path, method, 'parameters', i, 'schema'), parameter.example)) {
          wrong.push(`${at} parameter ${parameter.name}: ${problem}`);
        }
      });
      for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) {
        checked++;
        for (const problem of schemas.problems(pointerTo('paths', path, method, 'requestBody', 'content', type, 'schema'), media.example)) {
          wrong.push(`${at} request ${type}: ${problem}`);
        }
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const [type, media] of Object.entries(response.content ?? {})) {
          if (media.example === undefined) continue;
          checked++;
          for (const problem of schemas.problems(pointerTo('paths', path, method, 'responses', status, 'content', type, 'schema'), media.example)) {
            wrong.push(`${at} ${status} ${type}: ${problem}`);
          }
        }
      }
    }
    for (const [name, response] of Object.entries(document.components.responses as Record<string, { content: Record<string, { example: unknown }> }>)) {
      for (const [type, media] of Object.entries(response.content)) {
        checked++;
        for (const problem of schemas.problems(pointerTo('components', 'responses', name, 'content', type, 'schema'), media.example)) wrong.push(`${name} ${type}: ${problem}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(operations.length);
  });

  it('gives every parameter, request body and JSON answer an example', () => {
    const missing: string[] = [];
    for (const { path, method, operation } of operations) {
      const at = `${method.toUpperCase()} ${path}`;
      for (const parameter of operation.parameters ?? []) if (parameter.example === undefined) missing.push(`${at} parameter ${parameter.name}`);
      for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) if (media.example === undefined) missing.push(`${at} request ${type}`);
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const [type, media] of Object.entries(response.content ?? {})) {
          if (isJsonType(type) && media.example === undefined) missing.push(`${at} ${status} ${type}`);
        }
      }
    }
    // The document itself (GET /openapi.json) is its own example.
    expect(missing).toEqual(['GET /openapi.json 200 application/json']);
  });

  it('documents a request and an answer schema on every operation', () => {
    const bare = operations.filter(({ operation }) => Object.keys(operation.responses).length === 0 || !operation.summary);
    expect(bare).toEqual([]);
  });

  it('catches an example out of the reference\'s field order', () => {
    const pointer = pointerTo('components', 'schemas', 'ErrorEnvelope');
    expect(schemas.problems(pointer, { apiVersion: '1.0', errorMessage: 'x', payload: null })).toEqual([]);
    expect(schemas.problems(pointer, { errorMessage: 'x', apiVersion: '1.0', payload: null })).toEqual(["/ is not in the reference's field order"]);
  });
});

describe('the field order of the reference', () => {
  const registry = documents.find(([area]) => area === 'registry')![1];
  const resolver = documents.find(([area]) => area === 'resolver')![1];
  const properties = (document: typeof registry, name: string) => Object.keys((document.components.schemas[name] as { properties: object }).properties);

  it('lists a resolved resource\'s fields as the reference writes them (resolver-behaviour.md §2.1)', () => {
    expect(properties(resolver, 'ResolvedResource')).toEqual([
      'id', 'mirId', 'providerCode', 'compactIdentifierResolvedUrl', 'description', 'institution', 'location', 'official', 'resourceHomeUrl',
      'recommendation', 'namespacePrefix', 'deprecatedNamespace', 'namespaceDeprecationDate', 'deprecatedResource', 'resourceDeprecationDate',
      'renderDeprecatedLanding', 'protectedUrls', 'renderProtectedLanding', 'authHelpUrl', 'authHelpDescription',
    ]);
    expect(resolver.components.schemas.ResolvedResource).toMatchObject({ 'x-field-order': 'reference' });
  });

  it('lists a HAL namespace\'s fields in the reference\'s Java field order, then its suffix passthrough and synonyms (additions), then its links (registry-behaviour.md §1.3)', () => {
    expect(properties(registry, 'Namespace')).toEqual([
      'prefix', 'mirId', 'name', 'pattern', 'description', 'created', 'modified', 'deprecated', 'deprecationDate', 'deprecationOfflineDate',
      'renderDeprecatedLanding', 'deprecationStatement', 'infoOnPostmortemAccess', 'sampleId', 'namespaceEmbeddedInLui', 'suffixPassthrough', 'synonyms',
      '_links',
    ]);
  });

  it('marks what the reference does not have as an addition', () => {
    const location = registry.components.schemas.Location as { properties: Record<string, Record<string, unknown>> };
    expect(location.properties.countryCode).toMatchObject({ 'x-addition': true });
    expect(registry.paths['/healthApi/summary']!.get).toMatchObject({ 'x-addition': true });
    expect(registry.paths['/restApi/namespaces/{id}']!.get).not.toHaveProperty('x-addition');
  });
});
