import { randomBytes } from 'node:crypto';

/** `stem` and 8 random hex digits: prefixes, provider codes and keys that no other test run uses. */
export const unique = (stem: string): string => `${stem}${randomBytes(4).toString('hex')}`;

const DESCRIPTION = 'A database of example records, described at length for the curators of the registry.';

/**
 * A prefix registration request that passes every check when the URL checks are stand-ins. The provider has
 * a host of its own per prefix, so that no two requests' URL patterns look alike to the similarity check.
 */
export function prefixRegistration(prefix: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: `Example records ${prefix}`,
    description: DESCRIPTION,
    requestedPrefix: prefix,
    sampleId: '12345',
    idRegexPattern: '^\\d+$',
    providerUrlPattern: `https://${prefix}.example.org/items/{$id}`,
    providerHomeUrl: `https://${prefix}.example.org/`,
    providerName: `Example provider ${prefix}`,
    providerDescription: DESCRIPTION,
    providerLocation: 'GB',
    providerCode: `p${prefix}`,
    institutionName: 'Example institute',
    institutionHomeUrl: 'https://institute.example.org/',
    institutionDescription: DESCRIPTION,
    institutionLocation: 'gb',
    references: ['https://doi.org/10.1000/182'],
    additionalInformation: 'nothing else',
    requester: { name: 'Ann Example', email: 'ann@example.org' },
    namespaceEmbeddedInLui: false,
    protectedUrls: false,
    ...overrides,
  };
}

/** A resource registration request (a new provider for ncbigene of the sample registry) that passes every check. */
export function resourceRegistration(code: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    namespacePrefix: 'ncbigene',
    providerHomeUrl: `https://${code}.example.org/`,
    providerName: `Mirror ${code}`,
    providerDescription: DESCRIPTION,
    providerLocation: 'JP',
    providerCode: code,
    providerUrlPattern: `https://${code}.example.org/genes/{$id}`,
    sampleId: '100010',
    institutionName: 'Mirror Institute',
    institutionHomeUrl: 'https://mirror-institute.example.org/',
    institutionDescription: DESCRIPTION,
    institutionLocation: 'JP',
    requester: { name: 'Rob Resource', email: 'rob@example.org' },
    ...overrides,
  };
}
