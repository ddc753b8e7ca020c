/**
 * A submission retried with the same Idempotency-Key gets the first answer back byte for byte (status,
 * Content-Type and body text), on both submission endpoints; the answer was stored as jsonb, which gave it
 * back with its fields reordered. The URL check and the regex test are stand-ins (they have tests of their
 * own): what is under test is the stored answer.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { RequestListener } from 'node:http';
import request from 'supertest';
import { loadConfig } from '../../src/config.js';
import { importRegistry } from '../../src/importer/import-registry.js';
import { validateNamespaces } from '../../src/importer/read-dataset.js';
import { createLogger } from '../../src/lib/logger.js';
import { createProducerRedis } from '../../src/queue/connections.js';
import { createRegistryApp } from '../../src/registry/app.js';
import type { RegexTest, UrlCheck } from '../../src/registry/registration/checks.js';
import { SAMPLE_REGISTRY } from '../support/resolver-app.js';
import { createTestDatabase, TEST_REDIS_URL, type TestDatabase } from '../support/test-database.js';

const urlCheck: UrlCheck = async () => null;
const regexTest: RegexTest = async (pattern, sample) => {
  const compiled = new RegExp(`^(?:${pattern})$`);
  return sample === null ? { compiles: true } : { compiles: true, matches: compiled.test(sample) };
};

const unique = (stem: string) => `${stem}${randomBytes(4).toString('hex')}`;
const DESCRIPTION = 'Made up for the Idempotency-Key tests, with a description long enough for the minimum.';

function prefixPayload() {
  const prefix = unique('idem');
  return {
    name: `Replayed namespace ${prefix}`,
    description: DESCRIPTION,
    requestedPrefix: prefix,
    sampleId: '4711',
    idRegexPattern: '^[0-9]+$',
    providerUrlPattern: `https://${prefix}.example.org/items/{$id}`,
    providerHomeUrl: `https://${prefix}.example.org/`,
    providerName: `Provider of ${prefix}`,
    providerDescription: DESCRIPTION,
    providerLocation: 'DE',
    providerCode: unique('p'),
    institutionName: 'Replay Institute',
    institutionHomeUrl: 'https://institute.example.org/',
    institutionDescription: DESCRIPTION,
    institutionLocation: 'FR',
    requester: { name: 'Ida Idempotent', email: 'ida@example.org' },
    namespaceEmbeddedInLui: false,
    protectedUrls: false,
  };
}

function resourcePayload() {
  const host = unique('mirror');
  return {
    namespacePrefix: 'ncbigene',
    providerHomeUrl: `https://${host}.example.org/`,
    providerName: `Mirror ${host}`,
    providerDescription: DESCRIPTION,
    providerLocation: 'JP',
    providerCode: unique('m'),
    providerUrlPattern: `https://${host}.example.org/genes/{$id}`,
    sampleId: '100010',
    institutionName: 'Mirror Institute',
    institutionHomeUrl: 'https://mirror-institute.example.org/',
    institutionDescription: DESCRIPTION,
    institutionLocation: 'JP',
    requester: { name: 'Rob Resource', email: 'rob@example.org' },
  };
}

describe('Idempotency-Key replays', () => {
  let t: TestDatabase;
  let app: RequestListener;
  const redis = createProducerRedis(TEST_REDIS_URL);

  beforeAll(async () => {
    t = await createTestDatabase('idempotent_replay');
    await importRegistry(t.db, validateNamespaces(JSON.parse(await readFile(SAMPLE_REGISTRY, 'utf8'))), {});
    const config = loadConfig({ LOG_LEVEL: 'silent' });
    app = createRegistryApp({ config, db: t.db, redis, logger: createLogger('silent', 'test'), registration: { urlCheck, regexTest } }).callback();
  });
  afterAll(async () => {
    redis.disconnect();
    await t.drop();
  });

  it.each([
    ['/prefixRegistrationApi/registerPrefix', prefixPayload],
    ['/resourceManagementApi/registerResource', resourcePayload],
  ])('answers a retry of %s with the bytes of the first answer', async (path, payload) => {
    const body = JSON.stringify({ apiVersion: '1.0', payload: payload() });
    const key = unique('replay-');
    const send = () => request(app).post(path).set('Content-Type', 'application/json').set('Idempotency-Key', key).send(body);
    const first = await send();
    const replay = await send();

    expect(first.status).toBe(200);
    expect(first.text).toMatch(/^\{"apiVersion":"1\.0","errorMessage":null,"payload":\{"comment":"[^"]+","token":"[^"]+"\}\}$/);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect({ status: replay.status, type: replay.headers['content-type'], text: replay.text }).toEqual({
      status: first.status,
      type: first.headers['content-type'],
      text: first.text,
    });
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(replay.headers['content-length']).toBe(first.headers['content-length']);
  });
});
