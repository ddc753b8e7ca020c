/**
 * Small builders for the JSON Schemas (2020-12, as OpenAPI 3.1 reads them) of the answers and of the
 * requests no route validated with a schema before. Two vendor keywords carry what JSON Schema cannot say:
 *
 * - `x-field-order: "reference"` on an object: its properties are listed in the order the reference writes
 *   them, and our answers write them in that order too (the answer tests check it, see
 *   test/integration/openapi-answers.test.ts);
 * - `x-addition: true` on a property or an operation: not in the reference, added by this service (and said
 *   so in its description).
 */

export type Schema = Record<string, unknown>;

export const REFERENCE_ORDER = { 'x-field-order': 'reference' } as const;

/** A reference to a named schema of the document's components. */
export function ref(name: string): Schema {
  return { $ref: `#/components/schemas/${name}` };
}

export function text(description?: string, extra: Schema = {}): Schema {
  return { type: 'string', ...(description ? { description } : {}), ...extra };
}

export function integer(description?: string, extra: Schema = {}): Schema {
  return { type: 'integer', ...(description ? { description } : {}), ...extra };
}

export function number(description?: string): Schema {
  return { type: 'number', ...(description ? { description } : {}) };
}

export function flag(description?: string): Schema {
  return { type: 'boolean', ...(description ? { description } : {}) };
}

/** The schema or null. */
export function orNull(schema: Schema): Schema {
  const type = schema.type;
  if (typeof type === 'string') return { ...schema, type: [type, 'null'] };
  if (Array.isArray(type)) return { ...schema, type: [...type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}

/** Dates as the reference writes them (Jackson): ISO 8601 with milliseconds and a numeric UTC offset. */
export const REFERENCE_DATE: Schema = {
  type: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}\\+00:00$',
  maxLength: 29,
  description: 'A date as the reference writes it, e.g. 2024-02-12T09:35:45.473+00:00',
};

export const NULLABLE_DATE: Schema = orNull(REFERENCE_DATE);

/** Marks a property or operation as this service's addition to the reference's interface. */
export function addition(schema: Schema, why: string): Schema {
  const described = typeof schema.description === 'string' ? `${schema.description}. ` : '';
  return { ...schema, description: `${described}Addition (not in the reference): ${why}`, 'x-addition': true };
}

export interface ObjectOptions {
  /** Properties that may be absent; every other one is required. */
  optional?: readonly string[];
  /** False (the default): no other property. */
  additional?: boolean | Schema;
  /** Listed in the reference's order, which the answers keep. */
  referenceOrder?: boolean;
  description?: string;
}

/** An object whose properties are all required unless named optional, and closed unless told otherwise. */
export function object(properties: Record<string, Schema>, options: ObjectOptions = {}): Schema {
  const optional = new Set(options.optional ?? []);
  return {
    type: 'object',
    ...(options.description ? { description: options.description } : {}),
    ...(options.referenceOrder ? REFERENCE_ORDER : {}),
    properties,
    required: Object.keys(properties).filter((name) => !optional.has(name)),
    additionalProperties: options.additional ?? false,
  };
}

export function arrayOf(items: Schema, description?: string): Schema {
  return { type: 'array', items, ...(description ? { description } : {}) };
}

/** The HTML of a page. */
export const HTML: Schema = { type: 'string', description: 'An HTML document' };

/** An empty body. */
export const EMPTY: Schema = { type: 'string', maxLength: 0, description: 'No body' };
