/**
 * A submission retried with the same Idempotency-Key gets the first answer back byte for byte (status,
 * Content-Type and body text), on both submission endpoints; the answer was stored as jsonb, which gave it
 * back with its fields reordered. The URL check and the regex test are stand-ins (they have tests of their
 * own): what is under test is the stored answer.
 */
import request from 'supertest';
import { prefixRegistration, resourceRegistration, unique } from '../factories/registration.factory.js';
import { startRegistry, type RegistryUnderTest } from '../support/areas.js';
import { regexpChecks } from '../support/stand-in-checks.js';

const prefixPayload = () => prefixRegistration(unique('idem'));
const resourcePayload = () => resourceRegistration(unique('mirror'));

describe('Idempotency-Key replays', () => {
  let t: RegistryUnderTest;
  beforeAll(async () => (t = await startRegistry('idempotent_replay', { registration: regexpChecks })));
  afterAll(() => t.close());

  it.each([
    ['/prefixRegistrationApi/registerPrefix', prefixPayload],
    ['/resourceManagementApi/registerResource', resourcePayload],
  ])('answers a retry of %s with the bytes of the first answer', async (path, payload) => {
    const body = JSON.stringify({ apiVersion: '1.0', payload: payload() });
    const key = unique('replay-');
    const send = () => request(t.app).post(path).set('Content-Type', 'application/json').set('Idempotency-Key', key).send(body);
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
