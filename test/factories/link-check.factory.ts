/** Registry records (the importer's dataset shape) whose providers are fixture sites on 127.0.0.1. */

export interface FixtureProvider {
  code: string;
  urlPattern: string;
  resourceHomeUrl: string;
  sampleId?: string;
  protectedUrls?: boolean;
  deprecated?: boolean;
}

let mirCounter = 0;
const nextMir = (kind: '000' | '001') => `MIR:${kind}${String(90_000 + ++mirCounter).padStart(5, '0')}`;

const location = { countryCode: 'GB', countryName: 'United Kingdom' };

/** A namespace `prefix` with one resource per provider (provider codes are the resources' names too). */
export function fixtureNamespace(prefix: string, providers: FixtureProvider[], options: { sampleId?: string; embedded?: boolean } = {}) {
  return {
    prefix,
    mirId: nextMir('000'),
    name: `Fixture ${prefix}`,
    pattern: '^.+$',
    description: `Providers standing in for real ones in the link-check tests (${prefix}).`,
    created: '2024-01-01T00:00:00.000+00:00',
    modified: '2024-01-01T00:00:00.000+00:00',
    sampleId: options.sampleId ?? '1',
    namespaceEmbeddedInLui: options.embedded ?? false,
    deprecated: false,
    resources: providers.map((p) => ({
      mirId: nextMir('001'),
      urlPattern: p.urlPattern,
      name: p.code,
      description: `Fixture provider ${p.code}`,
      official: false,
      providerCode: p.code,
      sampleId: p.sampleId ?? null,
      resourceHomeUrl: p.resourceHomeUrl,
      institution: { name: 'Fixture Institute', homeUrl: 'http://127.0.0.1/', description: 'Stands in for an institution.', rorId: null, location },
      location,
      deprecated: p.deprecated ?? false,
      protectedUrls: p.protectedUrls ?? false,
      renderProtectedLanding: false,
    })),
  };
}
