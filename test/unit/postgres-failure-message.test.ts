import pg from 'pg';
import { CreateDatabaseError } from '../../src/db/ensure-database.js';
import { classifyPostgresFailure, postgresFailureMessage } from '../../src/db/postgres-failure.js';

// What the server answers, as pg reports it (a DatabaseError with the SQLSTATE code).
function serverError(code: string, message: string): pg.DatabaseError {
  const error = new pg.DatabaseError(message, message.length, 'error');
  error.code = code;
  error.severity = 'FATAL';
  return error;
}

function networkError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

const URL_WITH_PASSWORD = 'postgres://alice:S3cret%21@db.example.org:5433/registry?sslmode=require&password=S3cret!';

describe('start-up message when Postgres does not let the service in', () => {
  it.each([
    ['refused connection', networkError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'), 'unreachable'],
    ['unknown host', networkError('ENOTFOUND', 'getaddrinfo ENOTFOUND db.example.org'), 'unreachable'],
    ['no answer in time', new Error('Postgres did not answer within 5000 ms'), 'unreachable'],
    ['pg connect timeout', new Error('Connection terminated due to connection timeout'), 'unreachable'],
    ['wrong password (28P01)', serverError('28P01', 'password authentication failed for user "alice"'), 'login-refused'],
    ['unknown role (28000)', serverError('28000', 'role "alice" does not exist'), 'login-refused'],
    ['pg_hba reject (28000)', serverError('28000', 'no pg_hba.conf entry for host "10.0.0.1", user "alice", database "registry", no encryption'), 'login-refused'],
    ['no password given for SCRAM', new Error('SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string'), 'login-refused'],
    ['missing database (3D000)', serverError('3D000', 'database "registry" does not exist'), 'database-missing'],
    ['no right to create it (42501)', new CreateDatabaseError('registry', serverError('42501', 'permission denied to create database')), 'create-denied'],
    ['creation failed otherwise', new CreateDatabaseError('registry', serverError('3D000', 'database "postgres" does not exist')), 'refused'],
    ['any other answer of the server', serverError('53300', 'sorry, too many clients already'), 'refused'],
  ])('classifies a %s as %s', (_, cause, kind) => {
    expect(classifyPostgresFailure(cause)).toBe(kind);
  });

  it('keeps the message for an unreachable server', () => {
    expect(postgresFailureMessage('postgres://postgres@127.0.0.1:5432/curie_resolver', networkError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'))).toBe(
      [
        'Cannot reach PostgreSQL at postgres://postgres@127.0.0.1:5432/curie_resolver: connect ECONNREFUSED 127.0.0.1:5432.',
        'Start it with `docker compose up -d postgres`, or with your system service',
        '(`sudo systemctl start postgresql`, or `pg_ctlcluster <version> main start` on Debian),',
        'or point DATABASE_URL at a running server.',
      ].join('\n'),
    );
  });

  it('names the user whose login was refused and where to fix it', () => {
    const message = postgresFailureMessage(URL_WITH_PASSWORD, serverError('28P01', 'password authentication failed for user "alice"'));
    expect(message.split('\n')[0]).toBe(
      'PostgreSQL at postgres://alice:***@db.example.org:5433/registry?sslmode=require&password=*** answered but refused the login of user "alice": password authentication failed for user "alice".',
    );
    expect(message).toMatch(/Check the user name and password in DATABASE_URL/);
    expect(message).toContain('CREATE ROLE "alice" LOGIN');
  });

  it('says a password is needed when the server asks for one and DATABASE_URL has none', () => {
    const message = postgresFailureMessage('postgres://alice@db.example.org/registry', new Error('SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string'));
    expect(message.split('\n')[0]).toBe('PostgreSQL at postgres://alice@db.example.org/registry answered but refused the login of user "alice": it asks for a password and DATABASE_URL has none.');
  });

  it('names the missing database and how to create it', () => {
    const message = postgresFailureMessage(URL_WITH_PASSWORD, serverError('3D000', 'database "registry" does not exist'));
    expect(message).toContain('answered but has no database "registry": database "registry" does not exist.');
    expect(message).toMatch(/`npm start` creates it/);
    expect(message).toMatch(/Run `npm start` or `npm run db:migrate` once, or point DATABASE_URL at an existing database\./);
  });

  it('names the database the user may not create and who can', () => {
    const message = postgresFailureMessage(URL_WITH_PASSWORD, new CreateDatabaseError('registry', serverError('42501', 'permission denied to create database')));
    expect(message).toContain('has no database "registry", and user "alice" may not create it: permission denied to create database.');
    expect(message).toContain('CREATE DATABASE "registry" OWNER "alice"');
    expect(message).toContain('ALTER ROLE "alice" CREATEDB');
  });

  it('passes any other answer of the server on with its SQLSTATE', () => {
    expect(postgresFailureMessage('postgres://alice@db.example.org/registry', serverError('53300', 'sorry, too many clients already'))).toBe(
      'PostgreSQL at postgres://alice@db.example.org/registry answered but refused the connection: sorry, too many clients already (SQLSTATE 53300).',
    );
    expect(postgresFailureMessage('postgres://alice@db.example.org/registry', new CreateDatabaseError('registry', serverError('3D000', 'database "postgres" does not exist')))).toBe(
      'PostgreSQL at postgres://alice@db.example.org/registry answered but could not create database "registry": database "postgres" does not exist (SQLSTATE 3D000).',
    );
  });

  it('never prints the password, whatever the cause', () => {
    const causes = [
      networkError('ECONNREFUSED', 'connect ECONNREFUSED'),
      serverError('28P01', 'password authentication failed for user "alice"'),
      serverError('3D000', 'database "registry" does not exist'),
      new CreateDatabaseError('registry', serverError('42501', 'permission denied to create database')),
      serverError('53300', 'sorry, too many clients already'),
    ];
    for (const cause of causes) {
      const message = postgresFailureMessage(URL_WITH_PASSWORD, cause);
      expect(message).not.toMatch(/S3cret/);
    }
  });
});
