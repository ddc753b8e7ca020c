/**
 * Browser redirects for LUIs beyond ASCII against the complete identifiers.org dataset (REGISTRY_DATASET):
 * every namespace's sample identifier with a character above U+00FF, or a Latin-1 one, appended. Wherever
 * the namespace's pattern takes it, the answer is a redirect whose Location is visible ASCII (Node refused
 * the first kind in a header, a 500, and sent the second as raw bytes) and decodes back to the provider URL.
 */
import { readFileSync } from 'node:fs';
import { startResolver, type ResolverUnderTest } from '../support/areas.js';
import { startRawServer, type RawServer } from '../support/raw-http.js';
import { describeRequiring, registryDataset } from '../support/requirements.js';

const realDataset = registryDataset();
const dataset = realDataset.file as string;

interface DatasetNamespace {
  prefix: string;
  sampleId: string;
}

describeRequiring([realDataset], 'redirect Location against the real dataset', () => {
  let resolver: ResolverUnderTest;
  let server: RawServer;

  beforeAll(async () => {
    resolver = await startResolver('redirect_location_real', { data: { file: dataset } });
    server = await startRawServer(resolver.app);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await resolver?.close();
  });

  it(
    'redirects every namespace that takes a LUI beyond ASCII with a visible-ASCII Location',
    async () => {
      const namespaces = JSON.parse(readFileSync(dataset, 'utf8')) as DatasetNamespace[];
      const failures: string[] = [];
      const redirected = { '中': [] as string[], 'é': [] as string[] };
      for (const [char, escaped] of [['中', '%E4%B8%AD'], ['é', '%C3%A9']] as const) {
        for (const { prefix, sampleId } of namespaces) {
          const path = `/${prefix}:${encodeURI(sampleId).replace(/[?#]/g, encodeURIComponent)}${escaped}`;
          const res = await server.send({ method: 'GET', path, headers: { Accept: 'text/html' } });
          if (res.status >= 500) failures.push(`${path} → ${res.status}`);
          if (res.status !== 302) continue;
          const location = res.headers.location ?? '';
          if (!/^[\x21-\x7e]+$/.test(location)) failures.push(`${path} → Location ${JSON.stringify(location)}`);
          else if (!location.startsWith(resolver.config.PUBLIC_RESOLVER_URL) && !decodeURI(location).includes(char)) {
            failures.push(`${path} → Location ${location} does not carry ${char}`);
          } else redirected[char].push(prefix);
        }
      }
      expect(failures).toEqual([]);
      console.log(`redirected with an ASCII Location: 中 ${redirected['中'].length} namespaces, é ${redirected['é'].length}`);
      expect(redirected['中'].length).toBeGreaterThanOrEqual(13);
    },
    120_000,
  );
});
