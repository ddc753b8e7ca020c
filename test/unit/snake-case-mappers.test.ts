import { knexSnakeCaseMappers } from '../../src/db/snake-case-mappers.js';

// The identifiers of every query are those objection's knexSnakeCaseMappers() produced before it was
// dropped: the cases below are its documented conversions.
const { wrapIdentifier, postProcessResponse } = knexSnakeCaseMappers();
const column = (identifier: string) => wrapIdentifier!(identifier, (value) => value, {});

describe('the snake_case/camelCase mapping of the knex instance', () => {
  it('writes camelCase names as snake_case columns and leaves snake_case and * as they are', () => {
    expect(column('namespaceEmbeddedInLui')).toBe('namespace_embedded_in_lui');
    expect(column('rorId')).toBe('ror_id');
    expect(column('registry_changes')).toBe('registry_changes');
    expect(column('*')).toBe('*');
  });

  it('takes a run of capitals for one word and maps only the part after the last colon', () => {
    expect(column('fooBAR')).toBe('foo_bar');
    expect(column('id1Two')).toBe('id1_two');
    expect(column('alias:someColumn')).toBe('alias:some_column');
  });

  it('gives rows camelCase keys, one row or many, and leaves what is not a row alone', () => {
    expect(postProcessResponse!([{ entity_id: '7', txid: '9' }, null], {})).toEqual([{ entityId: '7', txid: '9' }, null]);
    expect(postProcessResponse!({ country_code: 'GB' }, {})).toEqual({ countryCode: 'GB' });
    expect(postProcessResponse!(undefined, {})).toBeUndefined();
    expect(postProcessResponse!(3, {})).toBe(3);
  });
});
