import { Ajv } from 'ajv';

export type { ErrorObject, ValidateFunction } from 'ajv';

/**
 * The project's one ajv instance: every schema (request bodies, the settings, the importer's dataset
 * records) is compiled on it once, at the import of the module that declares it. Its options are the
 * instance's, so each is chosen for every schema at once:
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
