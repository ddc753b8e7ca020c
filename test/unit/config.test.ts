import { ConfigError, databaseName, loadConfig } from '../../src/config.js';
import { parseOrigins } from '../../src/http/cors.js';

describe('configuration', () => {
  it('uses the documented defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config.DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/curie_resolver');
    expect(config.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(config.RESOLVER_PORT).toBe(8080);
    expect(config.REGISTRY_PORT).toBe(8081);
    expect(config.PUBLIC_RESOLVER_URL).toBe('http://localhost:8080');
    expect(config.PUBLIC_REGISTRY_URL).toBe('http://localhost:8081');
    expect(config.LOG_LEVEL).toBe('info');
  });

  it('reads numbers and booleans from their text form', () => {
    const config = loadConfig({ RESOLVER_PORT: '9000', SEED_SAMPLE_REGISTRY: 'false' });
    expect(config.RESOLVER_PORT).toBe(9000);
    expect(config.SEED_SAMPLE_REGISTRY).toBe(false);
  });

  it('drops a trailing slash from the public URLs so links never get a double slash', () => {
    const config = loadConfig({ PUBLIC_RESOLVER_URL: 'https://resolver.example.org/' });
    expect(config.PUBLIC_RESOLVER_URL).toBe('https://resolver.example.org');
  });

  it('refuses to start with one message naming every bad variable', () => {
    let caught: unknown;
    try {
      loadConfig({ RESOLVER_PORT: 'eighty', REDIS_URL: 'http://nope', LOG_LEVEL: 'loud', PUBLIC_REGISTRY_URL: 'ftp://x' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const message = (caught as ConfigError).message;
    for (const name of ['RESOLVER_PORT', 'REDIS_URL', 'LOG_LEVEL', 'PUBLIC_REGISTRY_URL']) expect(message).toContain(name);
    expect((caught as ConfigError).problems).toHaveLength(4);
    expect(message).toContain('"eighty"');
  });

  it('rejects a port outside 0-65535', () => {
    expect(() => loadConfig({ REGISTRY_PORT: '70000' })).toThrow(/REGISTRY_PORT/);
  });

  it('converts numbers as ajv\'s coercion did (spaces, exponents) and refuses what is no finite number of the kind', () => {
    expect(loadConfig({ RESOLVER_PORT: ' 9000 ', RATE_LIMIT_BATCH: '1e3' })).toMatchObject({ RESOLVER_PORT: 9000, RATE_LIMIT_BATCH: 1000 });
    expect(() => loadConfig({ RESOLVER_PORT: '80.5' })).toThrow('Invalid configuration: RESOLVER_PORT="80.5" must be integer');
    // ajv's coercion took "Infinity" past the maximum (a port of Infinity); it is refused now.
    expect(() => loadConfig({ RESOLVER_PORT: 'Infinity' })).toThrow('Invalid configuration: RESOLVER_PORT="Infinity" must be integer');
    expect(() => loadConfig({ USAGE_COUNTING: '1' })).toThrow('Invalid configuration: USAGE_COUNTING="1" must be boolean');
  });

  it('leaves curation off with an empty curator token and takes a long one', () => {
    expect(loadConfig({}).CURATOR_TOKEN).toBe('');
    expect(loadConfig({ CURATOR_TOKEN: '' }).CURATOR_TOKEN).toBe('');
    const long = 'k'.repeat(32);
    expect(loadConfig({ CURATOR_TOKEN: long }).CURATOR_TOKEN).toBe(long);
  });

  it.each([
    ['one character long', 'x'],
    ['31 characters long', 'y'.repeat(31)],
    ['holding a space', `${'a'.repeat(20)} ${'b'.repeat(20)}`],
    ['ending in a line break', `${'c'.repeat(40)}\n`],
    ['only spaces', ' '.repeat(40)],
  ])('refuses a curator token %s, naming the setting without echoing the secret', (_what, token) => {
    let caught: unknown;
    try {
      loadConfig({ CURATOR_TOKEN: token });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).problems).toEqual([
      'CURATOR_TOKEN must be at least 32 characters without whitespace (or empty to turn curation off)',
    ]);
    if (token.trim().length > 1) expect((caught as ConfigError).message).not.toContain(token.trim());
  });

  it('names the token curator "curator" unless CURATOR_NAME says otherwise, and refuses a blank name', () => {
    expect(loadConfig({}).CURATOR_NAME).toBe('curator');
    expect(loadConfig({ CURATOR_NAME: 'Carla Curator' }).CURATOR_NAME).toBe('Carla Curator');
    expect(() => loadConfig({ CURATOR_NAME: '   ' })).toThrow('CURATOR_NAME="   " must be a name (not blank, no leading or trailing space)');
  });

  it('takes curation origins as a comma-separated list of origins, and refuses one with a path', () => {
    const config = loadConfig({ CURATION_CORS_ORIGINS: 'https://Curation.example.org/, http://localhost:3000' });
    expect(parseOrigins(config.CURATION_CORS_ORIGINS)).toEqual(['https://curation.example.org', 'http://localhost:3000']);
    expect(parseOrigins(loadConfig({}).CURATION_CORS_ORIGINS)).toEqual([]);
    expect(() => loadConfig({ CURATION_CORS_ORIGINS: 'https://curation.example.org/desk' })).toThrow(/CURATION_CORS_ORIGINS=.* must be a comma-separated list of origins/);
  });

  it('takes an OpenID Connect issuer over https (http only on this machine) with its client id and curators, and never echoes the secret', () => {
    const oidc = { OIDC_CLIENT_ID: 'registry', OIDC_CURATORS: 'ann@example.org, sub-1', OIDC_CLIENT_SECRET: 'a secret' };
    expect(loadConfig({ ...oidc, OIDC_ISSUER: 'https://login.example.org/realms/curators' }).OIDC_ISSUER).toBe('https://login.example.org/realms/curators');
    expect(loadConfig({ ...oidc, OIDC_ISSUER: 'http://127.0.0.1:9000' }).OIDC_ISSUER).toBe('http://127.0.0.1:9000');
    expect(() => loadConfig({ ...oidc, OIDC_ISSUER: 'http://login.example.org' })).toThrow(
      'OIDC_ISSUER="http://login.example.org" must be an https:// URL (http:// only on 127.0.0.1 or localhost)',
    );
    expect(() => loadConfig({ OIDC_ISSUER: 'https://login.example.org' })).toThrow(
      'OIDC_CLIENT_ID is required when OIDC_ISSUER is set; OIDC_CURATORS is required when OIDC_ISSUER is set',
    );
    expect(() => loadConfig({ OIDC_CLIENT_SECRET: 'x'.repeat(1001) })).toThrow(/^Invalid configuration: OIDC_CLIENT_SECRET is too long$/);
    expect(loadConfig({}).CURATOR_SESSION_HOURS).toBe(8);
  });

  it('takes OpenID Connect access tokens with an issuer, an audience and a curator role, with or without the desk sign-in', () => {
    const api = { OIDC_ISSUER: 'https://login.example.org/realms/idorg', OIDC_API_AUDIENCE: 'hq-registry', OIDC_CURATOR_ROLE: 'curator, /curators' };
    expect(loadConfig(api)).toMatchObject({ OIDC_API_AUDIENCE: 'hq-registry', OIDC_CLIENT_ID: '' });
    expect(loadConfig({ ...api, OIDC_CLIENT_ID: 'registry', OIDC_CURATORS: 'ann@example.org' }).OIDC_CLIENT_ID).toBe('registry');
    expect(() => loadConfig({ ...api, OIDC_CLIENT_ID: 'registry' })).toThrow(
      'Invalid configuration: OIDC_CURATORS is required when OIDC_ISSUER is set (the subjects or e-mail addresses of the curators)',
    );
    expect(() => loadConfig({ OIDC_API_AUDIENCE: 'hq-registry' })).toThrow(
      'Invalid configuration: OIDC_ISSUER is required when OIDC_API_AUDIENCE is set (the provider whose access tokens are taken); ' +
        "OIDC_CURATOR_ROLE is required when OIDC_API_AUDIENCE is set (the role or group that makes an access token a curator's)",
    );
    expect(() => loadConfig({ OIDC_CURATOR_ROLE: 'curator' })).toThrow('Invalid configuration: OIDC_CURATOR_ROLE is used only with OIDC_API_AUDIENCE, which is not set');
  });

  it('takes a queue prefix with one {hash tag} for Redis Cluster, and refuses stray braces', () => {
    expect(loadConfig({ QUEUE_PREFIX: '{curie}' }).QUEUE_PREFIX).toBe('{curie}');
    expect(loadConfig({ QUEUE_PREFIX: 'prod-{curie}' }).QUEUE_PREFIX).toBe('prod-{curie}');
    for (const bad of ['{curie', 'cu}rie', '{a}{b}', '{}', 'a b', 'a:b']) {
      expect(() => loadConfig({ QUEUE_PREFIX: bad })).toThrow('may hold letters, digits, _ . - and one {hash tag}');
    }
  });

  it('reads from the primary unless DATABASE_READ_URL names a replica', () => {
    expect(loadConfig({}).DATABASE_READ_URL).toBe('');
    expect(loadConfig({ DATABASE_READ_URL: 'postgres://db-replica/curie' }).DATABASE_READ_URL).toBe('postgres://db-replica/curie');
    expect(() => loadConfig({ DATABASE_READ_URL: 'mysql://db-replica/curie' })).toThrow(/DATABASE_READ_URL/);
  });

  it('takes the database name from DATABASE_URL', () => {
    expect(databaseName('postgres://u@h:5432/my_db')).toBe('my_db');
  });
});
