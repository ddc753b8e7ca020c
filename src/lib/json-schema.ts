import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';

export type { ErrorObject, ValidateFunction } from 'ajv';

/**
 * The project's one ajv instance: every schema (request bodies, the settings, the importer's dataset
 * records) is compiled on it once, the settings' at import and the others on their first use
 * (compileOnFirstUse). Its options are the instance's, so each is chosen for every schema at once:
 *
 * - allowUnionTypes: request schemas take `type: ['object', 'null']`, as the reference's Jackson does.
 * - useDefaults: the importer's optional fields and the settings get their defaults. Only a property's
 *   `default` is applied, and request schemas carry none, so a client's body is never filled in.
 * - no coerceTypes: it would be instance-wide and quietly take a client's "1" for 1; the settings, which
 *   arrive as environment text, are converted to their types before validation instead (config.ts).
 * - no allErrors: a hostile body costs one failed check and the first problem is all its answer names;
 *   the settings name every bad variable by validating again without the one found (config.ts).
 */
export const ajv = new Ajv({ allowUnionTypes: true, useDefaults: true });

/** A validator compiled on its first call: what callers of a compiled schema use of it. */
export interface LazyValidator<T = unknown> {
  (data: unknown): data is T;
  /** The last call's problems, as ajv's own validator has them (null before any failed call). */
  readonly errors: ErrorObject[] | null | undefined;
}

/**
 * `schema` compiled on the instance at its first use rather than at the import of the module declaring it:
 * compiling costs milliseconds per schema, and most processes (and test files) that import a feature's
 * schemas never validate one of its bodies. The settings' schema, which every process needs at once, is
 * compiled at import (config.ts).
 */
export function compileOnFirstUse<T = unknown>(schema: object): LazyValidator<T> {
  let compiled: ValidateFunction<T> | undefined;
  const validate = (data: unknown): data is T => (compiled ??= ajv.compile<T>(schema))(data);
  Object.defineProperty(validate, 'errors', { get: () => compiled?.errors ?? null, enumerable: true });
  return validate as LazyValidator<T>;
}
