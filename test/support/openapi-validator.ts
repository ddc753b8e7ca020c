/**
 * Validates values against the schemas of an OpenAPI 3.1 document (JSON Schema 2020-12) with ajv, the
 * document added whole so that its `#/components/schemas/...` references resolve. The document's
 * `x-field-order: reference` is checked too: an object's properties that the schema lists come in the
 * schema's order (the reference's), as the answers write them.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';

const DOCUMENT_ID = 'https://openapi.test/document.json';

/** `x-field-order`: the object's listed properties appear in the order the schema lists them. */
function inSchemaOrder(_value: unknown, data: unknown, parentSchema?: { properties?: Record<string, unknown> }): boolean {
  if (data === null || typeof data !== 'object' || Array.isArray(data) || !parentSchema?.properties) return true;
  const listed = Object.keys(parentSchema.properties);
  const given = Object.keys(data).filter((key) => listed.includes(key));
  const expected = listed.filter((key) => given.includes(key));
  return given.every((key, i) => key === expected[i]);
}

/** A JSON pointer into the document (its tokens escaped), as a URI fragment. */
export function pointerTo(...tokens: readonly (string | number)[]): string {
  return `#${tokens.map((t) => `/${encodeURIComponent(String(t).replace(/~/g, '~0').replace(/\//g, '~1'))}`).join('')}`;
}

export interface SchemaCheck {
  /** The problems of `value` against the schema at `pointer` (pointerTo), none when it fits. */
  problems(pointer: string, value: unknown): string[];
}

export function documentSchemas(document: object): SchemaCheck {
  // strict: false, as the document holds keywords of OpenAPI's (example, description) and its own (x-...).
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addKeyword({ keyword: 'x-field-order', schemaType: 'string', validate: inSchemaOrder, errors: false });
  ajv.addKeyword({ keyword: 'x-addition' });
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  const compiled = new Map<string, ValidateFunction>();
  return {
    problems(pointer, value) {
      let validate = compiled.get(pointer);
      if (!validate) {
        validate = ajv.compile({ $ref: `${DOCUMENT_ID}${pointer}` });
        compiled.set(pointer, validate);
      }
      if (validate(value)) return [];
      return (validate.errors ?? []).map((e: ErrorObject) => `${e.instancePath || '/'} ${e.keyword === 'x-field-order' ? 'is not in the reference\'s field order' : (e.message ?? e.keyword)}`);
    },
  };
}

export type Operation = {
  operationId: string;
  summary: string;
  parameters?: { name: string; in: string; required: boolean; example: unknown; schema: object }[];
  requestBody?: { content: Record<string, { example?: unknown; schema: object }> };
  responses: Record<string, { content?: Record<string, { example?: unknown; schema: object }> }>;
  security: Record<string, unknown>[];
};

/** Every (path, method, operation) of a document. */
export function operationsOf(document: { paths: Record<string, Record<string, unknown>> }): { path: string; method: string; operation: Operation }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method, operation: operation as Operation })),
  );
}

/** Media types whose bodies are JSON. */
export function isJsonType(type: string): boolean {
  return /^application\/([a-z.+-]*\+)?json$/.test(type);
}
