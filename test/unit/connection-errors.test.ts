import pg from 'pg';
import { isDatabaseUnavailable } from '../../src/db/connection-errors.js';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });
const serverError = (code: string) => Object.assign(new pg.DatabaseError('from the server', 0, 'error'), { code });

describe('telling a database outage from a failing query', () => {
  it('counts the errors of a server that is down, restarting or not answering', () => {
    const outage = [
      withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
      withCode('ECONNRESET'),
      Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), { name: 'KnexTimeoutError' }),
      serverError('57P01'), // admin_shutdown
      serverError('57P03'), // cannot_connect_now: starting up
      serverError('08006'), // connection_failure
      new Error('select 1 - Connection terminated unexpectedly'),
      new Error('timeout expired'),
      new Error('Client has encountered a connection error and is not queryable'),
    ];
    expect(outage.filter((error) => !isDatabaseUnavailable(error)).map((error) => error.message)).toEqual([]);
  });

  it('looks through the wrappers of objection (nativeError), causes and an AggregateError of every address', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('DBError'), { nativeError: withCode('ECONNREFUSED') }))).toBe(true);
    expect(isDatabaseUnavailable(new Error('wrapped', { cause: serverError('57P01') }))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], 'every address refused'))).toBe(true);
  });

  it('leaves query errors, client errors and anything else to the generic answer', () => {
    const notOutage = [
      serverError('23505'), // unique_violation
      serverError('42P01'), // undefined_table
      serverError('28P01'), // invalid_password: a configuration error, not a passing outage
      new Error('select * from "namespaces" - syntax error at or near "frm"'),
      new Error('Connection terminated by the operator, says a message that merely mentions it'),
      new TypeError("Cannot read properties of undefined (reading 'id')"),
      null,
      'a string',
    ];
    expect(notOutage.filter((error) => isDatabaseUnavailable(error))).toEqual([]);
  });
});
