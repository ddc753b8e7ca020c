/**
 * /registryInsightApi/getEbiSearchDataset is written once per registry version and shared: the same bytes
 * to every request while the registry stays as it is, and a change shows in the next answer.
 */
import request from 'supertest';
import { startRegistry, type RegistryUnderTest } from '../support/areas.js';

let t: RegistryUnderTest;

beforeAll(async () => {
  t = await startRegistry('ebidataset');
});

afterAll(async () => {
  await t?.close();
});

const nameOf = (body: { entries: { fields: { name: string; value: string }[] }[] }, prefix: string) =>
  body.entries.find((e) => e.fields.some((f) => f.name === 'prefix' && f.value === prefix))?.fields.find((f) => f.name === 'name')?.value;

describe('GET /registryInsightApi/getEbiSearchDataset', () => {
  it('answers concurrent requests with the same JSON, and shows a namespace renamed since in the next answer', async () => {
    const answers = await Promise.all([1, 2, 3].map(() => request(t.app).get('/registryInsightApi/getEbiSearchDataset')));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(answers[0]!.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answers[0]!.text).toBe(JSON.stringify(answers[0]!.body));
    expect(nameOf(answers[0]!.body, 'go')).toBe('Gene Ontology');

    await t.db('namespaces').where({ prefix: 'go' }).update({ name: 'Gene Ontology (renamed)', modified: new Date() });
    const after = await request(t.app).get('/registryInsightApi/getEbiSearchDataset');
    expect(nameOf(after.body, 'go')).toBe('Gene Ontology (renamed)');
    const since = await request(t.app).get('/registryInsightApi/getEbiSearchDataset').query({ start: new Date().toISOString().slice(0, 10) });
    expect(since.status).toBe(200);
    expect(since.body.entries).toHaveLength(1);
    expect(since.body.entry_count).toBe(1);
  });
});
