/**
 * The hostile benchmark's case derivation (bench/hostile): every documented operation gets cases, and the
 * cases follow the parameter and body schemas. No request is sent and nothing is timed.
 */
import { deriveCases, LONG_VALUE_LENGTH, type CaseContext } from '../../bench/hostile/case-derivation.js';
import { listOperations, type OpenApiDocumentLike } from '../../bench/hostile/openapi-operations.js';
import { ROUTE_CASES } from '../../bench/hostile/route-cases.js';
import { planRoutes } from '../../bench/hostile/route-plan.js';
import { AREAS, buildOpenApiDocument, SERVICE_VERSION, type Area } from '../../src/openapi/openapi-document.js';

const ctx: CaseContext = { curie: 'taxonomy:9606', prefix: 'go', namespaceId: 3, resourceId: 4, institutionId: 5, curies: ['taxonomy:9606', 'go:0006915'] };

const realDocuments = Object.fromEntries(
  AREAS.map((area) => [area, buildOpenApiDocument(area, { serverUrl: 'http://localhost', version: SERVICE_VERSION })]),
) as unknown as Record<Area, OpenApiDocumentLike>;

/** A document of one operation. */
function documentOf(path: string, method: string, operation: Record<string, unknown>): OpenApiDocumentLike {
  return { paths: { [path]: { [method]: { operationId: 'op', responses: { 200: { description: 'ok' } }, ...operation } } } };
}

const onlyOperation = (document: OpenApiDocumentLike) => listOperations(document, 'registry')[0]!;

describe('the hostile case derivation', () => {
  it('gives every operation of both areas\' documents at least one case, and the hand-written table names only documented ones', () => {
    const plan = planRoutes(realDocuments, ctx, ROUTE_CASES);
    expect(plan.routes.length).toBeGreaterThan(100);
    expect(plan.uncovered).toEqual([]);
    expect(plan.unknownHandKeys).toEqual([]);
  });

  it('names an operation whose body it cannot build as uncovered, so that the run stops on it', () => {
    const document = documentOf('/upload', 'post', { requestBody: { content: { 'multipart/form-data': { schema: { type: 'object' } } } } });
    const plan = planRoutes({ resolver: { paths: {} }, registry: document }, ctx, {});
    expect(plan.uncovered).toEqual(['registry POST /upload']);
  });

  it('sends an overlong value to a parameter with a maxLength, and a long one to a string without', () => {
    const op = onlyOperation(
      documentOf('/things/{code}', 'get', {
        parameters: [
          { name: 'code', in: 'path', required: true, schema: { type: 'string', maxLength: 8 }, example: 'abc' },
          { name: 'q', in: 'query', schema: { type: 'string' }, example: 'x' },
        ],
      }),
    );
    const paths = deriveCases(op, ctx).map((c) => c.path);
    expect(paths).toContain('/things/abc?q=x');
    expect(paths).toContain(`/things/${'x'.repeat(9)}?q=x`);
    expect(paths).toContain(`/things/abc?q=${'x'.repeat(LONG_VALUE_LENGTH)}`);
    expect(paths).toContain('/things/abc?q=__proto__');
    expect(paths).toContain('/things/a%00b?q=x');
  });

  it('sends an integer at its maximum and past it, every enum value and a wrong one', () => {
    const op = onlyOperation(
      documentOf('/changes', 'get', {
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000 }, example: 100 },
          { name: 'period', in: 'query', schema: { type: 'string', enum: ['day', 'month'] } },
        ],
      }),
    );
    const paths = deriveCases(op, ctx).map((c) => c.path);
    expect(paths).toEqual(expect.arrayContaining(['/changes?limit=1000&period=day', '/changes?limit=1001&period=day', '/changes?limit=100&period=month']));
    expect(paths).toContain('/changes?limit=100&period=not-an-enum-value');
  });

  it('fills arrays to their maxItems and one more, and sends deep, wide and oversize JSON', () => {
    const op = onlyOperation(
      documentOf('/batch', 'post', {
        requestBody: {
          content: {
            'application/json': {
              schema: { type: 'object', properties: { payload: { type: 'object', properties: { ids: { type: 'array', maxItems: 5 } } } } },
              example: { payload: { ids: ['a', 'b'] } },
            },
          },
        },
      }),
    );
    const cases = deriveCases(op, ctx);
    const itemsOf = (label: string) => (JSON.parse(cases.find((c) => c.label === label)!.body!().toString()) as { payload: { ids: string[] } }).payload.ids;
    expect(itemsOf('arrays at maxItems')).toEqual(['a', 'b', 'a', 'b', 'a']);
    expect(itemsOf('arrays at maxItems + 1')).toHaveLength(6);
    expect(cases.map((c) => c.label)).toEqual(expect.arrayContaining(['arrays nested 10,000 deep', 'object of 100,000 keys', '16 MiB JSON']));
    expect(cases.every((c) => c.headers['Content-Type'] === 'application/json' || c.label === 'JSON as text/plain')).toBe(true);
  });

  it('asks for the path in odd case and with a wrong bearer token', () => {
    const op = onlyOperation(documentOf('/resolutionApi/getResolverDataset', 'get', {}));
    const cases = deriveCases(op, ctx);
    expect(cases.map((c) => c.path)).toEqual(expect.arrayContaining(['/RESOLUTIONAPI/getResolverDataset', '/resolutionapi/getresolverdataset']));
    expect(cases.some((c) => c.headers.Authorization?.startsWith('Bearer '))).toBe(true);
  });

  it('puts the loaded registry\'s records into record paths', () => {
    const op = onlyOperation(
      documentOf('/restApi/resources/{id}/namespace', 'get', { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' }, example: 28 }] }),
    );
    expect(deriveCases(op, ctx)[0]!.path).toBe('/restApi/resources/4/namespace');
  });
});
