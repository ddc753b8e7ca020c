import type { Knex } from 'knex';

/**
 * Columns are snake_case in SQL and camelCase in the code: knex's wrapIdentifier / postProcessResponse
 * hooks, written as objection's knexSnakeCaseMappers() wrote them (objection is not used otherwise), so the
 * identifiers of every query stay as they were. Only the keys of returned rows are mapped: a raw query's
 * result is an object whose rows keep their SQL names, so raw SQL aliases its columns (`AS "entityId"`).
 */

// Identifiers repeat from query to query: each is converted once.
function memoize(convert: (input: string) => string): (input: string) => string {
  const cache = new Map<string, string>();
  return (input) => {
    let output = cache.get(input);
    if (output === undefined) {
      output = convert(input);
      cache.set(input, output);
    }
    return output;
  };
}

/** `namespaceEmbeddedInLui` → `namespace_embedded_in_lui`; a run of capitals is one word (`fooBAR` → `foo_bar`). */
function snakeCase(text: string): string {
  if (text.length === 0) return text;
  const upper = text.toUpperCase();
  const lower = text.toLowerCase();
  let out = lower[0]!;
  for (let i = 1; i < text.length; i++) {
    const char = text[i]!;
    const upperChar = upper[i]!;
    const lowerChar = lower[i]!;
    // Only characters that have a case count as capitals.
    if (char === upperChar && upperChar !== lowerChar) {
      const prevChar = text[i - 1]!;
      const previousIsCapital = prevChar === upper[i - 1] && upper[i - 1] !== lower[i - 1];
      out += previousIsCapital ? lowerChar : `_${lowerChar}`;
    } else {
      out += char;
    }
  }
  return out;
}

/** The reverse of snakeCase: `entity_id` → `entityId`; a name without underscores is left as it is. */
function camelCase(text: string): string {
  if (text.length === 0) return text;
  let out = text[0]!;
  for (let i = 1; i < text.length; i++) {
    const char = text[i]!;
    if (char === '_') continue;
    out += text[i - 1] === '_' ? char.toUpperCase() : char;
  }
  return out;
}

/** Maps only the part after the last `:` (objection's alias separator; kept so identifiers map as before). */
function lastPart(convert: (text: string) => string): (text: string) => string {
  return (text) => {
    if (!text) return text;
    const index = text.lastIndexOf(':');
    return text.slice(0, index + 1) + convert(text.slice(index + 1));
  };
}

function keyMapper(convert: (key: string) => string): (value: unknown) => unknown {
  return (value) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) out[convert(key)] = (value as Record<string, unknown>)[key];
    return out;
  };
}

/** The knex options that give every query of the instance the snake_case/camelCase mapping. */
export function knexSnakeCaseMappers(): Pick<Knex.Config, 'wrapIdentifier' | 'postProcessResponse'> {
  const toColumn = memoize(lastPart(snakeCase));
  const mapRow = keyMapper(memoize(lastPart(camelCase)));
  return {
    wrapIdentifier: (identifier, wrap) => wrap(toColumn(identifier)),
    postProcessResponse: (result: unknown) => {
      if (!Array.isArray(result)) return mapRow(result);
      const output = new Array<unknown>(result.length);
      for (let i = 0; i < result.length; i++) output[i] = mapRow(result[i]);
      return output;
    },
  };
}
